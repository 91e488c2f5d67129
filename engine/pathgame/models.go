package pathgame

import "github.com/arena-playground/arena/engine/match"

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
	adversaryModels
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
	}
	return snakeRaise(&b.model, g, sim)
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
