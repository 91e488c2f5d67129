package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/players"
)

// serve runs `arena bot`'s loop over the given input for a bot.
func serve(t *testing.T, bot match.Bot, seed uint64, input string) (string, string) {
	t.Helper()
	g := colosseum.Game{}
	var out, errb bytes.Buffer
	if err := serveBot(strings.NewReader(input), &out, &errb, g, players.NewClient(g, "t"), g, bot, match.Options{}, seed, match.P1, false); err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String()
}

func stepLine(id int) string {
	return string(colosseum.Step(colosseum.NewState(colosseum.Sized(8), 3), id, 0))
}

// A served bot that panics, errs or plays a move its check refuses is
// reported in words, and the random bot answers for it: the host hears a
// legal move, never a Go trace or a silence.
func TestServedBotFailsCleanly(t *testing.T) {
	for name, bot := range map[string]match.Bot{
		"panic":   match.BotFunc(func(*match.Turn) (match.Action, error) { panic("index out of range") }),
		"error":   match.BotFunc(func(*match.Turn) (match.Action, error) { return nil, errors.New("confused") }),
		"illegal": match.BotFunc(func(*match.Turn) (match.Action, error) { return colosseum.Move{To: colosseum.Cell{Row: 99}}, nil }),
	} {
		out, errs := serve(t, bot, 1, stepLine(1))
		if !strings.Contains(out, `"id":1`) || !strings.Contains(errs, "the random bot answers instead") || strings.Contains(errs, "goroutine") {
			t.Errorf("%s: answered %q, said %q", name, out, errs)
		}
	}
}

// A state in which the side has no move (the game is over) is refused in
// words; the bot goes on with the next request.
func TestServedBotRefusesAFinishedGame(t *testing.T) {
	s := colosseum.NewState(colosseum.Sized(6), 1)
	for s.ToMove() != match.Nobody {
		var acts [2]match.Action
		acts[s.ToMove().Side()] = s.Moves(nil)[0]
		s = s.Apply(acts).(colosseum.State)
	}
	info, _ := match.LookupBot(colosseum.Game{}, "strong")
	bot, _ := info.New(match.Options{Budget: match.Budget{Nodes: 1000}})
	over := string(colosseum.Step(s, 1, 0))
	out, errs := serve(t, bot, 1, over+stepLine(2))
	if !strings.Contains(errs, "has no move to make") || strings.Contains(out, `"id":1`) || !strings.Contains(out, `"id":2`) {
		t.Errorf("answered %q, said %q", out, errs)
	}
}

// The served random bot draws from the session's -seed: the same seed
// answers the same, and across seeds the same request gets different
// moves (it used to draw from the message's id, the same every game).
func TestServedRandomFollowsTheSeed(t *testing.T) {
	info, _ := match.LookupBot(colosseum.Game{}, "random")
	answers := map[string]bool{}
	for seed := uint64(1); seed <= 6; seed++ {
		b1, _ := info.New(match.Options{})
		b2, _ := info.New(match.Options{})
		a, _ := serve(t, b1, seed, stepLine(1))
		again, _ := serve(t, b2, seed, stepLine(1))
		if a != again {
			t.Fatalf("seed %d answered %q, then %q", seed, a, again)
		}
		answers[a] = true
	}
	if len(answers) < 2 {
		t.Errorf("six seeds, one answer: %v", answers)
	}
}

// Flags that make no sense are refused as command-line mistakes (exit 2),
// naming the flag, instead of being taken silently.
func TestNonsenseFlags(t *testing.T) {
	for _, args := range [][]string{
		{"record", "-game", "life", "-p1", "random", "-p2", "random", "-o", "x.gif", "-speed", "NaN"},
		{"record", "-game", "life", "-p1", "random", "-p2", "random", "-o", "x.png", "-at", "NaN"},
		{"record", "-game", "life", "-p1", "random", "-p2", "random", "-o", "x.gif", "-from", "99999"},
		{"autoplay", "-game", "life", "-p1", "random", "-p2", "random", "-n", "2", "-j", "-1"},
	} {
		code, _, stderr := arena(t, args...)
		flag := args[len(args)-2]
		if code != 2 || !strings.Contains(stderr, flag) {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
