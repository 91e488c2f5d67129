package players

import (
	"fmt"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The "cmd" kind: a program on its standard input and output, speaking
// the game's line protocol, or run once per move by a game whose course
// ran programs on files (a match.FileProtocol).
func init() {
	play.RegisterKind(play.Kind{
		Name:        Command,
		Example:     "cmd:python3 my_agent.py",
		Description: "a program on stdin and stdout (map colouring: run once per move on input.txt and output.txt)",
		Parse:       commandSpec(Command, "the program to run, as in cmd:python3 my_agent.py"),
		New:         newCommand,
		Check:       checkCommand,
	})
}

// commandSpec parses the spec of a kind whose rest is a command line:
// one that does not split (an unclosed quote) is a mistake in the spec,
// refused as the spec is read, before anything runs.
func commandSpec(kind, needs string) func(s, rest string) (play.Spec, error) {
	return func(s, rest string) (play.Spec, error) {
		if strings.TrimSpace(rest) == "" {
			return play.Spec{}, fmt.Errorf("bot spec %q: give %s", s, needs)
		}
		if _, err := splitCommand(rest); err != nil {
			return play.Spec{}, fmt.Errorf("bot spec %q: %v", s, err)
		}
		return play.Spec{Name: kind, Command: rest}, nil
	}
}

// checkCommand finds the program, and a way for the game to play it.
func checkCommand(g match.Game, spec play.Spec, _ play.Hosting) error {
	_, files := g.(FileProtocol)
	_, lines := g.(Protocol)
	if !files && !lines {
		return fmt.Errorf("%s has no protocol for programs to play with", g.Info().Name)
	}
	if err := findProgram(spec); err != nil {
		return fmt.Errorf("cmd:%s: %w", spec.Command, err)
	}
	return nil
}

func newCommand(g match.Game, spec play.Spec, h play.Hosting) (match.Bot, error) {
	if fp, ok := g.(FileProtocol); ok {
		return newFileBot(fp, spec, h)
	}
	if proto, ok := g.(Protocol); ok {
		return newProcessBot(proto, spec, h)
	}
	return nil, fmt.Errorf("%s has no protocol for programs to play with", g.Info().Name)
}
