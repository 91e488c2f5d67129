package tournament

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test between two hypotheses on
// the Elo difference of two entrants, H0: elo0 and H1: elo1 (logistic
// Elo), with the error rates alpha and beta, as fastchess and fishtest
// run it: on pairs of games (both seats, one seed), whose outcomes follow
// a pentanomial distribution of 0, 0.5, 1, 1.5 or 2 points.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// MaxSPRTElo bounds the Elo of an SPRT's hypotheses: 1000 Elo is an
// expected score of 0.997, a gap no test between versions of one program
// asks about.
const MaxSPRTElo = 1000

// ParseSPRT reads "elo0=0,elo1=10,alpha=0.05,beta=0.05"; alpha and beta
// default to 0.05.
func ParseSPRT(v string) (*SPRT, error) {
	s := &SPRT{Alpha: 0.05, Beta: 0.05}
	got := map[string]bool{}
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(val, 64)
		if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("-sprt %q: %q is not name=number", v, kv)
		}
		switch k {
		case "elo0":
			s.Elo0 = x
		case "elo1":
			s.Elo1 = x
		case "alpha":
			s.Alpha = x
		case "beta":
			s.Beta = x
		default:
			return nil, fmt.Errorf("-sprt %q: unknown %q (want elo0, elo1, alpha, beta)", v, k)
		}
		got[k] = true
	}
	switch {
	case !got["elo0"] || !got["elo1"]:
		return nil, fmt.Errorf("-sprt %q: give elo0 and elo1, as elo0=0,elo1=10", v)
	case s.Elo0 >= s.Elo1:
		return nil, fmt.Errorf("-sprt %q: elo0 must be less than elo1", v)
	case math.Abs(s.Elo0) > MaxSPRTElo || math.Abs(s.Elo1) > MaxSPRTElo:
		return nil, fmt.Errorf("-sprt %q: elo0 and elo1 are within ±%d (past it a pair's expected score rounds to 0 or 1, and the test's log-likelihood ratio is not a number)", v, MaxSPRTElo)
	case s.Alpha <= 0 || s.Alpha >= 1 || s.Beta <= 0 || s.Beta >= 1 || s.Alpha+s.Beta >= 1:
		return nil, fmt.Errorf("-sprt %q: alpha and beta are between 0 and 1, and less than 1 together", v)
	}
	return s, nil
}

// Bounds are the log-likelihood ratios at which the test accepts H0
// (lower) or H1 (upper).
func (s *SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Penta counts pairs of games by the points the first entrant took from
// them: 0, 0.5, 1, 1.5, 2.
type Penta [5]int

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// LLR is the generalized log-likelihood ratio of H1 against H0 for the
// pairs counted, the first entrant's score per game being the logistic
// score of elo0 or elo1: the maximum-likelihood pentanomial distribution
// with that mean, against the data (Van den Bergh, "Comparing the
// approximations for the generalized log likelihood ratio of a
// multinomial distribution"; fastchess's getLLR_logistic). Empty cells
// count as 0.001 pairs, as in fastchess.
func (s *SPRT) LLR(p Penta) float64 {
	var probs [5]float64
	total := 0.0
	for i, n := range p {
		probs[i] = float64(n)
		if n == 0 {
			probs[i] = 1e-3
		}
		total += probs[i]
	}
	for i := range probs {
		probs[i] /= total
	}
	scores := [5]float64{0, 0.25, 0.5, 0.75, 1}
	p0 := mleWithMean(scores, probs, logisticScore(s.Elo0))
	p1 := mleWithMean(scores, probs, logisticScore(s.Elo1))
	llr := 0.0
	for i := range probs {
		llr += probs[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * llr
}

// Decide says what the test concludes from the pairs: "H1" (the first
// entrant is elo1 or more stronger), "H0", or "" to go on.
func (s *SPRT) Decide(p Penta) string {
	lo, hi := s.Bounds()
	switch llr := s.LLR(p); {
	case llr >= hi:
		return "H1"
	case llr <= lo:
		return "H0"
	}
	return ""
}

func logisticScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// mleWithMean is the distribution over the outcomes closest to the
// empirical one (maximum likelihood) whose mean is s: p_i = phat_i /
// (1 + theta (a_i - s)), theta the root of sum phat_i (a_i - s) / (1 +
// theta (a_i - s)), found by bisection.
func mleWithMean(a, phat [5]float64, s float64) [5]float64 {
	f := func(theta float64) float64 {
		sum := 0.0
		for i := range a {
			sum += phat[i] * (a[i] - s) / (1 + theta*(a[i]-s))
		}
		return sum
	}
	lo, hi := -1/(a[4]-s), -1/(a[0]-s) // where 1 + theta(a_i - s) stays positive
	// f decreases from +inf at lo to -inf at hi.
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12 {
			break
		}
	}
	theta := (lo + hi) / 2
	var p [5]float64
	for i := range a {
		p[i] = phat[i] / (1 + theta*(a[i]-s))
	}
	return p
}

// PentaElo is the first entrant's Elo advantage estimated from pairs of
// games, with its 95% interval: the score per game, its variance taken
// over pairs (which keeps what the two seats of a pair share), as
// fastchess's pentanomial Elo.
func PentaElo(p Penta) (elo, lo, hi float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	scores := [5]float64{0, 0.25, 0.5, 0.75, 1}
	mean := 0.0
	for i, c := range p {
		mean += scores[i] * float64(c) / n
	}
	variance := 0.0
	for i, c := range p {
		variance += float64(c) / n * (scores[i] - mean) * (scores[i] - mean)
	}
	se := math.Sqrt(variance / n)
	return scoreElo(mean), scoreElo(mean - 1.96*se), scoreElo(mean + 1.96*se)
}

// scoreElo is the logistic Elo difference of a score per game.
func scoreElo(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}
