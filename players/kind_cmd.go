package players

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// The "cmd" kind: a program on its standard input and output, speaking
// the game's line protocol, or run once per move by a game whose course
// ran programs on files (a match.Commander).
func init() {
	match.RegisterKind(match.Kind{
		Name:        Command,
		Example:     "cmd:python3 my_agent.py",
		Description: "a program on stdin and stdout (map colouring: run once per move on input.txt and output.txt)",
		Needs:       "the program to run",
		New:         newCommand,
	})
}

func newCommand(g match.Game, spec match.Spec) (match.Bot, error) {
	if c, ok := g.(match.Commander); ok {
		return c.CommandBot(spec.Command)
	}
	if proto, ok := g.(match.Protocol); ok {
		return newProcessBot(proto, spec.Command)
	}
	return nil, fmt.Errorf("%s has no protocol for programs to play with", g.Info().Name)
}
