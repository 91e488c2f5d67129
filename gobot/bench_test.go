package gobot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// thinkPerMove plays the setup and returns the mean time side took a
// move, as the match measured it (for a go: bot: the request, its
// process's answer and the reply), and the moves it made.
func thinkPerMove(b *testing.B, s match.Setup, side match.Side) (time.Duration, int) {
	b.Helper()
	rec, err := match.Play(context.Background(), s)
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
// shortest path on gen-300, Life) against random as go: files, built with
// Go and interpreted, and greedy itself against random in the same match,
// in the same run: x-greedy is the built bot's time a move as a multiple
// of greedy's, x-greedy-interp the interpreted one's. A go: bot's move
// crosses to its process and back; greedy's is a call.
func BenchmarkGoBots(b *testing.B) {
	for _, game := range []string{"pathgame", "life"} {
		b.Run(game, func(b *testing.B) {
			spec, err := match.ParseSpec("go:" + filepath.Join("templates", game, "bot.go"))
			if err != nil {
				b.Fatal(err)
			}
			random, _ := match.ParseSpec("random")
			greedy, _ := match.ParseSpec("greedy")
			s := setup(&testing.T{}, game, 5)
			s.Players = [2]match.Spec{spec, random}
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
