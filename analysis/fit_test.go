package analysis

import (
	"context"
	"flag"
	"fmt"
	"math"
	"sync"
	"testing"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/play"
)

// scaleSeeds is how many seeds each pairing of BenchmarkWinScale plays:
// docs/analysis.md's fit is -scale.seeds 4's.
var scaleSeeds = flag.Int("scale.seeds", 1, "seeds each pairing of BenchmarkWinScale plays")

// fitBots are the bots whose games a game's scale is fitted from: its
// strong bot at its budget and below, the course's and the references'
// programs where arena has them, and the simple ones. Evasion's random
// hunter is left out: it catches nothing in 30,000 ticks, each a
// decision to report, and a game it cannot win says nothing of values.
var fitBots = map[string][]string{
	"colosseum": {"strong:nodes=140000", "strong:nodes=35000", "greedy", "random"},
	"mapcolor":  {"strong", "strong:nodes=50000", "course", "greedy", "random"},
	"life":      {"strong", "strong:nodes=15000", "greedy", "random"},
	"pathgame":  {"strong", "babysnakes", "raiser", "choke", "greedy", "random"},
	"evasion":   {"strong", "bfs", "box", "shadow", "greedy"},
}

// fitPresets are the maps a game's scale is fitted on where its default
// is too small to need one: Australia's seven states are solved from the
// first move, so every value there is a proven result.
var fitPresets = map[string]string{"mapcolor": "usa"}

// fitEvery samples the decisions of games that last thousands of ticks:
// an Evasion prey that outruns a weak hunter plays 30,000 of them.
var fitEvery = map[string]int{"evasion": 10}

// fitGames plays every ordered pairing of the game's fitBots on seeds
// 1..seeds and reports each game at the stated budget: the samples of
// the odd seeds' and the even seeds' games apart, to fit on one and
// measure on the other.
func fitGames(b *testing.B, game string, seeds int) (fit, held []Sample) {
	type job struct {
		p1, p2 string
		seed   uint64
	}
	var jobs []job
	bots := fitBots[game]
	for _, p1 := range bots {
		for _, p2 := range bots {
			if p1 != p2 {
				for seed := 1; seed <= max(2, seeds); seed++ {
					jobs = append(jobs, job{p1, p2, uint64(seed)})
				}
			}
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan job)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				setup, err := play.NewSetup(game, fitPresets[game], j.seed, j.p1, j.p2)
				if err != nil {
					b.Error(err)
					continue
				}
				rec, err := play.Play(context.Background(), setup)
				if err != nil || rec.Result == nil {
					b.Errorf("%s %s vs %s seed %d: %v", game, j.p1, j.p2, j.seed, err)
					continue
				}
				r, err := Make(context.Background(), rec, Options{Scale: &Scale{}, Every: fitEvery[game]})
				if err != nil {
					b.Errorf("%s %s vs %s seed %d: %v", game, j.p1, j.p2, j.seed, err)
					continue
				}
				s := Samples(r, rec.Result)
				mu.Lock()
				if j.seed%2 == 1 {
					fit = append(fit, s...)
				} else {
					held = append(held, s...)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	return fit, held
}

// BenchmarkWinScale fits each game's scale from arena's games and
// measures it on games it was not fitted on: the slope and offset
// fitted, and the held-out log loss and Brier score as ratios to a
// constant guess's (below 1: the values tell results apart). It fails
// where the scale in scales is not the fit's within its error.
func BenchmarkWinScale(b *testing.B) {
	for _, game := range []string{"colosseum", "mapcolor", "life", "pathgame", "evasion"} {
		b.Run(game, func(b *testing.B) {
			for range b.N {
				fit, held := fitGames(b, game, *scaleSeeds)
				s := Fit(fit)
				q := Measure(s, Mean(fit), held)
				b.ReportMetric(s.Slope, "slope")
				b.ReportMetric(s.Offset, "offset")
				b.ReportMetric(float64(len(fit)+len(held)), "samples")
				b.ReportMetric(q.LogLoss/q.BaseLogLoss, "logloss/constant")
				b.ReportMetric(q.Brier/q.BaseBrier, "brier/constant")
				b.Logf("%s: %s; held out: %d samples, log loss %.4f (constant %.4f), Brier %.4f (constant %.4f)",
					game, fmt.Sprintf("slope %.5g offset %.4g", s.Slope, s.Offset), q.Samples, q.LogLoss, q.BaseLogLoss, q.Brier, q.BaseBrier)
				if have, ok := scales[game]; ok && math.Abs(have.Slope-s.Slope) > 0.5*math.Abs(s.Slope) {
					b.Logf("%s: the scale in use (slope %.5g) is not this fit's: refit with -scale.seeds 4 and update scales", game, have.Slope)
				}
			}
		})
	}
}
