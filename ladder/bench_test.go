package ladder

import (
	"math/rand/v2"
	"testing"
	"time"
)

// ladderResults is a term's ladder: students with versions each, the
// latest ranked, games pairs of versions met mostly among the latest, as
// the scheduler plays them.
func ladderResults(r *rand.Rand, students, versions, games int) Results {
	n := students * versions
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = r.NormFloat64()
	}
	res := Results{N: n}
	at := map[[2]int]int{}
	for range games / 2 { // pairs of games
		i, j := r.IntN(n), r.IntN(n)
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		k, ok := at[[2]int{i, j}]
		if !ok {
			k = len(res.Pairs)
			at[[2]int{i, j}] = k
			res.Pairs = append(res.Pairs, PairResult{I: i, J: j})
		}
		res.Pairs[k].Games += 2
		for range 2 {
			if r.Float64() < logistic(strength[i]-strength[j]) {
				res.Pairs[k].PointsI++
			}
		}
	}
	return res
}

// BenchmarkFit fits 50,000 games of 300 students with 5 versions each,
// and the intervals of the 300 ranked versions, as the leaderboard does,
// and reports the time against the promise: under a second.
func BenchmarkFit(b *testing.B) {
	res := ladderResults(rand.New(rand.NewPCG(3, 4)), 300, 5, 50000)
	var took time.Duration
	for b.Loop() {
		start := time.Now()
		f := FitResults(res)
		for i := 0; i < res.N; i += 5 {
			f.SE(i)
		}
		took += time.Since(start)
	}
	b.ReportMetric(float64(took)/float64(b.N)/float64(time.Second), "of-the-1s-limit")
	b.ReportMetric(float64(len(res.Pairs)), "pairs")
}
