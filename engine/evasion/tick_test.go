package evasion

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// tickLimit is what the original's clock allows a tick on average: 120 s
// a game over the 30,000-tick cap.
const tickLimit = 120 * time.Second / DefaultTicks

// BenchmarkStrongTick plays a session of strong against each reference
// bot on each preset three times (play is deterministic, so the three
// are the same session) and reports strong's ticks: the mean, the
// longest of one play, and the costliest, each tick's least time over
// the three plays, as a ratio to tickLimit. The longest of one play
// counts whatever held the process then (the collector, the scheduler);
// the costliest is the bot's own work.
func BenchmarkStrongTick(b *testing.B) {
	for _, preset := range (Game{}).Presets() {
		for _, opp := range []string{"greedy", "box", "bfs", "shadow"} {
			b.Run(preset.Name+"/"+opp, func(b *testing.B) {
				setup := play.Setup{Game: Game{}, Config: preset.Config, Seed: 1,
					Players: [2]play.Spec{{Name: "strong"}, {Name: opp}}}
				var least []time.Duration
				var longest, total time.Duration
				for b.Loop() {
					least, longest, total = nil, 0, 0
					for run := range 3 {
						rec, err := play.Play(context.Background(), setup)
						if err != nil {
							b.Fatal(err)
						}
						for k, t := range rec.Turns {
							d := t.Think[match.P1]
							if run == 0 {
								least = append(least, d)
								longest, total = max(longest, d), total+d
							} else if k < len(least) {
								least[k] = min(least[k], d)
							}
						}
					}
				}
				costliest := slices.Max(least)
				b.ReportMetric(float64(total.Microseconds())/float64(len(least)), "mean-us")
				b.ReportMetric(float64(longest.Microseconds()), "longest-us")
				b.ReportMetric(float64(costliest.Microseconds()), "costliest-us")
				b.ReportMetric(float64(costliest)/float64(tickLimit), "costliest/limit")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
