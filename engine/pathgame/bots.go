package pathgame

import (
	"fmt"
	"math"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the built-in players; each plays both roles.
func (Game) Bots() []match.BotInfo {
	return []match.BotInfo{
		{Name: "random", Description: "the course's sample clients, kept legal: a random neighbour; a random edge",
			New: func(match.Options) (match.Bot, error) { return match.BotFunc(randomAct), nil }},
		{Name: "greedy", Description: "player: a step along the cheapest path now; adversary: the raise of that path's edge that lengthens it most",
			New: func(match.Options) (match.Bot, error) { return &bot{}, nil }},
		{Name: "strong", Description: "player: the step whose rest survives a raising adversary best; adversary: stacks raises on the edge of the path that can be pushed up most before the player gets there",
			Budget:  match.Budget{Nodes: 20_000_000},
			Options: []match.OptionInfo{match.OptNodes, match.OptTime},
			New:     func(match.Options) (match.Bot, error) { return &bot{strong: true}, nil }},
	}
}

// rolloutSteps bounds the games strong plays out in its head: a course
// graph's X is under ten hops from Y.
const rolloutSteps = 16

// randomAct plays a random legal message.
func randomAct(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	g, r := s.g, s.Round()
	if s.RoleOf(t.Side) == Player {
		arcs := g.Arcs(r.Pos)
		return Move(g, r.Pos, arcs[t.Rand.IntN(len(arcs))].To), nil
	}
	return RaiseEdge(g, t.Rand.IntN(len(g.Edges))), nil
}

// bot is greedy or strong, in either role.
type bot struct {
	strong bool
	paths  Paths
	spare  Paths
}

func (b *bot) Act(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	r := s.Round()
	if s.RoleOf(t.Side) == Player {
		return Move(s.g, r.Pos, b.step(t, s.g, &r)), nil
	}
	return RaiseEdge(s.g, b.raise(t, s.g, &r)), nil
}

// step chooses the player's next node.
func (b *bot) step(t *match.Turn, g *Graph, r *Round) int {
	t.Spend(int64(b.paths.Compute(g, r.Costs())))
	next := b.paths.Next[r.Pos]
	if next.Edge < 0 { // Y is out of reach, or the player is on it
		return g.Arcs(r.Pos)[0].To
	}
	t.Note.Text = fmt.Sprintf("cheapest path now %s in %d steps", trimFloat(b.paths.Dist[r.Pos]), len(b.paths.Path(r.Pos)))
	if !b.strong {
		return next.To
	}
	// Value each neighbour by the cost of walking on from it while a
	// greedy adversary raises the worst edge of the path at every step.
	best, bestCost := next.To, math.Inf(1)
	for _, a := range g.Arcs(r.Pos) {
		if !t.Spend(0) {
			break
		}
		c := r.Costs()[a.Edge] + b.rollout(t, g, r, a)
		if c < bestCost || (c == bestCost && a.To == next.To) {
			best, bestCost = a.To, c
		}
	}
	t.Note.Text += fmt.Sprintf("; against a raising adversary %s", trimFloat(bestCost))
	return best
}

// rollout plays the rest of the game from the player's step along a, a
// greedy adversary raising after each step and the player following the
// cheapest path, and returns what the player pays after a.
func (b *bot) rollout(t *match.Turn, g *Graph, r *Round, a Arc) float64 {
	sim := *r
	sim.Pos, sim.Turn = a.To, Adversary
	paid := 0.0
	for steps := 0; sim.Pos != g.Y && steps < rolloutSteps; steps++ {
		e := b.greedyRaise(t, g, &sim)
		if e >= 0 {
			sim.Raise(e)
		}
		t.Spend(int64(b.spare.Compute(g, sim.Costs())))
		n := b.spare.Next[sim.Pos]
		if n.Edge < 0 {
			return math.Inf(1)
		}
		paid += sim.Costs()[n.Edge]
		sim.Pos = n.To
		if !t.Spend(0) {
			return paid + b.spare.Dist[sim.Pos]
		}
	}
	if sim.Pos != g.Y { // played out far enough: the rest at today's costs
		t.Spend(int64(b.spare.Compute(g, sim.Costs())))
		paid += b.spare.Dist[sim.Pos]
	}
	return paid
}

// raise chooses the adversary's edge.
func (b *bot) raise(t *match.Turn, g *Graph, r *Round) int {
	if b.strong {
		return b.lookRaise(t, g, r)
	}
	if e := b.greedyRaise(t, g, r); e >= 0 {
		return e
	}
	return 0
}

// greedyRaise returns the edge of the player's cheapest path whose raise
// lengthens it most, or -1 when none does.
func (b *bot) greedyRaise(t *match.Turn, g *Graph, r *Round) int {
	var p Paths
	t.Spend(int64(p.Compute(g, r.Costs())))
	base := p.Dist[r.Pos]
	best, bestGain := -1, 0.0
	costs := slices.Clone(r.Costs())
	for _, a := range p.Path(r.Pos) {
		old := costs[a.Edge]
		costs[a.Edge] = old * g.Factor(a.Edge, r.UseMax)
		t.Spend(int64(b.spare.Compute(g, costs)))
		if gain := b.spare.Dist[r.Pos] - base; gain > bestGain {
			best, bestGain = a.Edge, gain
		}
		costs[a.Edge] = old
	}
	return best
}

// stackRaise scores each edge of the player's cheapest path by how much
// the path lengthens when that edge alone takes every raise until the
// player reaches it (stopping once it leaves the path), and raises the
// best: unavoidable edges far ahead compound.
func (b *bot) stackRaise(t *match.Turn, g *Graph, r *Round) int {
	var p Paths
	t.Spend(int64(p.Compute(g, r.Costs())))
	base := p.Dist[r.Pos]
	path := p.Path(r.Pos)
	best, bestGain := -1, 0.0
	costs := slices.Clone(r.Costs())
	for j, a := range path {
		old := costs[a.Edge]
		gain, prev := 0.0, 0.0
		for range j + 1 {
			costs[a.Edge] *= g.Factor(a.Edge, r.UseMax)
			t.Spend(int64(b.spare.Compute(g, costs)))
			gain = b.spare.Dist[r.Pos] - base
			if gain <= prev {
				break // the edge left the path: more raises add nothing
			}
			prev = gain
		}
		costs[a.Edge] = old
		if prev > bestGain {
			best, bestGain = a.Edge, prev
		}
		if !t.Spend(0) {
			break
		}
	}
	if best < 0 {
		if len(path) > 0 {
			return path[0].Edge
		}
		return 0
	}
	t.Note.Text = fmt.Sprintf("raising %s-%s: stacked raises could add %s", g.IDs[g.Edges[best].A], g.IDs[g.Edges[best].B], trimFloat(bestGain))
	return best
}

// lookRaise plays the rest of the game after each raise of an edge of the
// player's cheapest path (and after the stacking choice), the player
// following its cheapest path and the adversary raising greedily, and
// raises the edge after which the player pays most.
func (b *bot) lookRaise(t *match.Turn, g *Graph, r *Round) int {
	var p Paths
	t.Spend(int64(p.Compute(g, r.Costs())))
	cands := []int{}
	for _, a := range p.Path(r.Pos) {
		cands = append(cands, a.Edge)
	}
	if e := b.stackRaise(t, g, r); e >= 0 && !slices.Contains(cands, e) {
		cands = append(cands, e)
	}
	best, bestPaid := -1, -1.0
	for _, e := range cands {
		sim := *r
		sim.Raise(e)
		paid := 0.0
		for steps := 0; sim.Pos != g.Y && steps < rolloutSteps; steps++ {
			t.Spend(int64(b.spare.Compute(g, sim.Costs())))
			n := b.spare.Next[sim.Pos]
			if n.Edge < 0 {
				break
			}
			paid += sim.Costs()[n.Edge]
			sim.Pos = n.To
			if sim.Pos == g.Y || !t.Spend(0) {
				break
			}
			if x := b.greedyRaise(t, g, &sim); x >= 0 {
				sim.Raise(x)
			}
		}
		if sim.Pos != g.Y {
			t.Spend(int64(b.spare.Compute(g, sim.Costs())))
			paid += b.spare.Dist[sim.Pos]
		}
		if paid > bestPaid {
			best, bestPaid = e, paid
		}
		if !t.Spend(0) {
			break
		}
	}
	if best < 0 {
		return 0
	}
	t.Note.Text = fmt.Sprintf("raising %s-%s: the player would pay %s more", g.IDs[g.Edges[best].A], g.IDs[g.Edges[best].B], trimFloat(bestPaid))
	return best
}
