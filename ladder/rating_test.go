package ladder

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/tournament"
)

// randomResults are games among n entrants of spread-out strengths, each
// pair meeting with probability meet, as a ladder's pairs do.
func randomResults(r *rand.Rand, n, games int, meet float64) Results {
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = r.NormFloat64() * 1.5
	}
	res := Results{N: n}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() >= meet {
				continue
			}
			m := 1 + r.IntN(games)
			pts := 0.0
			for range m {
				switch x := r.Float64(); {
				case x < 0.1:
					pts += 0.5
				case x < 0.1+0.9*logistic(strength[i]-strength[j]):
					pts++
				}
			}
			res.Pairs = append(res.Pairs, PairResult{I: i, J: j, Games: m, PointsI: pts})
		}
	}
	return res
}

// The sparse fit gives arena tournament's ratings and intervals: the
// same model, to 1e-6 Elo, on fields where everyone meets everyone and
// where few pairs meet (and some entrants play no one).
func TestFitIsTournamentsRatings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n     int
		meet  float64
		games int
	}{{2, 1, 4}, {8, 1, 20}, {40, 0.15, 6}, {60, 0.05, 3}} {
		res := randomResults(r, c.n, c.games, c.meet)
		points, games := make([][]float64, c.n), make([][]int, c.n)
		for i := range points {
			points[i], games[i] = make([]float64, c.n), make([]int, c.n)
		}
		for _, p := range res.Pairs {
			games[p.I][p.J] += p.Games
			games[p.J][p.I] += p.Games
			points[p.I][p.J] += p.PointsI
			points[p.J][p.I] += float64(p.Games) - p.PointsI
		}
		elo, se := tournament.Ratings(points, games)
		f := FitResults(res)
		for i := range c.n {
			if math.Abs(f.Elo(i)-elo[i]) > 1e-6 || math.Abs(f.SE(i)-se[i]) > 1e-6 {
				t.Fatalf("%d entrants, %d pairs: entrant %d is %.9f ± %.9f, arena tournament's %.9f ± %.9f",
					c.n, len(res.Pairs), i, f.Elo(i), f.SE(i), elo[i], se[i])
			}
		}
	}
}
