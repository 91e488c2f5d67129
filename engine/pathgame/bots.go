package pathgame

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the built-in players; each plays both roles.
func (Game) Bots() []match.BotInfo {
	return append([]match.BotInfo{
		{Name: "random", Description: "the course's sample clients, kept legal: a random neighbour; a random edge",
			New: func(match.Options) (match.Bot, error) { return match.BotFunc(randomAct), nil }},
		{Name: "greedy", Description: "player: a step along the cheapest path now; adversary: the raise of that path's edge that lengthens it most",
			Marks: "player: the next nodes, by the cost of the cheapest walk to Y from each (negated: cheaper is better); adversary: the cheapest path's edges, by the cost a raise would add to the walk",
			New:   func(match.Options) (match.Bot, error) { return &bot{}, nil }},
		{Name: "strong", Description: "player: the step whose rest, played out against each kind of adversary its watching has not ruled out, costs least at worst; adversary: the raise (of the cheapest path, the stacking one, or one on a likely player's walk) after which the least hurt of the kinds of player it has not ruled out pays most",
			Marks:   "player: the next nodes it played out, by the most the walk to Y cost from each against the adversaries it foresaw (negated); adversary: edges, by the cost a raise would add to the player's walk",
			Budget:  match.Budget{Nodes: 20_000_000},
			Options: []match.OptionInfo{match.OptNodes, match.OptTime},
			New:     func(match.Options) (match.Bot, error) { return &bot{strong: true, game: -1}, nil }},
	}, referenceBots()...)
}

// gameNodes is what strong spends on a whole game, in the budget's unit
// (edges scanned by its Dijkstras): a move gets its budget or an even
// share of what is left of this over the hops still to go, whichever is
// less (at least one node: a move is always made).
// On the course's graphs (Y within ten hops) that is the budget; on a
// 5,000-node path it keeps a game within the original's two minutes a
// player (about 25 s here).
const gameNodes = 400_000_000

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
	repl   Replacement
	model  work // the models' memory, for play-outs (see models.go)
	seenBy []bool
	queue  []int
	// game and spent: which game of the pairing the bot is in, and the
	// nodes it spent on it so far.
	game  int
	spent int64
	// The adversary watches the player: after (the round it left the
	// player, its raise made) and hits (the steps each player model
	// foretold).
	after Round
	seen  bool
	hits  [playerModels]int
	lean  bool // this move plays greedy's: see Act
	// The player watches the adversary the same way: stepped (the round
	// its last step left, before the raise) and raises (the raises each
	// adversary model foretold).
	stepped Round
	steps   bool
	raises  [adversaryModels]int
	// been marks the nodes the player stood on this game: costs never
	// fall, so a walk back to one only gave the adversary raises.
	been []bool
}

// share limits the move to an even share of what is left of gameNodes
// over the moves still to come: at least the player's hops to Y. A game
// that lasts longer than that (a player wandering for 10,000 messages)
// finds less left each move, so that the game's total stays bounded.
func (b *bot) share(t *match.Turn, s State) {
	if s.game != b.game {
		b.game, b.spent, b.seen, b.hits = s.game, 0, false, [playerModels]int{}
		b.steps, b.raises = false, [adversaryModels]int{}
		clear(b.been)
	}
	left := int64(1)
	if h := s.g.Hops[s.r.Pos]; h != Unreachable {
		left += h
	}
	t.Limit(max(0, gameNodes-b.spent) / left)
}

func (b *bot) Act(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	r := s.Round()
	if b.strong {
		b.share(t, s)
		defer func() { b.spent += t.Nodes() }()
		// A share too small for a look-ahead (four Dijkstras' worth: a
		// random player wandering for 10,000 messages on 200,000 edges)
		// buys greedy's move, which costs one or two.
		b.lean = t.Budget.Nodes > 0 && t.Budget.Nodes < 8*int64(len(s.g.Edges))
	}
	if s.RoleOf(t.Side) == Player {
		return Move(s.g, r.Pos, b.step(t, s.g, &r)), nil
	}
	return RaiseEdge(s.g, b.raise(t, s.g, &r)), nil
}

// step chooses the player's next node.
func (b *bot) step(t *match.Turn, g *Graph, r *Round) int {
	t.Spend(int64(b.paths.Compute(g, r.Costs())))
	next := b.paths.Next[r.Pos]
	if next.Edge < 0 { // Y is out of reach, or so dear that the costs overflowed
		return nearer(g, r.Pos)
	}
	t.Note.Text = fmt.Sprintf("cheapest path now %s in %d steps", trimFloat(b.paths.Dist[r.Pos]), len(b.paths.Path(r.Pos)))
	expectRoute(&t.Note, r.Pos, b.paths.Path(r.Pos))
	// Each way on, by what the cheapest walk from there costs now (less
	// is better: marked negative); strong marks those it plays out
	// against the adversaries instead, priced by the play-out, and not
	// the others: a cheapest path is no price against raises, and would
	// outshine every way played out.
	ways := newWays(g, r, &b.paths)
	defer ways.mark(&t.Note)
	if !b.strong || b.lean {
		return next.To
	}
	// Value each neighbour by the most that walking on from it costs
	// against the likely adversaries (models.go); never a neighbour the
	// player stood on this game: the cheapest path's step first, so that a budget spent before the
	// others are played out leaves it standing. A play-out the budget
	// cut short is not compared: it would look cheap for being short.
	b.watchRaise(t, g, r)
	if len(b.been) != g.N() {
		b.been = make([]bool, g.N())
	}
	b.been[r.Pos] = true
	arcs := append([]Arc{next}, g.Arcs(r.Pos)...)
	best, bestCost := next, math.Inf(1)
	ahead := b.ahead(t, g, r.Pos)
	for i, a := range arcs {
		if i > 0 && (a == next || !ahead[a.To]) || b.been[a.To] {
			continue
		}
		rest, ok := b.rollout(t, g, r, a)
		if !ok {
			break
		}
		c := r.Costs()[a.Edge] + rest
		ways.price(a.To, c)
		if c < bestCost {
			best, bestCost = a, c
		}
	}
	t.Note.Text += fmt.Sprintf("; against a raising adversary %s", trimFloat(bestCost))
	// The route it expects: its step, then the cheapest path on.
	t.Note.Expects = t.Note.Expects[:0]
	expectRoute(&t.Note, r.Pos, append([]Arc{best}, b.paths.Path(best.To)...))
	b.stepped, b.steps = *r, true
	b.stepped.Share()
	b.stepped.Pos = best.To
	return best.To
}

// ways are the player's ways on from its node, with what each costs.
type ways struct {
	to     []int
	cost   []float64
	played []bool // priced by a play-out, not by the cheapest path
	priced bool   // some way was played out
}

func newWays(g *Graph, r *Round, p *Paths) *ways {
	w := &ways{}
	for _, a := range g.Arcs(r.Pos) {
		if !slices.Contains(w.to, a.To) {
			w.to = append(w.to, a.To)
			w.cost = append(w.cost, r.Costs()[a.Edge]+p.Dist[a.To])
			w.played = append(w.played, false)
		}
	}
	return w
}

// price sets the cost a play-out gave the way to node n.
func (w *ways) price(n int, c float64) {
	if i := slices.Index(w.to, n); i >= 0 {
		w.cost[i], w.played[i], w.priced = c, true, true
	}
}

// mark marks each way with its cost, negated (less is better), the
// cheapest first; once some way was played out, only those that were.
func (w *ways) mark(n *match.Note) {
	order := make([]int, len(w.to))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(w.cost[a], w.cost[b]) })
	for _, i := range order {
		if !w.priced || w.played[i] {
			n.Mark(match.AtNode(w.to[i]), -w.cost[i], "")
		}
	}
}

// ahead marks the nodes that reach Y without passing through pos. A step
// to any other neighbour only leads back through pos, dearer by the way
// there and back, as costs never fall: the player does not take it,
// however its play-out, cut at a horizon, may price it (on a long path a
// step back once looked cheaper than one forward).
func (b *bot) ahead(t *match.Turn, g *Graph, pos int) []bool {
	if cap(b.seenBy) < g.N() {
		b.seenBy = make([]bool, g.N())
	}
	seen := b.seenBy[:g.N()]
	clear(seen)
	if pos == g.Y {
		return seen
	}
	seen[g.Y] = true
	queue := append(b.queue[:0], g.Y)
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, a := range g.Arcs(n) {
			if a.To != pos && !seen[a.To] {
				seen[a.To] = true
				queue = append(queue, a.To)
			}
		}
		t.Spend(int64(len(g.Arcs(n))))
	}
	b.queue = queue
	return seen
}

// nearer is the neighbour fewest hops from Y (the first of equals): the
// way on when every path to Y costs +Inf, which arriving still beats
// wandering until the move cap.
func nearer(g *Graph, n int) int {
	arcs := g.Arcs(n)
	best := arcs[0].To
	for _, a := range arcs[1:] {
		if g.Hops[a.To] < g.Hops[best] {
			best = a.To
		}
	}
	return best
}

// rollout plays the rest of the game from the player's step along a,
// itself keeping to near-shortest routes, against each likely adversary,
// and returns the most the player pays after a; false when the budget
// ran out.
func (b *bot) rollout(t *match.Turn, g *Graph, r *Round, a Arc) (float64, bool) {
	worst := math.Inf(-1)
	for _, m := range likely[adversaryModel](b.raises[:]) {
		sim := *r
		sim.Pos, sim.Turn = a.To, Adversary
		paid, ok := b.playOut(t, g, sim, keepsNear, m)
		if !ok {
			return 0, false
		}
		worst = max(worst, paid)
	}
	return worst, true
}

// raise chooses the adversary's edge.
func (b *bot) raise(t *match.Turn, g *Graph, r *Round) int {
	if b.strong && !b.lean {
		b.watch(t, g, r)
		e := b.lookRaise(t, g, r)
		b.after, b.seen = *r, true
		b.after.Share()
		b.after.Raise(e)
		return e
	}
	if e := b.greedyRaise(t, g, r); e >= 0 {
		b.markGains(t, g, r)
		return e
	}
	return 0
}

// greedyRaise returns the edge of the player's cheapest path whose raise
// lengthens it most (the nearest of equals), or -1 when none does.
func (b *bot) greedyRaise(t *match.Turn, g *Graph, r *Round) int {
	t.Spend(int64(b.repl.Compute(g, r.Costs(), r.Pos)))
	return b.greediest(g, r)
}

// markGains marks each edge of the player's cheapest path (b.repl,
// computed for r) with what its raise would add to the walk, and the
// route the player is expected to walk: greedy's thinking, for its note
// (not its simulations').
func (b *bot) markGains(t *match.Turn, g *Graph, r *Round) {
	expectRoute(&t.Note, r.Pos, b.repl.Path)
	base := b.repl.Base
	for i, a := range b.repl.Path {
		c := r.Costs()[a.Edge]
		markEdge(&t.Note, g, a.Edge, min(c*(g.Factor(a.Edge, r.UseMax)-1), b.repl.Avoid[i]-base))
	}
}

// markEdge marks an edge with a value: what raising it would add to the
// player's walk.
func markEdge(n *match.Note, g *Graph, e int, v float64) {
	n.Mark(match.AtEdge(g.Edges[e].A, g.Edges[e].B), v, "")
}

// expectRoute is the route a bot expects the player to walk from pos:
// the nodes of path, pos first.
func expectRoute(n *match.Note, pos int, path []Arc) {
	n.Expect(match.AtNode(pos))
	for _, a := range path {
		n.Expect(match.AtNode(a.To))
	}
}

// greediest is greedyRaise on b.repl computed for r. A raise of path
// edge i leaves the player the cheaper of the same path, dearer by that
// edge's increase, and the cheapest path without edge i.
func (b *bot) greediest(g *Graph, r *Round) int {
	base := b.repl.Base
	best, bestGain := -1, 0.0
	for i, a := range b.repl.Path {
		c := r.Costs()[a.Edge]
		gain := min(c*(g.Factor(a.Edge, r.UseMax)-1), b.repl.Avoid[i]-base)
		if better(gain, bestGain, base) {
			best, bestGain = a.Edge, gain
		}
	}
	return best
}

// better reports whether gain beats best by more than rounding: gains
// that are equal in exact arithmetic may differ in the last bits.
func better(gain, best, base float64) bool {
	return gain > best+1e-9*max(base, 1)
}

// stackRaise scores each edge of the player's cheapest path (b.repl,
// computed for r) by how much the path lengthens when that edge alone
// takes every raise until the player reaches it (j+1 raises for the j-th
// edge, until the path avoids it), and raises the best: unavoidable
// edges far ahead compound.
func (b *bot) stackRaise(t *match.Turn, g *Graph, r *Round) int {
	base, path := b.repl.Base, b.repl.Path
	best, bestGain := -1, 0.0
	for j, a := range path {
		c := r.Costs()[a.Edge]
		raised := c * math.Pow(g.Factor(a.Edge, r.UseMax), float64(j+1))
		gain := min(raised-c, b.repl.Avoid[j]-base)
		if better(gain, bestGain, base) {
			best, bestGain = a.Edge, gain
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

// lookRaise plays the rest of the game after the stacking choice, the
// greedy one and each other raise of an edge of the player's cheapest
// path, in that order, the player following its cheapest path and the
// adversary raising greedily, and raises the edge after which the player
// pays most.
func (b *bot) lookRaise(t *match.Turn, g *Graph, r *Round) int {
	t.Spend(int64(b.repl.Compute(g, r.Costs(), r.Pos)))
	expectRoute(&t.Note, r.Pos, b.repl.Path)
	stack, greedy := b.stackRaise(t, g, r), b.greediest(g, r)
	cands := []int{stack}
	if greedy >= 0 && greedy != stack {
		cands = append(cands, greedy)
	}
	players := likely[playerModel](b.hits[:])
	for _, a := range b.repl.Path {
		if a.Edge != stack && a.Edge != greedy {
			cands = append(cands, a.Edge)
		}
	}
	for _, m := range players { // and the edges of each likely player's walk
		b.walk(t, g, r, m, func(e int) {
			if !slices.Contains(cands, e) {
				cands = append(cands, e)
			}
		})
	}
	best, bestPaid := stack, -1.0
	cut := false
	for _, e := range cands {
		least := math.Inf(1)
		for _, m := range players {
			sim := *r
			sim.Raise(e)
			sim.Turn = Player
			own := raisesGreedily
			if m == fewestHops {
				own = onTheirRoute
			}
			paid, ok := b.playOut(t, g, sim, m, own)
			if !ok {
				cut = true // cut short: it would look cheap for being short
				break
			}
			least = min(least, paid)
		}
		if cut {
			break
		}
		markEdge(&t.Note, g, e, least)
		if least > bestPaid {
			best, bestPaid = e, least
		}
	}
	if bestPaid >= 0 {
		t.Note.Text = fmt.Sprintf("raising %s-%s: the player would pay %s more", g.IDs[g.Edges[best].A], g.IDs[g.Edges[best].B], trimFloat(bestPaid))
	}
	return best
}

// playOut plays sim out for rolloutSteps of the player's steps, the
// adversary raising greedily and the player following its cheapest path
// or, when dodges, the cheapest route at most one hop longer than the
// shortest (a player that sidesteps raises instead of taking long
// detours), then the rest at the costs reached, and returns what the
// player pays; false when the budget ran out first (a play-out cut short
// would look cheap for being short).
func (b *bot) playOut(t *match.Turn, g *Graph, sim Round, pm playerModel, am adversaryModel) (float64, bool) {
	paid := 0.0
	for steps := 0; sim.Pos != g.Y && steps < rolloutSteps; {
		if sim.Turn == Adversary {
			e := -1
			if am == onTheirRoute {
				e = b.routeRaise(t, g, &sim, pm)
			} else {
				e = b.modelRaise(t, g, &sim, am)
			}
			if e >= 0 {
				sim.Raise(e)
			}
			sim.Turn = Player
			continue
		}
		to := b.modelStep(t, g, &sim, pm)
		e, ok := g.EdgeBetween(sim.Pos, to)
		if !ok || math.IsInf(sim.Costs()[e], 1) {
			return math.Inf(1), t.Spend(0)
		}
		n := Arc{to, e}
		paid += sim.Costs()[n.Edge]
		sim.Pos, sim.Turn = n.To, Adversary
		steps++
		if sim.Pos != g.Y && !t.Spend(0) {
			return 0, false
		}
	}
	if sim.Pos != g.Y {
		t.Spend(int64(b.spare.Compute(g, sim.Costs())))
		paid += b.spare.Dist[sim.Pos]
	}
	return paid, t.Spend(0)
}
