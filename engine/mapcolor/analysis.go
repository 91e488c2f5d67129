package mapcolor

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser is strong's search made to explain a position, deepened by
// match.MultiPV: the K best colourings exact, the others refuted by the
// reply read from the table right after each one's search. The table
// is the analysis's own and cuts off only with entries of the same depth
// (searchBot.exact), so the K values are a plain fixed-depth search's.
type analyser struct{}

// analysisUnit is what a map-colouring value counts.
const analysisUnit = "points: the mover's score minus the opponent's, with a quarter of what the states left to colour are worth more to the mover (whole games: the final score's difference)"

func (analyser) Nodes(match.State) int64 { return strongNodes }

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	p := s.w.p
	b := &searchBot{keys: newZobrist(p), tt: make([]ttEntry, ttSize), exact: true}
	pos := s.position()
	ds := &deepSearch{pos: pos, bot: b, t: t, key: b.keys.colouring(s, pos.ncolour),
		killers: make([][2]move, pos.left+2), buf: make([][]move, pos.left+2)}
	rs := rootSearch{ds, t.Side, p}
	pv := match.PV[move]{K: q.K, MaxDepth: q.Depth, Turn: t, Limit: max(pos.left, 1),
		Want: func(m move) bool { return q.Wants(rs.action(m)) }}
	if q.Progress != nil {
		pv.Each = func(root []match.Searched[move], depth int) { q.Progress(rs.analysis(root, depth, q.K)) }
	}
	root, depth := match.MultiPV(rs, pv)
	if depth == 0 {
		return nil, fmt.Errorf("analysis: %w, before the first ply was searched (%v)", match.ErrBudget, t.Budget)
	}
	return rs.analysis(root, depth, q.K), nil
}

// action is a move of the search as the game's action.
func (rs rootSearch) action(m move) Move {
	return Move{rs.p.States[m.state], rs.p.Colours[m.colour]}
}

// analysis writes a depth's root as the analysis says it: a value
// searched to the game's end is its result.
func (rs rootSearch) analysis(root []match.Searched[move], depth, k int) *match.Analysis {
	an := &match.Analysis{Depth: depth, Proven: true, Nodes: rs.ds.t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	lm := func(sd match.Side, m move) match.LineMove {
		a := rs.action(m)
		return match.LineMove{Side: sd, Move: a.String(), Action: a, Place: match.AtState(m.state)}
	}
	side, end := rs.side, depth == rs.ds.pos.left
	for _, r := range root {
		first := lm(side, r.Move)
		value := float64(r.Value) / 2 // the search's values are half-points
		if r.Exact && len(an.Best) < k {
			v := match.Variation{Move: first.Move, Action: first.Action, Place: first.Place, Value: value}
			if end {
				v.Outcome = outcomeOf(r.Value)
			}
			sd := side
			for _, m := range r.Line {
				v.Line = append(v.Line, lm(sd, m))
				sd = sd.Other()
			}
			an.Best = append(an.Best, v)
			continue
		}
		ref := match.Refutation{Move: first.Move, Action: first.Action, Place: first.Place, Bound: value, Exact: r.Exact}
		if end && r.Exact {
			ref.Outcome = outcomeOf(r.Value)
		}
		if r.HasReply {
			reply := lm(side.Other(), r.Reply)
			ref.Reply = &reply
		}
		an.Others = append(an.Others, ref)
	}
	return an
}

// outcomeOf is a value searched to the end of the game: the result.
func outcomeOf(v int) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}

// rootSearch is the analysis's root: strong's search in exact mode.
type rootSearch struct {
	ds   *deepSearch
	side match.Side
	p    *Problem
}

func (rs rootSearch) Options() []move {
	rs.ds.must = true // the first ply is searched whatever the budget
	return rs.ds.ordered(0, rs.side, rs.ds.pos.moves(nil))
}

func (rs rootSearch) Search(m move, depth, alpha int) (v int, reply move, ok, stopped bool) {
	ds, side := rs.ds, rs.side
	ds.must = depth == 1
	ds.play(m, side)
	defer ds.undo(m, side)
	v = -ds.negamax(depth-1, 1, -Inf, -alpha, side.Other())
	key := ds.key
	if side.Other() == match.P2 {
		key ^= ds.bot.keys.side
	}
	if e := ds.bot.tt[key&(ttSize-1)]; e.key == key && depth > 1 {
		reply, ok = e.best, true
	}
	return v, reply, ok, ds.stopped
}

func (rs rootSearch) Line(m move, depth int) []move { return rs.ds.follow(m, rs.side, depth) }
