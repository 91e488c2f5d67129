package pathgame

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser explains a position by a minimax search of the rest of the
// game, deepened by match.MultiPV: the player steps to a neighbour and
// pays the edge's cost, the adversary raises an edge, and at the depth's
// end the player is charged the cheapest path from where it stands.
// The adversary's raises weighed are those of the player's cheapest
// path at that moment: at the last ply before the horizon they are every
// raise that can change the value (a raise off that path leaves it, and
// costs never fall), and earlier they are the raises that hurt at once.
// strong plays the rest out against models instead (models.go); this
// search is the one whose values a full-window search gives again.
type analyser struct{}

// analysisUnit is what a shortest-path value counts.
const analysisUnit = "cost of the player's walk from here to Y: the line's steps, then the cheapest path at the line's end (the player's value is it negated, the adversary's as it is)"

// scale is the fixed point of the search's values: a millionth of a
// cost unit, so that integer windows compare float costs.
const scale = 1e6

// maxValue bounds a value so that sums of costs that overflowed stay
// ordered.
const maxValue = math.MaxInt64 / 4

// Nodes is the analysis's stated budget: a fifth of strong's own cap,
// which strong's play-outs against its models rarely reach, where a
// minimax deepened by pairs spends all it is given (a report of a game
// between strong bots then cost 4.5 times the game; at this budget 0.6).
func (analyser) Nodes(match.State) int64 { return 4_000_000 }

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, ok := t.State.(State)
	if !ok {
		return nil, fmt.Errorf("pathgame analysis given a %T", t.State)
	}
	r := s.Round()
	sr := &pathSearch{t: t, g: s.g, useMax: r.UseMax, costs: append([]float64(nil), r.Costs()...), role: r.Turn, pos: r.Pos}
	pv := match.PV[pathMove]{K: q.K, MaxDepth: q.Depth, Turn: t, Limit: 32,
		Want: func(m pathMove) bool { return q.Wants(sr.lineMove(t.Side, m).Action) }}
	if q.Progress != nil {
		pv.Each = func(root []match.Searched[pathMove], depth int) { q.Progress(sr.analysis(root, depth, q.K)) }
	}
	root, depth := match.MultiPV(sr, pv)
	if depth == 0 {
		return nil, fmt.Errorf("analysis: %w, before the first ply was searched (%v)", match.ErrBudget, t.Budget)
	}
	return sr.analysis(root, depth, q.K), nil
}

// analysis writes a depth's root as the analysis says it.
func (sr *pathSearch) analysis(root []match.Searched[pathMove], depth, k int) *match.Analysis {
	an := &match.Analysis{Depth: depth, Nodes: sr.t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	side := sr.t.Side
	for _, o := range root {
		lm := sr.lineMove(side, o.Move)
		if o.Exact && len(an.Best) < k {
			v := match.Variation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Value: float64(o.Value) / scale}
			sd := side
			for _, m := range o.Line {
				v.Line = append(v.Line, sr.lineMove(sd, m))
				sd = sd.Other()
			}
			an.Best = append(an.Best, v)
			continue
		}
		ref := match.Refutation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Bound: float64(o.Value) / scale, Exact: o.Exact}
		if o.HasReply {
			reply := sr.lineMove(side.Other(), o.Reply)
			ref.Reply = &reply
		}
		an.Others = append(an.Others, ref)
	}
	return an
}

// pathMove is a move of the search: a step along edge to node to, or a
// raise of edge (to is -1).
type pathMove struct{ to, edge int }

// pathSearch is the analysis's minimax, over a copy of the round's costs
// that it raises and lowers as it goes.
type pathSearch struct {
	t      *match.Turn
	g      *Graph
	useMax bool
	costs  []float64
	role   Role // to move at the root
	pos    int
	paths  Paths
	pv     []pathMove // the line of the root option searched last
	// stopped says the turn's budget ended: values found since mean
	// nothing.
	stopped bool
}

// dijkstra computes the cheapest paths to Y at the search's costs and
// counts their work on the turn.
func (sr *pathSearch) dijkstra() {
	if !sr.t.Spend(int64(sr.paths.Compute(sr.g, sr.costs))) {
		sr.stopped = true
	}
}

// lineMove writes a move as a line shows it.
func (sr *pathSearch) lineMove(side match.Side, m pathMove) match.LineMove {
	e := sr.g.Edges[m.edge]
	if m.to >= 0 {
		from := e.A
		if from == m.to {
			from = e.B
		}
		return match.LineMove{Side: side, Move: "to " + sr.g.IDs[m.to], Action: Move(sr.g, from, m.to), Place: match.AtNode(m.to)}
	}
	return match.LineMove{Side: side, Move: "raise " + sr.g.IDs[e.A] + "–" + sr.g.IDs[e.B], Action: RaiseEdge(sr.g, m.edge), Place: match.AtEdge(e.A, e.B)}
}

// Options are the player's neighbours or the raises of its cheapest
// path, cheapest way or nearest edge first.
func (sr *pathSearch) Options() []pathMove { return sr.moves(sr.role, sr.pos) }

// moves are role's options with the player at pos.
func (sr *pathSearch) moves(role Role, pos int) []pathMove {
	sr.dijkstra()
	var out []pathMove
	if role == Player {
		for _, a := range sr.g.Arcs(pos) {
			out = append(out, pathMove{a.To, a.Edge})
		}
		way := func(m pathMove) float64 { return sr.costs[m.edge] + sr.paths.Dist[m.to] }
		slices.SortStableFunc(out, func(a, b pathMove) int { return cmp.Compare(way(a), way(b)) })
		return out
	}
	for _, a := range sr.paths.Path(pos) {
		out = append(out, pathMove{-1, a.Edge})
	}
	if len(out) == 0 { // Y out of reach: a raise of an edge at pos, which changes nothing that counts
		out = append(out, pathMove{-1, sr.g.Arcs(pos)[0].Edge})
	}
	return out
}

func (sr *pathSearch) Search(m pathMove, depth, alpha int) (v int, reply pathMove, ok, stopped bool) {
	var line []pathMove
	v, line = sr.child(sr.pos, m, depth, alpha, maxValue)
	sr.pv = append([]pathMove{m}, line...)
	if len(line) > 0 {
		reply, ok = line[0], true
	}
	return v, reply, ok, sr.stopped
}

func (sr *pathSearch) Line(pathMove, int) []pathMove { return sr.pv }

// child is the mover's value of playing m at pos and searching depth-1
// plies after it with the window (alpha, beta), and the line that follows.
func (sr *pathSearch) child(pos int, m pathMove, depth, alpha, beta int) (int, []pathMove) {
	if m.to >= 0 {
		pay := costValue(sr.costs[m.edge])
		if m.to == sr.g.Y {
			return -pay, nil
		}
		w, line := sr.negamax(Adversary, m.to, depth-1, -pay-beta, -pay-alpha)
		return clampValue(-pay - w), line
	}
	old := sr.costs[m.edge]
	sr.costs[m.edge] *= sr.g.Factor(m.edge, sr.useMax)
	w, line := sr.negamax(Player, pos, depth-1, -beta, -alpha)
	sr.costs[m.edge] = old
	return -w, line
}

// negamax is the value for role to move with the player at pos, depth
// plies deep, in the window (alpha, beta): fail-hard alpha-beta, and the
// best line below.
func (sr *pathSearch) negamax(role Role, pos, depth, alpha, beta int) (int, []pathMove) {
	if depth == 0 || sr.stopped {
		sr.dijkstra()
		c := costValue(sr.paths.Dist[pos])
		if role == Player {
			return -c, nil
		}
		return c, nil
	}
	best, bestLine := math.MinInt64/2, []pathMove(nil)
	for _, m := range sr.moves(role, pos) {
		v, line := sr.child(pos, m, depth, max(alpha, best), beta)
		if v > best {
			best, bestLine = v, append([]pathMove{m}, line...)
		}
		if best >= beta || sr.stopped {
			break
		}
	}
	return best, bestLine
}

// costValue is a cost in the search's fixed point, bounded.
func costValue(c float64) int {
	if c*scale >= maxValue || math.IsInf(c, 1) || math.IsNaN(c) {
		return maxValue
	}
	return int(math.Round(c * scale))
}

// clampValue keeps a sum of bounded values bounded.
func clampValue(v int) int { return max(-maxValue, min(maxValue, v)) }
