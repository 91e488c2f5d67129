package analysis

import (
	"context"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/play"
)

// BenchmarkReportCost measures what a game's report costs against the
// game's own thinking: for each game, a match between strong bots at
// their default budgets (the analysis's stated budget is strong's), then
// its report; the ratio is the report's time over the match's, in the
// same run (and in CPU time, report/game-cpu, where the system tells
// it). A report costs less than the game when it is below 1.
func BenchmarkReportCost(b *testing.B) {
	for _, c := range []struct{ game, preset, p1, p2 string }{
		{"colosseum", "", "strong", "strong"},
		{"mapcolor", "usa", "strong", "strong"},
		{"life", "", "strong", "strong"},
		{"pathgame", "", "strong", "strong"},
		{"evasion", "", "strong", "strong"},
	} {
		b.Run(c.game, func(b *testing.B) {
			var played, reported, playedCPU, reportedCPU time.Duration
			for i := range b.N {
				setup, err := play.NewSetup(c.game, c.preset, uint64(i+1), c.p1, c.p2)
				if err != nil {
					b.Fatal(err)
				}
				start, cpu := time.Now(), processCPU()
				rec, err := play.Play(context.Background(), setup)
				if err != nil {
					b.Fatal(err)
				}
				played += time.Since(start)
				playedCPU += processCPU() - cpu
				start, cpu = time.Now(), processCPU()
				if _, err := Make(context.Background(), rec, Options{}); err != nil {
					b.Fatal(err)
				}
				reported += time.Since(start)
				reportedCPU += processCPU() - cpu
			}
			b.ReportMetric(reported.Seconds()/played.Seconds(), "report/game")
			if playedCPU > 0 {
				// The same in CPU time, the garbage collector's included.
				b.ReportMetric(reportedCPU.Seconds()/playedCPU.Seconds(), "report/game-cpu")
			}
			b.ReportMetric(played.Seconds()/float64(b.N), "game-s")
			b.ReportMetric(reported.Seconds()/float64(b.N), "report-s")
		})
	}
}
