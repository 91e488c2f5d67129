package players

import (
	"github.com/arena-playground/arena/engine/play"
)

// The "go" kind: a bot written in Go against arena's bot API (see package
// gobot), interpreted in a process of its own: a child process of arena
// (kind_go.go), or a Web Worker of its own in the page (kind_go_js.go).
func init() {
	play.RegisterKind(play.Kind{
		Name:        "go",
		Example:     "go:mybot.go",
		Description: "a bot written in Go against arena's bot API (arena template -game GAME prints one), interpreted",
		Needs:       "the bot's .go file",
		New:         newGoBot,
		Check:       checkGoBot,
	})
}
