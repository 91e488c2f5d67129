package match

import (
	"bytes"
	"cmp"
	"encoding/json"
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
	// Proven says an Outcome is the game's result under best play: the
	// search saw every end of every line, as a minimax search to the end
	// does. Without it an Outcome is how one play-out ended.
	Proven bool `json:"proven,omitempty"`
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
	// Played is the option the query asked about (Query.Played) with
	// its value at Depth, whether or not it is among Best; nil when
	// none was asked or the game's options do not hold it.
	Played *Variation `json:"played,omitempty"`
}

// ValuedInFull says every option outside Best has its value, not only a
// bound: an analysis that values every option in full (Life's,
// Evasion's). A search with a window may give some others exact values
// and bound the rest (the move played is valued in full, always), so one
// exact other says nothing of the others.
func (an *Analysis) ValuedInFull() bool {
	return len(an.Others) > 0 && !slices.ContainsFunc(an.Others, func(o Refutation) bool { return !o.Exact })
}

// Variation is an option with its exact value and its line.
type Variation struct {
	Move    string     `json:"move"`   // in the game's notation, as notes' lines write it
	Action  Action     `json:"action"` // the game's action, as replays keep it
	Place   Place      `json:"place"`
	Value   float64    `json:"value"`
	Outcome string     `json:"outcome,omitempty"` // "win", "draw" or "loss": the search saw every end, the result is the game's
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
	Outcome string    `json:"outcome,omitempty"` // "loss" when the reply wins (with Exact: the option's proven result)
	Reply   *LineMove `json:"reply,omitempty"`   // nil when the option ends the game
	// Exact says Bound is the option's value, not only a bound: an
	// analysis that plays every option out in full (Life's, Evasion's)
	// knows each, and Reply is then what it was played against.
	Exact bool `json:"exact,omitempty"`
}

// Analyser analyses a game's positions: its strong search, made to give
// exact values for the best K options. The search counts its nodes on
// the turn (t.Budget), and stops deepening at q.Depth (0: as deep as
// the budget allows), so that the same depth or nodes give the same
// figures on every machine.
type Analyser interface {
	Analyse(t *Turn, q Query) (*Analysis, error)
	// Nodes is the stated budget of an analysis of s: the nodes in which
	// every front end reaches the answer it shows for s when no depth or
	// budget is asked, so that one position has one answer everywhere.
	Nodes(s State) int64
}

// Query is what an analysis is asked.
type Query struct {
	K     int // how many best options to value exactly (1 or more)
	Depth int // the depth to stop at, in the analysis's unit (0: as deep as the budget allows)
	// Played is an option to value exactly whatever it is worth: the
	// move a game played, or one a person tries on the board.
	Played Action
	// Progress, when set, is given each depth's analysis as the search
	// deepens (a board shows them on the way); the answer is the last.
	Progress func(*Analysis)
	// Brief asks for Best and Played alone: a report reads no more, and
	// an analyser that values every option anyway (Life's, hundreds a
	// decision) may leave the others' refutations unlisted and unsorted.
	Brief bool
}

// Wants says whether the option a is the one q asks about.
func (q Query) Wants(a Action) bool { return q.Played != nil && SameAction(a, q.Played) }

// SameAction says whether a and b are the same action, as replays keep
// actions: their JSON, or a's Equal where its type has one (see [Action]):
// a report asks it of every option of every decision, and a Life turn
// has hundreds.
func SameAction(a, b Action) bool {
	if e, ok := a.(interface{ Equal(Action) bool }); ok {
		return e.Equal(b)
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
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

// Analyse analyses the position of t with the game's analyser. With no
// budget on t and no depth asked, the search spends the game's stated
// budget (Analyser.Nodes): the answer every front end shows.
func Analyse(g Game, t *Turn, q Query) (*Analysis, error) {
	game := g.Info().Name
	a, ok := analyserOf(g)
	if !ok {
		return nil, fmt.Errorf("%s: %w", game, ErrNoAnalyser)
	}
	if q.K < 1 {
		return nil, fmt.Errorf("analysis: k is %d; it is the number of best options to give, 1 or more", q.K)
	}
	if t.State.ToMove() == Nobody {
		return nil, errors.New("analysis: the game is over at this turn: there is no move to analyse")
	}
	if t.Budget == (Budget{}) && q.Depth == 0 {
		t.Budget.Nodes = a.Nodes(t.State)
	}
	finish := func(an *Analysis) {
		an.Game, an.Turn, an.Side = game, t.State.Turn(), t.Side
		if an.DepthUnit == "" {
			an.DepthUnit = "plies"
		}
		if q.Played != nil {
			an.Played = an.played(q.Played)
		}
		byBound(an.Others)
	}
	if progress := q.Progress; progress != nil {
		q.Progress = func(an *Analysis) { finish(an); progress(an) }
	}
	an, err := a.Analyse(t, q)
	if err != nil {
		return nil, err
	}
	finish(an)
	return an, nil
}

// played is the option p as the analysis values it: a best option as
// it is, another only where its value is exact (its reply then the
// line), nil where the analysis does not hold it.
func (an *Analysis) played(p Action) *Variation {
	for _, v := range an.Best {
		if SameAction(v.Action, p) {
			return &v
		}
	}
	for _, o := range an.Others {
		if o.Exact && SameAction(o.Action, p) {
			v := Variation{Move: o.Move, Action: o.Action, Place: o.Place, Value: o.Bound, Outcome: o.Outcome,
				Line: []LineMove{{Side: an.Side, Move: o.Move, Action: o.Action, Place: o.Place}}}
			if o.Reply != nil {
				v.Line = append(v.Line, *o.Reply)
			}
			return &v
		}
	}
	return nil
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

// PV is what MultiPV is asked: M is the game's move.
type PV[M any] struct {
	K        int // the best options to value exactly
	MaxDepth int // 0: none
	Limit    int // the deepest the game allows: its end, or the search's cap
	// Decided says a value is settled (a won or lost game): once the K
	// best are, deeper searches say nothing new.
	Decided func(v int) bool
	// Want says an option is valued exactly whatever it is worth (the
	// move played, or tried): it is searched with no lower bound.
	Want func(M) bool
	// Each, when set, is given each depth kept, as it is kept.
	Each func(root []Searched[M], depth int)
	// Turn, when set, is the turn whose nodes the search counts: with a
	// node budget, MultiPV starts no move pair it foresees the budget
	// cannot finish (the last pair's nodes times its growth over the one
	// before), as engines manage their clocks: the answer is the one it
	// would keep, reached without the nodes a pair cut short wastes.
	Turn *Turn
}

// MultiPV deepens a search one ply at a time, searching each option of
// the root with the window (α, ∞), α the K-th best exact value found so
// far in the iteration: an option that beats α gets its exact value (β
// is ∞: nothing above it can cut), and one that does not is refuted at a
// bound, by the reply its search found. It stops at p.MaxDepth plies
// (p.Limit bounds it either way), when the budget ends, or once each of
// the K best values is decided. It returns the options of the deepest
// depth kept, exact values first, best first, and that depth (0: none).
//
// It keeps whole move pairs: an even depth, where the opponent has
// answered the mover's last move. An odd depth ends on the mover's
// move, unanswered, and its values swing from the even depths' (the
// odd-even effect of game engines); it is kept only where it is the
// depth asked, the game's end, a decided value, or the only depth the
// budget allows.
func MultiPV[M any](rs RootSearch[M], p PV[M]) ([]Searched[M], int) {
	var order []Searched[M]
	for _, m := range rs.Options() {
		order = append(order, Searched[M]{Move: m})
	}
	limit := p.Limit
	if p.MaxDepth > 0 {
		limit = min(limit, p.MaxDepth)
	}
	var kept []Searched[M]
	done := 0
	var pairs []int64 // the nodes spent as each even depth ended, from depth 0
	if p.Turn != nil {
		pairs = append(pairs, p.Turn.Nodes())
	}
	for depth := 1; depth <= limit; depth++ {
		next, ok := searchDepth(rs, order, p, depth)
		if !ok {
			break
		}
		order = next
		settled := true
		for i := range min(p.K, len(next)) {
			settled = settled && next[i].Exact && p.Decided != nil && p.Decided(next[i].Value)
		}
		if depth%2 == 0 || depth == limit || settled || done == 0 {
			kept, done = next, depth
			if p.Each != nil {
				p.Each(kept, done)
			}
		}
		if settled {
			break
		}
		if p.Turn != nil && depth%2 == 0 {
			pairs = append(pairs, p.Turn.Nodes())
			if !pairFits(pairs, p.Turn.Budget.Nodes) {
				break
			}
		}
	}
	return kept, done
}

// pairFits says whether the next move pair can be finished in budget
// nodes (0: no budget), foreseen from the nodes the pairs so far took:
// the last pair's, grown as much as it grew over the one before. It
// cannot tell from fewer than two pairs, and says yes.
func pairFits(pairs []int64, budget int64) bool {
	n := len(pairs)
	if budget <= 0 || n < 3 {
		return true
	}
	last, before := float64(pairs[n-1]-pairs[n-2]), float64(pairs[n-2]-pairs[n-3])
	if before <= 0 {
		return true
	}
	return float64(pairs[n-1])+last*last/before <= float64(budget)
}

// searchDepth searches every option of the root to depth, in order: the
// options exact values first, best first, or ok false if the budget
// ended on the way.
func searchDepth[M any](rs RootSearch[M], order []Searched[M], p PV[M], depth int) ([]Searched[M], bool) {
	next := slices.Clone(order)
	var best []int // this depth's exact values, best first
	for i := range next {
		alpha := math.MinInt / 2
		r := &next[i]
		if len(best) >= p.K && (p.Want == nil || !p.Want(r.Move)) {
			alpha = best[p.K-1]
		}
		v, reply, hasReply, stopped := rs.Search(r.Move, depth, alpha)
		if stopped {
			return nil, false
		}
		r.Reply, r.HasReply = reply, hasReply
		r.Value, r.Exact, r.Line = v, v > alpha, nil
		if r.Exact {
			at, _ := slices.BinarySearchFunc(best, v, func(a, b int) int { return cmp.Compare(b, a) })
			best = slices.Insert(best, at, v)
			r.Line = rs.Line(r.Move, depth)
		}
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
	return next, true
}

// byBound orders refutations best bound first, keeping the search's
// order among equals: an insertion sort, as the options are in order but
// for the one asked about (slices.SortStableFunc's instantiation for
// Refutation weighed 9 KB of the page's program).
func byBound(rs []Refutation) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Bound > rs[j-1].Bound; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}
