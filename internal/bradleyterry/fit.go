// Package bradleyterry fits Bradley-Terry ratings, the model arena's
// tournaments and class ladders rank by: entrant i beats j with
// probability 1/(1+10^((Ej-Ei)/400)), draws are half points, each
// entrant plays one virtual draw against a player rated 0 (so that one
// that won or lost every game has a finite rating), and the ratings
// average 0 over the field, each with its standard error from the
// likelihood's curvature. One fit, the sparse one, serves both: a
// tournament's few entrants who all meet, and a ladder's 1,500 versions
// of whom most pairs never meet.
package bradleyterry

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Results are the games between entrants as a fit takes them: for each
// pair that played, how many games and the first entrant's points (a
// draw is half a point). A ladder's entrants are every version ever
// submitted, and most pairs never meet, so the results are a list of
// the pairs that did, not dense matrices (see Matrix for those).
type Results struct {
	N     int // entrants, numbered from 0
	Pairs []PairResult
	// Everyone: every entrant is in the field the ratings are centred on
	// and rated, played or not (a tournament's entrants, from its first
	// game). Otherwise only those that played are (a ladder's versions:
	// one refused at its check plays no one).
	Everyone bool
}

// PairResult is what entrants I and J scored against each other.
type PairResult struct {
	I, J    int
	Games   int
	PointsI float64
}

// Fit is a Bradley-Terry fit of Results. It is computed the sparse way,
// Newton's method with each step solved by conjugate gradients, so that
// a ladder of 1,500 versions and 50,000 games is fitted in well under a
// second where a dense fit takes minutes; its figures are a dense fit's
// to 1e-6 Elo (a test holds them to one).
//
// Only the entrants that played are rated: one with no game (a version
// refused at its check, one still checking) has no term beside its prior,
// so its strength is independent of the rest, and it is left out of the
// mean the ratings are centred on and of the intervals' centring. Left in,
// each such entrant would widen every interval by its prior's whole
// variance over the field's size (two students with 400 games between
// them and six refused versions beside: ±373 where the games give ±17).
type Fit struct {
	res    Results
	played []bool // entrants with a game: the field the ratings are centred on
	nIn    int
	theta  []float64 // natural-log strengths
	w      []float64 // the curvature at the optimum: each pair's m p(1-p)
	prior  []float64 // and each entrant's prior term
	u      []float64 // H⁻¹1, for the centring of the intervals
	mean   float64
}

// fitPrior is the virtual drawn games each entrant plays against strength 0.
const fitPrior = 1.0

// EloScale turns natural-log strengths into Elo.
const EloScale = 400 / math.Ln10

// eloScale is EloScale, as the fit's arithmetic reads it.
const eloScale = EloScale

// New fits the ratings.
func New(res Results) *Fit { return From(res, nil) }

// From fits the ratings from start, natural-log strengths near the
// optimum (the last fit's, when a few games were added): Newton's method
// then takes a step or two where it takes a dozen from 0. The optimum is
// the same either way, to the fit's tolerance.
func From(res Results, start []float64) *Fit {
	f := &Fit{res: res, theta: make([]float64, res.N), w: make([]float64, len(res.Pairs)), prior: make([]float64, res.N)}
	copy(f.theta, start)
	grad := make([]float64, res.N)
	for range 200 {
		f.curvature()
		clear(grad)
		for i, t := range f.theta {
			grad[i] = fitPrior * (0.5 - logistic(t))
		}
		for _, p := range res.Pairs {
			pij := logistic(f.theta[p.I] - f.theta[p.J])
			g := p.PointsI - float64(p.Games)*pij
			grad[p.I] += g
			grad[p.J] -= g
		}
		step := f.solve(grad, nil, fitTol)
		big := 0.0
		for i := range f.theta {
			f.theta[i] += step[i]
			big = math.Max(big, math.Abs(step[i]))
		}
		if big < 1e-10 {
			break
		}
	}
	f.curvature()
	f.played = make([]bool, res.N)
	for i := range f.played {
		f.played[i] = res.Everyone
	}
	for _, p := range res.Pairs {
		if p.Games > 0 {
			f.played[p.I], f.played[p.J] = true, true
		}
	}
	for i, t := range f.theta {
		if f.played[i] {
			f.mean += t
			f.nIn++
		}
	}
	if f.nIn > 0 {
		f.mean /= float64(f.nIn)
	}
	return f
}

// Rated reports whether entrant i is rated: it played (or the results
// rate Everyone).
func (f *Fit) Rated(i int) bool { return f.played[i] }

// Strength is entrant i's natural-log strength, uncentred: what a next
// fit of a few more games starts from (From), and what orders entrants.
func (f *Fit) Strength(i int) float64 { return f.theta[i] }

// Strengths are every entrant's (Strength).
func (f *Fit) Strengths() []float64 { return f.theta }

// Logistic is 1/(1+e^-x): the chance that a strength x above the other's wins.
func Logistic(x float64) float64 { return logistic(x) }

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// curvature sets the Hessian's terms at the current strengths.
func (f *Fit) curvature() {
	for i, t := range f.theta {
		p := logistic(t)
		f.prior[i] = fitPrior * p * (1 - p)
	}
	for k, p := range f.res.Pairs {
		pij := logistic(f.theta[p.I] - f.theta[p.J])
		f.w[k] = float64(p.Games) * pij * (1 - pij)
	}
}

// mul sets out to H v: the log-likelihood's negative Hessian, a weighted
// graph Laplacian of the pairs plus the prior's diagonal.
func (f *Fit) mul(v, out []float64) {
	for i := range out {
		out[i] = f.prior[i] * v[i]
	}
	for k, p := range f.res.Pairs {
		d := f.w[k] * (v[p.I] - v[p.J])
		out[p.I] += d
		out[p.J] -= d
	}
}

// solve returns x with H x = b, by conjugate gradients preconditioned
// with H's diagonal, from x0 (nil: from 0). H is positive definite (the
// prior's diagonal), so the iteration converges; it stops at a relative
// residual of 1e-13 or after 10 N iterations.
func (f *Fit) solve(b, x0 []float64, tol float64) []float64 {
	n := len(b)
	diag := make([]float64, n)
	copy(diag, f.prior)
	for k, p := range f.res.Pairs {
		diag[p.I] += f.w[k]
		diag[p.J] += f.w[k]
	}
	x := make([]float64, n)
	if x0 != nil {
		copy(x, x0)
	}
	r, z, p, q := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	f.mul(x, q)
	bb := 0.0
	for i := range r {
		r[i] = b[i] - q[i]
		z[i] = r[i] / diag[i]
		p[i] = z[i]
		bb += b[i] * b[i]
	}
	if bb == 0 {
		return x
	}
	rz := dot(r, z)
	for range 10*n + 10 {
		f.mul(p, q)
		alpha := rz / dot(p, q)
		rr := 0.0
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * q[i]
			rr += r[i] * r[i]
		}
		if rr <= tol*bb {
			break
		}
		for i := range z {
			z[i] = r[i] / diag[i]
		}
		next := dot(r, z)
		beta := next / rz
		rz = next
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return x
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// CurvatureSE is each entrant's 1/sqrt(H_ii), in natural-log units: a
// bound below SE's (over the Elo scale), for ordering entrants by
// uncertainty at the cost of one pass over the pairs.
func (f *Fit) CurvatureSE() map[int]float64 {
	diag := make([]float64, f.res.N)
	copy(diag, f.prior)
	for k, p := range f.res.Pairs {
		diag[p.I] += f.w[k]
		diag[p.J] += f.w[k]
	}
	out := make(map[int]float64, len(diag))
	for i, d := range diag {
		out[i] = 1 / math.Sqrt(d)
	}
	return out
}

// Elo is entrant i's rating, the ratings of those that played centred on
// their mean (an entrant that did not play has none: see Rated).
func (f *Fit) Elo(i int) float64 { return eloScale * (f.theta[i] - f.mean) }

// SE is the standard error of entrant i's rating against the field (a
// 95% interval is ±1.96 of it): the centred covariance's
// diagonal, one solve for the entrant (and one, once, for the centring).
//
// Over the field P of entrants that played, with C = H⁻¹ and u = C 1_P:
// Var(θi − mean_P) = Cii − 2 u_i/|P| + Σ_{j∈P} u_j/|P|². C is block-diagonal
// between P and the rest (an entrant with no game meets no one), so this
// is the fit of P's games alone, as arena tournament fits its field.
func (f *Fit) SE(i int) float64 {
	f.centre()
	return f.se(i)
}

// SEs are the standard errors of entrants is, solved on every core: a
// leaderboard's 300 intervals are 300 solves over the term's games.
func (f *Fit) SEs(is []int) []float64 {
	f.centre()
	out := make([]float64, len(is))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(is), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < len(is); k = int(next.Add(1)) - 1 {
				out[k] = f.se(is[k])
			}
		}()
	}
	wg.Wait()
	return out
}

// centre solves, once, for the centring's u = C 1_P.
func (f *Fit) centre() {
	n := f.res.N
	if f.u == nil {
		ones := make([]float64, n)
		for k := range ones {
			if f.played[k] {
				ones[k] = 1
			}
		}
		f.u = f.solve(ones, nil, fitTol)
	}
}

// se is SE once the fit is centred; it writes nothing the fit keeps, so
// that several run at once.
func (f *Fit) se(i int) float64 {
	n, m := f.res.N, float64(max(f.nIn, 1))
	all := 0.0
	for k, v := range f.u {
		if f.played[k] {
			all += v
		}
	}
	all /= m * m
	e := make([]float64, n)
	e[i] = 1
	cii := f.solve(e, nil, seTol)[i]
	return eloScale * math.Sqrt(math.Max(cii+all-2*f.u[i]/m, 0))
}

// The conjugate gradients' stops, as the squared norm of the residual
// to the right side's: the fit's Newton steps to the last bit; an
// interval's solves to what moves an interval by less than 10⁻⁶ Elo
// (the ratings' test holds them to that against arena tournament's).
var (
	fitTol = 1e-26
	seTol  = 1e-18
)

// Matrix fits a field where every entrant is rated (a tournament's):
// points[i][j] is what i took from its games[i][j] against j. It returns
// each entrant's rating and standard error, in Elo.
func Matrix(points [][]float64, games [][]int) (elo, se []float64) {
	n := len(points)
	res := Results{N: n, Everyone: true}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if games[i][j] > 0 {
				res.Pairs = append(res.Pairs, PairResult{I: i, J: j, Games: games[i][j], PointsI: points[i][j]})
			}
		}
	}
	f := New(res)
	is := make([]int, n)
	for i := range is {
		is[i] = i
	}
	elo = make([]float64, n)
	for i := range elo {
		elo[i] = f.Elo(i)
	}
	return elo, f.SEs(is)
}
