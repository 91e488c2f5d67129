package gobot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	colosseumbot "github.com/arena-playground/arena/gobot/templates/colosseum"
	evasionbot "github.com/arena-playground/arena/gobot/templates/evasion"
	lifebot "github.com/arena-playground/arena/gobot/templates/life"
	mapcolorbot "github.com/arena-playground/arena/gobot/templates/mapcolor"
	pathgamebot "github.com/arena-playground/arena/gobot/templates/pathgame"
	_ "github.com/arena-playground/arena/players/gointerp" // the go: kind, and this binary as the bots' interpreter
)

// compiled are the templates compiled into arena, as a built-in bot is.
var compiled = map[string]match.BotFunc{
	"colosseum": colosseumbot.Act,
	"evasion":   evasionbot.Act,
	"life":      lifebot.Act,
	"mapcolor":  mapcolorbot.Act,
	"pathgame":  pathgamebot.Act,
}

// equalsGreedy are the games whose template is arena's greedy move for
// move, as its doc says (Evasion's is a simpler rule of its own).
var equalsGreedy = map[string]bool{"colosseum": true, "life": true, "mapcolor": true, "pathgame": true}

// setups are short matches of each game that the tests play.
func setup(t *testing.T, game string, seed uint64) play.Setup {
	g, err := match.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	s := play.Setup{Game: g, Seed: seed}
	switch game {
	case "evasion":
		p, err := match.LookupPreset(g, "2-1")
		if err == nil {
			s.Config = p.Config
		}
	case "pathgame":
		p, err := match.LookupPreset(g, "gen-300")
		if err == nil {
			s.Config = p.Config
		}
	}
	return s
}

// replay plays a match and writes its replay.
func replay(t *testing.T, s play.Setup) string {
	t.Helper()
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := play.SaveReplay(&b, rec); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// unmarked is a replay without its notes' marks and expected lines.
func unmarked(t *testing.T, replay string) string {
	t.Helper()
	var rp play.Replay
	if err := json.Unmarshal([]byte(replay), &rp); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(rp.Unmarked(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTemplatesPlayTheSameInterpretedAndCompiled plays each game's
// template three times against greedy, from both seats: as a go: file
// interpreted in a child process, as a go: file compiled with Go
// (gobot/build) and run in a child process, and compiled into this
// binary; the replays must be byte for byte the same. Where the template
// is greedy's rule, it must also play what the built-in greedy plays.
func TestTemplatesPlayTheSameInterpretedAndCompiled(t *testing.T) {
	for game, act := range compiled {
		t.Run(game, func(t *testing.T) {
			file := filepath.Join("templates", game, "bot.go")
			spec, err := play.ParseSpec("go:" + file)
			if err != nil {
				t.Fatal(err)
			}
			t.Parallel()
			// greedy, not strong, faces it: strong's search would be most
			// of the test's time, and greedy's moves depend on the
			// template's as much.
			strong, _ := play.ParseSpec("greedy")
			for seat := range 2 {
				s := setup(t, game, uint64(11+seat))
				s.Players[seat], s.Players[1-seat] = spec, strong
				s.Hosting.Interpret = true
				interpreted := replay(t, s)
				s.Hosting.Interpret = false
				built := replay(t, s)
				if interpreted != built {
					t.Fatalf("seat %d: the interpreted template's replay differs from the one built with Go:\n%s", seat, firstDiff(interpreted, built))
				}
				s.Bots[seat] = act
				native := replay(t, s)
				if interpreted != native {
					t.Fatalf("seat %d: the interpreted template's replay differs from the compiled one's:\n%s", seat, firstDiff(interpreted, native))
				}
				if !strings.Contains(interpreted, `"turns"`) {
					t.Fatalf("no turns in the replay: %.300s", interpreted)
				}
				if equalsGreedy[game] {
					greedy, _ := play.ParseSpec("greedy")
					if s.Bots[seat], _, _, err = play.NewBot(s.Game, greedy, play.Hosting{}); err != nil {
						t.Fatal(err)
					}
					// Greedy notes its thinking its own way (each cell's
					// best, best first; the shortest path's cost in
					// words); the template marks every move as it weighs
					// it, to show how. The moves and the result are the
					// same.
					want := movesOf(t, replay(t, s))
					if got := movesOf(t, native); got != want {
						t.Fatalf("seat %d: the template does not play greedy's moves:\n%s", seat, firstDiff(got, want))
					}
				}
			}
		})
	}
}

// TestTemplateIsTheFile checks that Template gives the files that are
// compiled, and names the games when asked for another.
func TestTemplateIsTheFile(t *testing.T) {
	for game := range compiled {
		src, err := gobot.Template(game)
		if err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(filepath.Join("templates", game, "bot.go"))
		if err != nil || string(file) != src {
			t.Fatalf("%s: Template is not templates/%s/bot.go (%v)", game, game, err)
		}
	}
	if _, err := gobot.Template("chess"); err == nil || !strings.Contains(err.Error(), "colosseum") {
		t.Fatalf("Template(chess) = %v; want an error naming the games", err)
	}
}

// movesOf is a replay's turns' actions and its result, without the
// players' names or their notes.
func movesOf(t *testing.T, replay string) string {
	t.Helper()
	var rp play.Replay
	if err := json.Unmarshal([]byte(replay), &rp); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, turn := range rp.Turns {
		fmt.Fprintf(&b, "%d %s %s %q\n", i, turn.Actions[0], turn.Actions[1], turn.Replaced)
	}
	res, _ := json.Marshal(rp.Result)
	return b.String() + string(res)
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return fmt.Sprintf("at byte %d:\n  %.240s\n  %.240s", i, a[lo:], b[lo:])
}

// The runtime's fatal errors are said as what they were.
func TestFatalIn(t *testing.T) {
	for _, c := range []struct {
		said []string
		why  string
		kept int
	}{
		{[]string{"depth 3", "fatal error: stack overflow"}, "the bot overflowed its stack (a recursion without end?): fatal error: stack overflow", 1},
		{[]string{"fatal error: fault"}, "the bot's code faulted (a data race between its goroutines?): fatal error: fault", 0},
		{[]string{"fatal error: concurrent map writes"}, "the bot's code faulted (a data race between its goroutines?): fatal error: concurrent map writes", 0},
		{[]string{"fatal error: runtime: out of memory"}, "", 1},
		{[]string{"just printing"}, "", 1},
	} {
		why, printed := gobot.FatalIn(c.said)
		if why != c.why || len(printed) != c.kept {
			t.Errorf("%q: %q and %d lines, want %q and %d", c.said, why, len(printed), c.why, c.kept)
		}
	}
}
