package pathgame

import (
	"github.com/arena-playground/arena/engine/match"
)

// strong plays its games out in its head against models of the other
// side: the kinds of player and adversary the course's teams wrote. It
// watches each of the other side's moves, counts the models that foretold
// it, and plays out against every model that has foretold the most so far
// (all of them before the first move tells them apart): its adversary
// keeps the raise that costs the player most against the least hurt of
// those players, its player the step that costs least against the most
// harmful of those adversaries. A raise that hurts only one predicted
// walk loses to one where the routes the player cannot avoid meet; a
// detour that pays only if the adversary does not follow loses to the
// raised edge.

// playerModel is a kind of player.
type playerModel int8

const (
	keepsNear       playerModel = iota // choke's: the cheapest route at most one hop longer than the shortest
	fewestHops                         // babysnakes': the cheapest route of fewest hops, costs cut to ints
	followsCheapest                    // greedy's and raiser's: the cheapest path
	playerModels
)

// adversaryModel is a kind of adversary.
type adversaryModel int8

const (
	raisesGreedily adversaryModel = iota // greedy's: the raise that lengthens the cheapest path most
	pushesUp                             // raiser's: the edge pushed up most until it would leave the path
	scoresPenalty                        // babysnakes': stacked raises, choke points, max_Penalty
	stacksOnChokes                       // choke's: stacked raises, times 5 on a choke point of near-shortest routes
	adversaryModels
	// onTheirRoute is not a model of the other side but strong's own
	// adversary in its play-outs against a player that keeps to its
	// fewest-hop routes: see routeRaise.
	onTheirRoute
)

// modelStep is where a player of kind m steps from sim.
func (b *bot) modelStep(t *match.Turn, g *Graph, sim *Round, m playerModel) int {
	b.model.t, b.model.silent = t, true
	switch m {
	case keepsNear:
		return nearShort(&b.model, g, sim)
	case fewestHops:
		return snakeStep(&b.model, g, sim)
	}
	return cheapestStep(&b.model, g, sim)
}

// modelRaise is the edge an adversary of kind m raises in sim, -1 for
// none (greedy's, when no raise lengthens the path).
func (b *bot) modelRaise(t *match.Turn, g *Graph, sim *Round, m adversaryModel) int {
	b.model.t, b.model.silent = t, true
	switch m {
	case raisesGreedily:
		return b.greedyRaise(t, g, sim)
	case pushesUp:
		return pushRaise(&b.model, g, sim)
	case stacksOnChokes:
		return chokeRaise(&b.model, g, sim)
	}
	return snakeRaise(&b.model, g, sim)
}

// routeRaise raises the edge of the walk a player of kind m would take
// from sim at today's costs whose raise adds most. Greedy's raise, which
// counts only what the cheapest path would pay, sees nothing to gain
// where the cheapest path has a twin the player will not take: a route a
// hop longer for choke's player, any other route for BabySnakes'.
func (b *bot) routeRaise(t *match.Turn, g *Graph, sim *Round, m playerModel) int {
	best, bestGain := -1, 0.0
	b.walk(t, g, sim, m, func(e int) {
		if gain := sim.Costs()[e] * (g.Factor(e, sim.UseMax) - 1); gain > bestGain {
			best, bestGain = e, gain
		}
	})
	return best
}

// walk calls visit with each edge a player of kind m would take from r
// at today's costs, for up to rolloutSteps steps.
func (b *bot) walk(t *match.Turn, g *Graph, r *Round, m playerModel, visit func(e int)) {
	sim := *r
	for range rolloutSteps {
		if sim.Pos == g.Y {
			return
		}
		to := b.modelStep(t, g, &sim, m)
		e, _ := g.EdgeBetween(sim.Pos, to)
		visit(e)
		sim.Pos = to
	}
}

// watch scores the player models on the step the player just took from
// where the adversary's last raise left it.
func (b *bot) watch(t *match.Turn, g *Graph, r *Round) {
	if !b.seen { // the player's first step, from X at the starting costs
		b.after, b.seen = NewRound(g, r.UseMax), true
	}
	for m := range playerModels {
		if b.modelStep(t, g, &b.after, m) == r.Pos {
			b.hits[m]++
		}
	}
}

// watchRaise scores the adversary models on the raise the adversary just
// made after the player's last step.
func (b *bot) watchRaise(t *match.Turn, g *Graph, r *Round) {
	if !b.steps {
		return
	}
	before := &b.stepped
	raised := -1
	for e, c := range r.Costs() {
		if c != before.Costs()[e] {
			raised = e
			break
		}
	}
	if raised < 0 {
		return
	}
	for m := range adversaryModels {
		if b.modelRaise(t, g, before, m) == raised {
			b.raises[m]++
		}
	}
}

// likely returns the models that foretold the most moves (all of them
// before any move).
func likely[M ~int8](hits []int) []M {
	top := 0
	for _, h := range hits {
		top = max(top, h)
	}
	var out []M
	for m, h := range hits {
		if h == top {
			out = append(out, M(m))
		}
	}
	return out
}
