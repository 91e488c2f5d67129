package bradleyterry

import (
	"math"
	"math/rand/v2"
	"testing"
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

// The sparse fit gives the dense fit's ratings and intervals (the one
// arena tournament computed before it shared this one): the same model,
// to 1e-6 Elo, on fields where everyone meets everyone and
// where few pairs meet. An entrant that plays no one (a version refused
// at its check) is not rated, and is not in the field: the others'
// figures are tournament's over those that played.
func TestFitIsTheDenseFit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n     int
		meet  float64
		games int
	}{{2, 1, 4}, {8, 1, 20}, {40, 0.15, 6}, {60, 0.05, 3}} {
		res := randomResults(r, c.n, c.games, c.meet)
		// Two entrants more, who play no one.
		res.N += 2
		checkAgainstDense(t, res)
	}
	// Two students, 400 games between them, six versions refused beside
	// them: the interval is the two's alone (it was ±373 with the six in).
	res := Results{N: 8, Pairs: []PairResult{{I: 2, J: 5, Games: 400, PointsI: 230}}}
	checkAgainstDense(t, res)
	if f := New(res); 1.96*f.SE(2) > 40 {
		t.Errorf("400 games between two: ±%.0f", 1.96*f.SE(2))
	}
}

// checkAgainstDense holds res's fit to the dense fit over the entrants
// that played.
func checkAgainstDense(t *testing.T, res Results) {
	t.Helper()
	field := map[int]int{} // entrant: its place among those that played
	var order []int
	for _, p := range res.Pairs {
		for _, e := range []int{p.I, p.J} {
			if _, ok := field[e]; !ok {
				field[e] = -1
			}
		}
	}
	for e := range res.N {
		if _, ok := field[e]; ok {
			field[e] = len(order)
			order = append(order, e)
		}
	}
	n := len(order)
	points, games := make([][]float64, n), make([][]int, n)
	for i := range points {
		points[i], games[i] = make([]float64, n), make([]int, n)
	}
	for _, p := range res.Pairs {
		a, b := field[p.I], field[p.J]
		games[a][b] += p.Games
		games[b][a] += p.Games
		points[a][b] += p.PointsI
		points[b][a] += float64(p.Games) - p.PointsI
	}
	elo, se := denseRatings(points, games)
	f := New(res)
	for e := range res.N {
		k, played := field[e]
		if f.Rated(e) != played {
			t.Fatalf("entrant %d: rated %v, played %v", e, f.Rated(e), played)
		}
		if played && (math.Abs(f.Elo(e)-elo[k]) > 1e-6 || math.Abs(f.SE(e)-se[k]) > 1e-6) {
			t.Fatalf("%d entrants, %d pairs: entrant %d is %.9f ± %.9f, arena tournament's %.9f ± %.9f",
				res.N, len(res.Pairs), e, f.Elo(e), f.SE(e), elo[k], se[k])
		}
	}
}

// Matrix: equal results give equal ratings; a better score a higher one;
// the ratings average 0; intervals are finite even for a perfect score.
func TestMatrix(t *testing.T) {
	points := [][]float64{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}}
	games := [][]int{{0, 10, 10}, {10, 0, 10}, {10, 10, 0}}
	elo, se := Matrix(points, games)
	for i := range elo {
		if math.Abs(elo[i]) > 1e-6 || se[i] <= 0 || math.IsInf(se[i], 0) {
			t.Errorf("even: %v %v", elo, se)
		}
	}
	points = [][]float64{{0, 10, 10}, {0, 0, 7}, {0, 3, 0}}
	elo, se = Matrix(points, games)
	if !(elo[0] > elo[1] && elo[1] > elo[2]) || math.Abs(elo[0]+elo[1]+elo[2]) > 1e-6 || math.IsInf(elo[0], 0) || math.IsInf(se[0], 0) {
		t.Errorf("ordered: %v ± %v", elo, se)
	}
	// Two entrants, 75%: the logistic gap of a 75% score is 191 Elo, the
	// prior pulls it in a little.
	elo, _ = Matrix([][]float64{{0, 75}, {25, 0}}, [][]int{{0, 100}, {100, 0}})
	if gap := elo[0] - elo[1]; gap < 180 || gap > 191 {
		t.Errorf("75%% over 100 games: a gap of %.1f", gap)
	}
}

// Matrix rates every entrant, played or not, as a tournament's standings
// do from its first game: the dense fit's figures for all of them.
func TestMatrixRatesEveryone(t *testing.T) {
	points := [][]float64{{0, 3, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}
	games := [][]int{{0, 4, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}
	elo, se := Matrix(points, games)
	delo, dse := denseRatings(points, games)
	for i := range elo {
		if math.Abs(elo[i]-delo[i]) > 1e-6 || math.Abs(se[i]-dse[i]) > 1e-6 {
			t.Errorf("entrant %d: %.9f ± %.9f, the dense fit's %.9f ± %.9f", i, elo[i], se[i], delo[i], dse[i])
		}
	}
	zeros := [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
	none := [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
	elo, se = Matrix(zeros, none)
	delo, dse = denseRatings(zeros, none)
	for i := range se {
		if se[i] <= 0 || math.Abs(se[i]-dse[i]) > 1e-6 || elo[i] != delo[i] {
			t.Errorf("no games: entrant %d is %v ± %v, the dense fit's %v ± %v", i, elo[i], se[i], delo[i], dse[i])
		}
	}
	for i := range se {
		if se[i] <= 0 {
			t.Errorf("no games: entrant %d's interval is %v", i, se[i])
		}
	}
}

// denseRatings fits Bradley-Terry ratings to the points (draws are half a
// point), by maximum likelihood: entrant i beats j with probability
// 1/(1+10^((Ej-Ei)/400)). Each entrant also plays one virtual draw
// against a player rated 0, so that an entrant that won or lost every
// game has a finite rating; the ratings average 0 over the entrants. The
// standard errors come from the inverse of the likelihood's curvature,
// for the ratings so centred.
func denseRatings(points [][]float64, games [][]int) (elo, se []float64) {
	n := len(points)
	theta := make([]float64, n) // natural-log strengths
	const prior = 1.0           // virtual games, drawn against strength 0
	for iter := 0; iter < 10000; iter++ {
		// Newton's method on the log-likelihood, which is concave.
		grad := make([]float64, n)
		hess := denseMatrix(n)
		for i := range n {
			p := 1 / (1 + math.Exp(-theta[i]))
			grad[i] += prior * (0.5 - p)
			hess[i][i] += prior * p * (1 - p)
			for j := range n {
				m := float64(games[i][j])
				if m == 0 || i == j {
					continue
				}
				pij := 1 / (1 + math.Exp(theta[j]-theta[i]))
				grad[i] += points[i][j] - m*pij
				hess[i][i] += m * pij * (1 - pij)
				hess[i][j] -= m * pij * (1 - pij)
			}
		}
		step := denseSolve(hess, grad)
		big := 0.0
		for i := range n {
			theta[i] += step[i]
			big = math.Max(big, math.Abs(step[i]))
		}
		if big < 1e-10 {
			break
		}
	}
	// Curvature at the optimum: its inverse is the estimates' covariance.
	hess := denseMatrix(n)
	for i := range n {
		p := 1 / (1 + math.Exp(-theta[i]))
		hess[i][i] += prior * p * (1 - p)
		for j := range n {
			if m := float64(games[i][j]); m > 0 && i != j {
				pij := 1 / (1 + math.Exp(theta[j]-theta[i]))
				hess[i][i] += m * pij * (1 - pij)
				hess[i][j] -= m * pij * (1 - pij)
			}
		}
	}
	cov := denseInvert(hess)
	// The ratings are reported centred on their mean: the interval is that
	// of a rating against the field, not of the field's level, which only
	// the prior fixes. Centring: cov' = C cov C, C = I - 11'/n.
	rowMean := make([]float64, n)
	all := 0.0
	for i := range n {
		for j := range n {
			rowMean[i] += cov[i][j] / float64(n)
		}
		all += rowMean[i] / float64(n)
	}
	for i := range n {
		cov[i][i] += all - 2*rowMean[i]
	}
	mean := 0.0
	for _, t := range theta {
		mean += t
	}
	mean /= float64(n)
	scale := 400 / math.Ln10
	elo, se = make([]float64, n), make([]float64, n)
	for i := range n {
		elo[i] = scale * (theta[i] - mean)
		se[i] = scale * math.Sqrt(math.Max(cov[i][i], 0))
	}
	return elo, se
}

func denseMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// solve returns x with a x = b, by Gaussian elimination with partial
// pivoting (a is positive definite here).
func denseSolve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := denseMatrix(n)
	x := make([]float64, n)
	for i := range n {
		copy(m[i], a[i])
		x[i] = b[i]
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		x[c], x[p] = x[p], x[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k < n; k++ {
				m[r][k] -= f * m[c][k]
			}
			x[r] -= f * x[c]
		}
	}
	for r := n - 1; r >= 0; r-- {
		for k := r + 1; k < n; k++ {
			x[r] -= m[r][k] * x[k]
		}
		x[r] /= m[r][r]
	}
	return x
}

// invert returns the inverse of a, column by column.
func denseInvert(a [][]float64) [][]float64 {
	n := len(a)
	inv := denseMatrix(n)
	for c := range n {
		e := make([]float64, n)
		e[c] = 1
		col := denseSolve(a, e)
		for r := range n {
			inv[r][c] = col[r]
		}
	}
	return inv
}

// Reasons lists an entrant's reasons, most frequent first.
