package gobot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	alphabeta "github.com/arena-playground/arena/gobot/internal/alphabeta"
	makeunmake "github.com/arena-playground/arena/gobot/internal/makeunmake"
)

// thinkPerMove plays the setup and returns the mean time side took a
// move, as the match measured it (for a go: bot: the request, its
// process's answer and the reply), and the moves it made.
func thinkPerMove(b *testing.B, s play.Setup, side match.Side) (time.Duration, int) {
	b.Helper()
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	n := 0
	for _, t := range rec.Turns {
		if t.Actions[side] != nil {
			total += t.Think[side]
			n++
		}
		if t.Replaced[side] != "" {
			b.Fatalf("turn: the bot's move was replaced: %s", t.Replaced[side])
		}
	}
	return total / time.Duration(max(n, 1)), n
}

// BenchmarkGoBots plays the templates that are greedy's rule (the
// shortest path on gen-300 and gen-1000, Life) against random as go: files, built with
// Go and interpreted, and greedy itself against random in the same match,
// in the same run: x-greedy is the built bot's time a move as a multiple
// of greedy's, x-greedy-interp the interpreted one's. A go: bot's move
// crosses to its process and back; greedy's is a call.
func BenchmarkGoBots(b *testing.B) {
	for _, c := range []struct{ name, game, preset string }{
		{"pathgame", "pathgame", ""}, // gen-300, as setup plays it
		{"pathgame-1000", "pathgame", "gen-1000"},
		{"life", "life", ""},
	} {
		game := c.game
		b.Run(c.name, func(b *testing.B) {
			spec, err := play.ParseSpec("go:" + filepath.Join("templates", game, "bot.go"))
			if err != nil {
				b.Fatal(err)
			}
			random, _ := play.ParseSpec("random")
			greedy, _ := play.ParseSpec("greedy")
			s := setup(&testing.T{}, game, 5)
			if c.preset != "" {
				p, err := match.LookupPreset(s.Game, c.preset)
				if err != nil {
					b.Fatal(err)
				}
				s.Config = p.Config
			}
			s.Players = [2]play.Spec{spec, random}
			if _, n := thinkPerMove(b, s, match.P1); n == 0 { // built once, before the timing
				b.Fatal("the template made no move")
			}
			var built, interp, native time.Duration
			var moves int
			for b.Loop() {
				s.Players[0], s.Hosting.Interpret = spec, false
				built, moves = thinkPerMove(b, s, match.P1)
				s.Hosting.Interpret = true
				interp, _ = thinkPerMove(b, s, match.P1)
				s.Players[0], s.Hosting.Interpret = greedy, false
				native, _ = thinkPerMove(b, s, match.P1)
			}
			b.ReportMetric(float64(moves), "moves")
			b.ReportMetric(float64(built)/1e6, "built-ms/move")
			b.ReportMetric(float64(interp)/1e6, "interp-ms/move")
			b.ReportMetric(float64(native)/1e6, "greedy-ms/move")
			b.ReportMetric(float64(built)/float64(native), "x-greedy")
			b.ReportMetric(float64(interp)/float64(native), "x-greedy-interp")
		})
	}
}

// nodesPerSecond is the nodes a second side searched in the record (its
// notes' nodes over its thinking time).
func nodesPerSecond(rec *play.Record, side match.Side) float64 {
	var nodes int64
	var think time.Duration
	for _, t := range rec.Turns {
		if n := t.Notes[side].Get(); n != nil && t.Actions[side] != nil {
			nodes += n.Nodes
			think += t.Think[side]
		}
	}
	return float64(nodes) / think.Seconds()
}

// BenchmarkSearchNodes plays two Colosseum alpha-betas as go: files
// against strong, each built with Go, interpreted, and compiled into this
// binary, in the same run: x-native is the built file's nodes a second
// over the same source compiled in, x-strong over strong's in the same
// match (a go: bot's time a move includes its request and reply).
//
//   - alphabeta (internal/alphabeta) is written as a student first
//     writes one: 20,000 positions a move, counted by the bot, each a
//     copy of the state, each leaf two floods. Strong (its default
//     budget) searches another way, cheaper a node.
//   - makeunmake (internal/makeunmake) is strong's own search written as
//     a go: file: strong:nodes=20000 is its opponent, and the two search
//     the same trees, so x-strong is what the go: path costs a node.
//
// The matches' clock is 600 s a move, so that no interpreted move is
// stopped. makeunmake is not interpreted here: it does all its work in
// its own loops, which yaegi runs at 2,755 nodes a second (0.006 of
// built, one match, 320 s), where alphabeta calls the API's compiled
// floods.
func BenchmarkSearchNodes(b *testing.B) {
	for _, c := range []struct {
		name, opponent string
		act            match.BotFunc
		interpret      bool
	}{
		{"alphabeta", "strong", alphabeta.Act, true},
		{"makeunmake", "strong:nodes=20000", makeunmake.Act, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			spec, err := play.ParseSpec("go:" + filepath.Join("internal", c.name, "bot.go"))
			if err != nil {
				b.Fatal(err)
			}
			strong, _ := play.ParseSpec(c.opponent)
			g, _ := match.Lookup("colosseum")
			// A clock no move reaches: makeunmake, interpreted, takes
			// longer than the course's 2 s a move.
			cfg, err := g.LoadConfig("bench", []byte(`{"move_ms": 600000}`))
			if err != nil {
				b.Fatal(err)
			}
			s := play.Setup{Game: g, Config: cfg, Seed: 7, Players: [2]play.Spec{spec, strong}}
			play := func(interpret, native bool) *play.Record {
				s.Hosting.Interpret, s.Bots[0] = interpret, nil
				if native {
					s.Bots[0] = c.act
				}
				rec, err := play.Play(context.Background(), s)
				if err != nil {
					b.Fatal(err)
				}
				return rec
			}
			play(false, false) // built once, before the timing
			var built, interp, native, strongBuilt, strongInterp float64
			for b.Loop() {
				rec := play(false, false)
				built, strongBuilt = nodesPerSecond(rec, match.P1), nodesPerSecond(rec, match.P2)
				if c.interpret {
					rec = play(true, false)
					interp, strongInterp = nodesPerSecond(rec, match.P1), nodesPerSecond(rec, match.P2)
				}
				native = nodesPerSecond(play(false, true), match.P1)
			}
			b.ReportMetric(built, "built-nodes/s")
			b.ReportMetric(native, "native-nodes/s")
			b.ReportMetric(strongBuilt, "strong-nodes/s")
			b.ReportMetric(built/native, "x-native")
			b.ReportMetric(built/strongBuilt, "x-strong")
			if c.interpret {
				b.ReportMetric(interp, "interp-nodes/s")
				b.ReportMetric(interp/native, "x-native-interp")
				b.ReportMetric(interp/strongInterp, "x-strong-interp")
			}
		})
	}
}
