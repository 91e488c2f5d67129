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
// same run. A report costs less than the game when it is below 1.
func BenchmarkReportCost(b *testing.B) {
	for _, c := range []struct{ game, preset, p1, p2 string }{
		{"colosseum", "", "strong", "strong"},
		{"mapcolor", "usa", "strong", "strong"},
		{"life", "", "strong", "strong"},
		{"pathgame", "", "strong", "strong"},
		{"evasion", "", "strong", "strong"},
	} {
		b.Run(c.game, func(b *testing.B) {
			var played, reported time.Duration
			for i := range b.N {
				setup, err := play.NewSetup(c.game, c.preset, uint64(i+1), c.p1, c.p2)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				rec, err := play.Play(context.Background(), setup)
				if err != nil {
					b.Fatal(err)
				}
				played += time.Since(start)
				start = time.Now()
				if _, err := Make(context.Background(), rec, Options{}); err != nil {
					b.Fatal(err)
				}
				reported += time.Since(start)
			}
			b.ReportMetric(reported.Seconds()/played.Seconds(), "report/game")
			b.ReportMetric(played.Seconds()/float64(b.N), "game-s")
			b.ReportMetric(reported.Seconds()/float64(b.N), "report-s")
		})
	}
}
