package match

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Analysis is a position analysed by a game's search, as a chess
// analysis board shows one: the best options with exact values, each
// with the line the search expects, per player, and for every other
// option the reply that refutes it and the value it is refuted at.
// Values are the mover's, in the game's unit.
type Analysis struct {
	Game  string `json:"game"`
	Turn  int    `json:"turn"`
	Side  Side   `json:"side"`
	Depth int    `json:"depth"` // of the deepest search completed, in DepthUnit
	// DepthUnit says what Depth counts: "plies" (moves of either side)
	// where the game alternates, "generations" for Life's lookahead.
	DepthUnit string `json:"depth_unit"`
	Nodes     int64  `json:"nodes"`
	// Unit says what a value counts ("cells the mover reaches first
	// minus the opponent's"); a won or lost game is beyond any count and
	// says so in Variation.Outcome.
	Unit string `json:"unit"`
	// Best are the K best options, best first, each value exact: a
	// full-window search of the option at Depth gives the same.
	Best []Variation `json:"best"`
	// Others are the remaining options, best bound first: each is worth
	// at most its value, which the reply proves.
	Others []Refutation `json:"others"`
}

// Variation is an option with its exact value and its line.
type Variation struct {
	Move    string     `json:"move"`   // in the game's notation, as notes' lines write it
	Action  Action     `json:"action"` // the game's action, as replays keep it
	Place   Place      `json:"place"`
	Value   float64    `json:"value"`
	Outcome string     `json:"outcome,omitempty"` // "win" or "loss" once the search sees the end
	Line    []LineMove `json:"line"`              // the option first, then the replies expected
}

// LineMove is a move of a line, with the side that plays it.
type LineMove struct {
	Side   Side   `json:"side"`
	Move   string `json:"move"`
	Action Action `json:"action"`
	Place  Place  `json:"place"`
}

// Refutation is an option outside the best, with the reply that refutes
// it and the value it is refuted at: the option is worth at most Bound.
type Refutation struct {
	Move    string    `json:"move"`
	Action  Action    `json:"action"`
	Place   Place     `json:"place"`
	Bound   float64   `json:"bound"`
	Outcome string    `json:"outcome,omitempty"` // "loss" when the reply wins
	Reply   *LineMove `json:"reply,omitempty"`   // nil when the option ends the game
	// Exact says Bound is the option's value, not only a bound: an
	// analysis that plays every option out in full (Life's, Evasion's)
	// knows each, and Reply is then what it was played against.
	Exact bool `json:"exact,omitempty"`
}

// Analyser analyses a game's positions: its strong search, made to give
// exact values for the best K options. The search counts its nodes on
// the turn (t.Budget), and stops deepening at depth plies (0: as deep as
// the budget allows), so that the same depth or nodes give the same
// figures on every machine.
type Analyser interface {
	Analyse(t *Turn, k, depth int) (*Analysis, error)
}

// SideChooser is an analyser of a game whose sides move at once: it
// says whose decision a position's analysis weighs.
type SideChooser interface {
	AnalysisSide(s State) Side
}

// AnalysisSide is the side an analysis of s weighs: the side to move,
// or where both move at once, the one the game's analyser chooses (P1
// when it chooses none).
func AnalysisSide(g Game, s State) Side {
	if a, ok := analyserOf(g); ok {
		if c, ok := a.(SideChooser); ok && s.ToMove() == Both {
			return c.AnalysisSide(s)
		}
	}
	return s.ToMove().Side()
}

// ErrBudget is an analysis whose budget ended before it had a figure to
// give: a front end deepening an analysis stops there.
var ErrBudget = errors.New("the budget ended first")

// ErrNoAnalyser is a game whose positions nothing analyses yet.
var ErrNoAnalyser = errors.New("no analysis is made for this game yet")

// Analysed is a game whose positions an Analyser analyses: an optional
// interface of Game, as io.WriterTo is of io.Reader's.
type Analysed interface {
	Analyser() Analyser
}

// analyserOf is the analyser of the game named game, if it has one.
func analyserOf(g Game) (Analyser, bool) {
	a, ok := g.(Analysed)
	if !ok {
		return nil, false
	}
	return a.Analyser(), true
}

// Analyse analyses the position of t with the game's analyser.
func Analyse(g Game, t *Turn, k, depth int) (*Analysis, error) {
	game := g.Info().Name
	a, ok := analyserOf(g)
	if !ok {
		return nil, fmt.Errorf("%s: %w", game, ErrNoAnalyser)
	}
	if k < 1 {
		return nil, fmt.Errorf("analysis: k is %d; it is the number of best options to give, 1 or more", k)
	}
	if t.State.ToMove() == Nobody {
		return nil, errors.New("analysis: the game is over at this turn: there is no move to analyse")
	}
	an, err := a.Analyse(t, k, depth)
	if err != nil {
		return nil, err
	}
	an.Game, an.Turn, an.Side = game, t.State.Turn(), t.Side
	if an.DepthUnit == "" {
		an.DepthUnit = "plies"
	}
	return an, nil
}

// RootSearch is what MultiPV asks of a game's search at the root of an
// analysis: its options, a search of one with a window, and the line
// its table holds. M is the game's move.
type RootSearch[M any] interface {
	// Options are the mover's moves, in the order to search them first.
	Options() []M
	// Search searches the option m to depth plies (m itself the first)
	// with the window (alpha, ∞) for the mover: its value is exact when
	// above alpha, a bound it is worth at most otherwise. Reply is the
	// opponent's answer the search found best (ok false when m ends the
	// game); stopped says the budget ended and the value means nothing.
	Search(m M, depth, alpha int) (v int, reply M, ok, stopped bool)
	// Line is the line the search's table holds from m, m first.
	Line(m M, depth int) []M
}

// Searched is a root option as MultiPV leaves it.
type Searched[M any] struct {
	Move     M
	Value    int  // exact when Exact; otherwise the option is worth at most Value
	Exact    bool // a value, not a bound
	Line     []M  // for an exact value: the line, the option first
	Reply    M    // for a bound: the reply that refutes it, when HasReply
	HasReply bool
}

// MultiPV deepens a search one ply at a time, searching each option of
// the root with the window (α, ∞), α the K-th best exact value found so
// far in the iteration: an option that beats α gets its exact value (β
// is ∞: nothing above it can cut), and one that does not is refuted at a
// bound, by the reply its search found. It stops at maxDepth plies (0:
// none; limit bounds it either way), when the budget ends, or once
// decided says each of the K best values is settled. It returns the
// options of the deepest iteration completed, exact values first, best
// first, and that depth (0: none was).
func MultiPV[M any](rs RootSearch[M], k, maxDepth, limit int, decided func(v int) bool) ([]Searched[M], int) {
	var root []Searched[M]
	for _, m := range rs.Options() {
		root = append(root, Searched[M]{Move: m})
	}
	if maxDepth > 0 {
		limit = min(limit, maxDepth)
	}
	done := 0
	for depth := 1; depth <= limit; depth++ {
		next := slices.Clone(root)
		var best []int // this iteration's exact values, best first
		stopped := false
		for i := range next {
			alpha := math.MinInt / 2
			if len(best) >= k {
				alpha = best[k-1]
			}
			r := &next[i]
			var v int
			v, r.Reply, r.HasReply, stopped = rs.Search(r.Move, depth, alpha)
			if stopped {
				break
			}
			r.Value, r.Exact, r.Line = v, v > alpha, nil
			if r.Exact {
				at, _ := slices.BinarySearchFunc(best, v, func(a, b int) int { return cmp.Compare(b, a) })
				best = slices.Insert(best, at, v)
				r.Line = rs.Line(r.Move, depth)
			}
		}
		if stopped {
			break
		}
		slices.SortStableFunc(next, func(a, b Searched[M]) int {
			if a.Exact != b.Exact {
				if a.Exact {
					return -1
				}
				return 1
			}
			return cmp.Compare(b.Value, a.Value)
		})
		root, done = next, depth
		settled := true
		for i := range min(k, len(root)) {
			settled = settled && root[i].Exact && decided(root[i].Value)
		}
		if settled {
			break
		}
	}
	return root, done
}

// DefaultAnalysisNodes is an analysis's budget when the front end names
// none: a few seconds of a search's nodes here, deep enough to explain
// a move, short enough to follow a person stepping through a game.
const DefaultAnalysisNodes = 5_000_000
