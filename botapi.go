// Package arena is the module's root. It holds one thing, BotAPI: the
// source of the packages a bot written in Go is built against, which
// arena carries so that a go: file compiles wherever Go is installed,
// with no network and no copy of this repository (see gobot/build).
package arena

import "embed"

// BotAPI is the source of the bot API's packages and of what they import
// from this module: the games, engine/match (and engine/play, which
// colosseum's conformance replays through), the program a compiled bot
// runs in (gobot/serve) and their leaves. Tests are left out where it is
// written (gobot/build); go.mod gives the Go version.
//
//go:embed go.mod
//go:embed assets/*.go assets/life assets/mapcolor assets/pathgame
//go:embed box/caps/*.go internal/cleanup/*.go internal/fileerr/*.go internal/confine/*.go internal/safefile/*.go internal/untrusted/*.go
//go:embed engine/match/*.go engine/play/*.go engine/games/*.go engine/colosseum/*.go engine/colosseum/agentrunner.py
//go:embed engine/evasion/*.go engine/life/*.go engine/mapcolor/*.go engine/pathgame/*.go
//go:embed gobot/*.go gobot/templates/*/bot.go gobot/serve/*.go
var BotAPI embed.FS
