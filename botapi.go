// Package arena is the module's root. It holds one thing, BotAPI: the
// source of the packages a bot written in Go is built against, which
// arena carries so that a go: file compiles wherever Go is installed,
// with no network and no copy of this repository (see gobot/build).
package arena

import "embed"

// BotAPI is the source of the bot API's packages and of what they import
// from this module: every package of engine (the games, their API and
// list, the room that plays matches), the program a compiled bot
// runs in (gobot/serve) and their leaves. Tests are left out where it is
// written (gobot/build); go.mod gives the Go version.
//
//go:embed go.mod
//go:embed assets
//go:embed box/caps/*.go internal/cleanup/*.go internal/fileerr/*.go internal/confine/*.go internal/safefile/*.go internal/untrusted/*.go internal/jsonwire/*.go
//go:embed engine/*/*.go engine/*/*.py
//go:embed gobot/*.go gobot/templates/*/bot.go gobot/serve/*.go
var BotAPI embed.FS
