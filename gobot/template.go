package gobot

import (
	"embed"
	"fmt"
	"strings"

	"github.com/arena-playground/arena/engine/match"
)

// The templates are packages of their own (templates/GAME), compiled and
// tested as arena's bots are, and embedded here as the source the page's
// editor and `arena template` give.
//
//go:embed templates/*/bot.go
var templates embed.FS

// Template returns the source a bot for game starts from: a bot that
// plays the game's greedy rule through the public API.
func Template(game string) (string, error) {
	b, err := templates.ReadFile("templates/" + game + "/bot.go")
	if err != nil {
		var names []string
		for _, g := range match.Games() {
			names = append(names, g.Info().Name)
		}
		return "", fmt.Errorf("no template for game %q (there are: %s)", game, strings.Join(names, ", "))
	}
	return string(b), nil
}

// Imports are the packages a bot may import: arena's bot API and the
// standard packages whose tables the interpreter carries.
var Imports = []string{
	"container/heap", "errors", "fmt", "math", "math/bits", "math/rand/v2", "sort", "strconv", "strings", "time",
	"github.com/arena-playground/arena/engine/match",
	"github.com/arena-playground/arena/engine/colosseum",
	"github.com/arena-playground/arena/engine/evasion",
	"github.com/arena-playground/arena/engine/life",
	"github.com/arena-playground/arena/engine/mapcolor",
	"github.com/arena-playground/arena/engine/pathgame",
}
