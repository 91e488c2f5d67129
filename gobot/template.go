package gobot

import (
	"embed"
	"fmt"
	"reflect"
	"slices"
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

// Imports are the packages a bot may import besides the games: the
// standard packages whose tables the interpreter carries and the game
// API. ImportList adds the games.
var Imports = []string{
	"container/heap", "errors", "fmt", "math", "math/bits", "math/rand/v2", "sort", "strconv", "strings", "time",
	"github.com/arena-playground/arena/engine/match",
}

// ImportList is every package a bot may import: Imports and each game
// registered (engine/games' list), so that a new game is a bot's to
// import with no line written here.
func ImportList() []string { return append(slices.Clip(Imports), gamePackages()...) }

// gamePackages are the import paths of the games, sorted.
func gamePackages() []string {
	var out []string
	for _, g := range match.Games() {
		t := reflect.TypeOf(g)
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		out = append(out, t.PkgPath())
	}
	slices.Sort(out)
	return out
}
