package colosseum

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser is strong's search made to explain a position, deepened by
// match.MultiPV: the K best options exact, the others refuted by the
// reply read from the table right after each one's search. The table
// cuts off only with entries of the same depth (search.exact), so the K
// values are those of a plain fixed-depth search, to the unit.
type analyser struct{}

// analysisUnit is what a Colosseum value counts.
const analysisUnit = "cells the mover reaches first minus the cells the opponent does (a decided game: the final regions' difference)"

func (analyser) Nodes(st match.State) int64 {
	s := st.(State)
	return max(1000, strongWork/int64(s.board.N*s.board.N))
}

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	sr := newSearch(s, t)
	sr.exact = true
	pv := match.PV[Move]{K: q.K, MaxDepth: q.Depth, Turn: t, Limit: 64,
		Decided: func(v int) bool { return v >= winBase/2 || v <= -winBase/2 },
		Want:    func(m Move) bool { return q.Wants(m) }}
	if q.Progress != nil {
		pv.Each = func(root []match.Searched[Move], depth int) { q.Progress(sr.analysis(s, root, depth, q.K)) }
	}
	root, depth := match.MultiPV(rootSearch{sr, s.Mover()}, pv)
	if depth == 0 {
		return nil, fmt.Errorf("analysis: %w, before the first ply was searched (%v)", match.ErrBudget, t.Budget)
	}
	return sr.analysis(s, root, depth, q.K), nil
}

// analysis writes a depth's root as the analysis says it.
func (sr *search) analysis(s State, root []match.Searched[Move], depth, k int) *match.Analysis {
	an := &match.Analysis{Depth: depth, Proven: true, Nodes: sr.t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	for _, r := range root {
		value, outcome := sr.decode(r.Value)
		if r.Exact && len(an.Best) < k {
			v := match.Variation{Move: r.Move.String(), Action: r.Move, Place: r.Move.Place(), Value: value, Outcome: outcome}
			side := s.Mover()
			for _, m := range r.Line {
				v.Line = append(v.Line, match.LineMove{Side: side, Move: m.String(), Action: m, Place: m.Place()})
				side = side.Other()
			}
			an.Best = append(an.Best, v)
			continue
		}
		ref := match.Refutation{Move: r.Move.String(), Action: r.Move, Place: r.Move.Place(), Bound: value, Outcome: outcome, Exact: r.Exact}
		if r.HasReply {
			ref.Reply = &match.LineMove{Side: s.Mover().Other(), Move: r.Reply.String(), Action: r.Reply, Place: r.Reply.Place()}
		}
		an.Others = append(an.Others, ref)
	}
	return an
}

// rootSearch is the analysis's root: strong's search in exact mode.
type rootSearch struct {
	sr   *search
	side match.Side
}

func (rs rootSearch) Options() []Move { return rs.sr.moves(rs.side, nil) }

func (rs rootSearch) Search(m Move, depth, alpha int) (v int, reply Move, ok, stopped bool) {
	sr, side := rs.sr, rs.side
	from := sr.play(side, m)
	defer sr.unplay(side, m, from)
	if over, mine, theirs := sr.ended(side, m); over {
		return terminal(mine, theirs, 0), Move{}, false, false
	}
	v = -sr.negamax(side.Other(), depth-1, -inf, -alpha, 1)
	if e := sr.tt[sr.hash&uint64(len(sr.tt)-1)]; e.key == sr.hash && e.move >= 0 {
		reply, ok = sr.ttMove(e.move), true
	}
	return v, reply, ok, sr.stopped
}

func (rs rootSearch) Line(m Move, depth int) []Move {
	var out []Move
	for _, lm := range rs.sr.line(rs.side, m, depth) {
		out = append(out, lm.Move)
	}
	return out
}

// decode turns a search value into the analysis's unit: territory as it
// is, a decided game as its final regions' difference, with its outcome.
func (sr *search) decode(v int) (float64, string) {
	switch {
	case v >= winBase/2:
		return float64((v - winBase + 63) / 64), "win"
	case v <= -winBase/2:
		return -float64((-v - winBase + 63) / 64), "loss"
	}
	return float64(v), ""
}

// ttMove is a move as the table keeps it.
func (sr *search) ttMove(key int32) Move {
	return Move{Cell{int(key/4) / sr.n, int(key/4) % sr.n}, Dir(key % 4)}
}
