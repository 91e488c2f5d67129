package tournament

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/bradleyterry"
	"github.com/arena-playground/arena/internal/untrusted"
)

// Standings sum up the games of a tournament, from the journal's entries
// in any order: what they keep grows with the entrants, not the games.
type Standings struct {
	Plan     *Plan
	Entrants []EntrantStats
	// Points[i][j] is what entrant i took from its games against j, of
	// Games[i][j].
	Points [][]float64
	Games  [][]int
	Played int // games counted
	// Penta counts, for an SPRT match, the complete pairs of games in
	// schedule order up to the first one missing, by the first entrant's
	// points; Decision is the test's ("H0", "H1" or "").
	Penta    Penta
	Decision string
	LLR      float64
	pairs    map[int]float64 // the first game's points of a pair whose second is missing
	sprt     []int8          // each pair's points for the first entrant, x2; -1 unknown
	counted  map[int]bool    // the games added, by index
}

// EntrantStats is one entrant's line of the standings.
type EntrantStats struct {
	Entrant
	Games, Wins, Draws, Losses int
	Points                     float64
	Elo, EloLow, EloHigh       float64 // maximum likelihood, with its 95% interval
	Forfeits                   int
	Replaced                   int            // moves the rules replaced
	Reasons                    map[string]int // forfeits' and replacements' reasons, a few
	Moves                      int
	ThinkMs                    float64 // total
	MaxMs                      float64
}

// MeanMs is the entrant's mean thinking time per move.
func (e EntrantStats) MeanMs() float64 {
	if e.Moves == 0 {
		return 0
	}
	return e.ThinkMs / float64(e.Moves)
}

// maxReasons bounds the distinct reasons kept per entrant.
const maxReasons = 12

// NewStandings returns the empty standings of a plan.
func NewStandings(p *Plan) *Standings {
	n := len(p.Entrants)
	s := &Standings{Plan: p, Entrants: make([]EntrantStats, n), Points: make([][]float64, n), Games: make([][]int, n), pairs: map[int]float64{}, counted: map[int]bool{}}
	for i, e := range p.Entrants {
		s.Entrants[i] = EntrantStats{Entrant: e, Reasons: map[string]int{}}
		s.Points[i] = make([]float64, n)
		s.Games[i] = make([]int, n)
	}
	if p.Format == SPRTMatch {
		s.sprt = make([]int8, p.Pairs()*p.Rounds)
		for i := range s.sprt {
			s.sprt[i] = -1
		}
	}
	return s
}

// Add counts a finished game. An entry that does not belong to the plan
// (an index past the schedule, seats that are not the schedule's) is
// refused.
func (s *Standings) Add(e Entry) error {
	p := s.Plan
	if e.Index < 0 || e.Index >= p.Games() {
		return fmt.Errorf("game %d is not in a schedule of %d games", e.Index, p.Games())
	}
	if s.counted[e.Index] {
		return fmt.Errorf("game %d (%s) is recorded twice", e.Index, untrusted.Text(e.ID))
	}
	g := p.At(e.Index)
	seats := [2]string{p.Entrants[g.Seats[0]].Name, p.Entrants[g.Seats[1]].Name}
	if e.Seats != seats || e.ID != g.ID(p) || e.Seed != g.Seed {
		return fmt.Errorf("game %d: %s %v seed %d, but the schedule has %s %v seed %d: a journal of another tournament",
			e.Index, untrusted.Text(e.ID), untrusted.Text(fmt.Sprint(e.Seats)), e.Seed, g.ID(p), seats, g.Seed)
	}
	if err := e.check(p, g); err != nil {
		return fmt.Errorf("game %d (%s): %v", e.Index, e.ID, err)
	}
	s.counted[e.Index] = true
	s.Played++
	var pts [2]float64
	for side := range 2 {
		i := g.Seats[side]
		st := &s.Entrants[i]
		pts[side] = e.Result.Points(match.Side(side))
		st.Games++
		st.Points += pts[side]
		switch pts[side] {
		case 1:
			st.Wins++
		case 0.5:
			st.Draws++
		default:
			st.Losses++
		}
		for _, f := range e.Result.Forfeits {
			if int(f.Side) == side {
				st.Forfeits++
				st.reason("forfeit: " + f.Reason)
			}
		}
		if e.Replaced[side] > 0 {
			st.Replaced += e.Replaced[side]
			st.reason("replaced: " + e.ReplacedWhy[side])
		}
		st.Moves += e.Moves[side]
		st.ThinkMs += e.ThinkMs[side]
		st.MaxMs = math.Max(st.MaxMs, e.MaxMs[side])
		j := g.Seats[1-side]
		s.Points[i][j] += pts[side]
		s.Games[i][j]++
	}
	// The pair's points for its first entrant (P1 in its first game).
	first := pts[0]
	if e.Index%2 == 1 {
		first = pts[1]
	}
	if other, ok := s.pairs[g.Pair]; ok {
		delete(s.pairs, g.Pair)
		s.addPair(g.Pair, first+other)
	} else {
		s.pairs[g.Pair] = first
	}
	return nil
}

// reason counts a reason, keeping a few distinct ones.
func (st *EntrantStats) reason(r string) {
	if len(r) > 160 {
		r = r[:157] + "..."
	}
	if _, ok := st.Reasons[r]; ok || len(st.Reasons) < maxReasons {
		st.Reasons[r]++
		return
	}
	st.Reasons["(other reasons)"]++
}

// addPair records a complete pair: for an SPRT match, the pentanomial
// counts of the pairs in schedule order up to the first missing one.
func (s *Standings) addPair(pair int, points float64) {
	if s.sprt == nil {
		return
	}
	s.sprt[pair] = int8(points * 2)
	done := s.Penta.Pairs()
	for done < len(s.sprt) && s.sprt[done] >= 0 && s.Decision == "" {
		s.Penta[s.sprt[done]]++
		done++
		s.Decision = s.Plan.SPRT.Decide(s.Penta)
	}
	s.LLR = s.Plan.SPRT.LLR(s.Penta)
}

// Rate fits the entrants' ratings and their intervals: Bradley-Terry,
// the fit arena's ladders rank by too (internal/bradleyterry), every
// entrant in the field from the first game.
func (s *Standings) Rate() {
	elo, se := bradleyterry.Matrix(s.Points, s.Games)
	for i := range s.Entrants {
		s.Entrants[i].Elo = elo[i]
		s.Entrants[i].EloLow, s.Entrants[i].EloHigh = elo[i]-1.96*se[i], elo[i]+1.96*se[i]
	}
}

// Order returns the entrants' indices best first: by rating (Rate's fit),
// then by share of points, then by name. Not by points: in a gauntlet the
// entrant under test plays as many games as all the others together, and
// its points would rank it above a bot that won every game it played;
// the rating weighs each result by whom it was against. In a round robin,
// where every entrant plays every other as often, the two orders agree.
func (s *Standings) Order() []int {
	idx := make([]int, len(s.Entrants))
	for i := range idx {
		idx[i] = i
	}
	share := func(e EntrantStats) float64 {
		if e.Games == 0 {
			return 0
		}
		return e.Points / float64(e.Games)
	}
	// Ratings are compared as they are shown, whole points of Elo: the
	// fit's last bits differ between machines (the page's WebAssembly, a
	// processor that fuses multiply-adds), and must not order two
	// entrants the standings show alike.
	shown := func(e EntrantStats) float64 { return math.Round(e.Elo) }
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := s.Entrants[idx[a]], s.Entrants[idx[b]]
		if shown(x) != shown(y) {
			return shown(x) > shown(y)
		}
		if share(x) != share(y) {
			return share(x) > share(y)
		}
		return x.Name < y.Name
	})
	return idx
}

// Leader names the entrant ranked first (Order).
func (s *Standings) Leader() string {
	if len(s.Entrants) == 0 || s.Played == 0 {
		return ""
	}
	e := s.Entrants[s.Order()[0]]
	return fmt.Sprintf("%s %g/%d", e.Name, e.Points, e.Games)
}

// Reasons lists an entrant's reasons, most frequent first.
func (e EntrantStats) ReasonList() []string {
	var out []string
	for r, n := range e.Reasons {
		out = append(out, fmt.Sprintf("%dx %s", n, r))
	}
	sort.Slice(out, func(a, b int) bool {
		na, nb := countOf(out[a]), countOf(out[b])
		if na != nb {
			return na > nb
		}
		return out[a] < out[b]
	})
	return out
}

func countOf(s string) int {
	var n int
	fmt.Sscanf(strings.SplitN(s, "x ", 2)[0], "%d", &n)
	return n
}
