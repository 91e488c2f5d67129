package analysis

import (
	"context"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// bestByDepth is the best option of side at s searched to each depth
// from 1 to deepest, each a fresh search.
func bestByDepth(b *testing.B, g match.Game, s match.State, deepest int) []string {
	var out []string
	side := match.AnalysisSide(g, s)
	for d := 1; d <= deepest; d++ {
		an, err := match.Analyse(g, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: 1, Depth: d})
		if err != nil {
			b.Fatal(err)
		}
		if an.Depth < d { // the game ends sooner: deeper says nothing new
			break
		}
		out = append(out, an.Best[0].Move)
	}
	return out
}

// flips counts how often the best option changes from one depth to the
// next in bests, taking the depths from first by step: the changes and
// the steps.
func flips(bests []string, first, step int) (changes, steps int) {
	for i := first - 1; i+step < len(bests); i += step {
		steps++
		if bests[i] != bests[i+step] {
			changes++
		}
	}
	return changes, steps
}

// BenchmarkAnalysisSwing measures the odd-even effect the analysis's
// whole move pairs tame: over positions of strong-against-greedy games
// of each game whose analysis deepens ply by ply (Colosseum on the 7x7
// board, where depth 6 is seconds, not minutes), how often the best
// option changes from one depth to the next, ply by ply (before: every
// depth kept) and pair by pair (after: the even depths kept).
func BenchmarkAnalysisSwing(b *testing.B) {
	for _, c := range []struct {
		game, preset string
		deepest      int
	}{{"colosseum", "7", 6}, {"mapcolor", "usa", 6}, {"pathgame", "", 6}} {
		b.Run(c.game, func(b *testing.B) {
			for range b.N {
				var ply, plySteps, pair, pairSteps, positions int
				for seed := uint64(1); seed <= 2; seed++ {
					setup, err := play.NewSetup(c.game, c.preset, seed, "strong", "greedy")
					if err != nil {
						b.Fatal(err)
					}
					rec, err := play.Play(context.Background(), setup)
					if err != nil {
						b.Fatal(err)
					}
					stride := max(1, len(rec.Turns)/8)
					for k := 0; k < len(rec.Turns); k += stride {
						s := rec.State(k)
						if s.ToMove() == match.Nobody {
							continue
						}
						bests := bestByDepth(b, setup.Game, s, c.deepest)
						n, m := flips(bests, 1, 1)
						ply, plySteps = ply+n, plySteps+m
						n, m = flips(bests, 2, 2)
						pair, pairSteps = pair+n, pairSteps+m
						positions++
					}
				}
				b.ReportMetric(float64(ply)/float64(max(1, plySteps)), "flips/ply-step")
				b.ReportMetric(float64(pair)/float64(max(1, pairSteps)), "flips/pair-step")
				b.ReportMetric(float64(positions), "positions")
				b.ReportMetric(float64(ply)/float64(max(1, positions)), "changes-seen/position-by-ply")
				b.ReportMetric(float64(pair)/float64(max(1, positions)), "changes-seen/position-by-pair")
				b.Logf("%s: %d positions; the best option changed at %d of %d ply steps and %d of %d pair steps", c.game, positions, ply, plySteps, pair, pairSteps)
			}
		})
	}
}
