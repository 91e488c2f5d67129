package pathgame

import (
	"fmt"
	"math"

	"github.com/arena-playground/arena/engine/match"
)

// The reference bots are honest versions of the course teams' ideas
// (rules §9): a student can train against them. Each plays both roles.
func referenceBots() []match.BotInfo {
	return []match.BotInfo{
		{Name: "choke", Description: "reference, the 2017 BabySnakes team as its write-up tells it (§9): player takes the cheapest route at most one hop longer than the shortest, ties to the step with most shortest routes on; adversary raises the path edge that stacked raises push up most before the player arrives, times 5 on a choke point of those routes",
			New: func(match.Options) (match.Bot, error) {
				return &reference{player: nearShort, adversary: chokeRaise}, nil
			}},
		{Name: "babysnakes", Description: "reference, the 2017 BabySnakes team's code ported: player takes the cheapest route of fewest hops at the costs it knows (cut to ints), then among those as cheap the step with most such routes on; adversary scores each edge of that route by cost·(f^j−1) for the j raises before the player gets there, times 5 when every such route within 1 of the cheapest shares it, plus the best score of the route on from it (their max_Penalty)",
			New: func(match.Options) (match.Bot, error) {
				return &reference{player: snakeStep, adversary: snakeRaise}, nil
			}},
		{Name: "raiser", Description: "reference (desertfoxes 2017): player follows the cheapest path; adversary raises the path edge (not the one at Y) that can be pushed up most, raise after raise until it leaves the cheapest path or the player arrives",
			New: func(match.Options) (match.Bot, error) {
				return &reference{player: cheapestStep, adversary: pushRaise}, nil
			}},
		match.Mix([2]string{"player", "adversary"},
			func(t *match.Turn) bool { return t.State.(State).RoleOf(t.Side) == Player },
			func() []match.BotInfo { return Game{}.Bots() }),
	}
}

// reference plays a player plan and an adversary plan; both return a
// node (the step) or an edge (the raise).
type reference struct {
	player, adversary func(w *work, g *Graph, r *Round) int
	w                 work
}

// work is a reference bot's reusable memory.
type work struct {
	t       *match.Turn
	paths   Paths
	repl    Replacement
	byHops  []int // the nodes in order of hops to Y, built once per graph
	forGame *Graph
	tight   []float64 // cheapest cost on to Y by steps that each near Y by a hop
	slack   []float64 // the same, allowed one step that keeps its distance
	count   []float64 // shortest routes on to Y (a float: counts grow fast)
	reach   [2][]bool
	snake   snake // the BabySnakes port's tables
	silent  bool  // strong's models: no notes
}

// say sets the move's note, unless the plan runs in strong's head.
func (w *work) say(format string, args ...any) {
	if !w.silent {
		w.t.Note.Text = fmt.Sprintf(format, args...)
	}
}

func (b *reference) Act(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	r := s.Round()
	b.w.t = t
	if s.RoleOf(t.Side) == Player {
		return Move(s.g, r.Pos, b.player(&b.w, s.g, &r)), nil
	}
	return RaiseEdge(s.g, b.adversary(&b.w, s.g, &r)), nil
}

// cheapestStep follows the cheapest path at today's costs.
func cheapestStep(w *work, g *Graph, r *Round) int {
	w.t.Spend(int64(w.paths.Compute(g, r.Costs())))
	if next := w.paths.Next[r.Pos]; next.Edge >= 0 {
		return next.To
	}
	return nearer(g, r.Pos)
}

// order sorts the nodes by hops to Y (a bucket sort), once per graph.
func (w *work) order(g *Graph) {
	if w.forGame == g {
		return
	}
	w.forGame = g
	w.byHops = w.byHops[:0]
	buckets := make([][]int, 0, 16)
	for v, h := range g.Hops {
		if h == Unreachable {
			continue
		}
		for int64(len(buckets)) <= h {
			buckets = append(buckets, nil)
		}
		buckets[h] = append(buckets[h], v)
	}
	for _, b := range buckets {
		w.byHops = append(w.byHops, b...)
	}
	n := g.N()
	w.tight, w.slack, w.count = make([]float64, n), make([]float64, n), make([]float64, n)
	w.reach = [2][]bool{make([]bool, n), make([]bool, n)}
}

// nearShort is the BabySnakes player: among the routes at most one hop
// longer than the shortest, the cheapest at today's costs. Such a route
// is a run of steps that each near Y by a hop, with at most one step
// that keeps its distance (a step away would cost two hops), so two
// costs per node, filled in order of distance, find it without listing
// the routes. Ties go to the step with the most shortest routes on.
func nearShort(w *work, g *Graph, r *Round) int {
	if g.Hops[r.Pos] == Unreachable {
		return nearer(g, r.Pos)
	}
	w.order(g)
	// Two passes: a step that keeps its distance reaches a node of the
	// same distance, whose tight cost the first pass has settled.
	costs := r.Costs()
	scanned := 0
	for _, v := range w.byHops {
		w.tight[v], w.count[v] = math.Inf(1), 0
		if v == g.Y {
			w.tight[v], w.count[v] = 0, 1
			continue
		}
		for _, a := range g.Arcs(v) {
			if g.Hops[a.To] == g.Hops[v]-1 {
				w.tight[v] = min(w.tight[v], costs[a.Edge]+w.tight[a.To])
				w.count[v] += w.count[a.To]
			}
		}
		scanned += len(g.Arcs(v))
	}
	for _, v := range w.byHops {
		w.slack[v] = w.tight[v]
		for _, a := range g.Arcs(v) {
			switch g.Hops[a.To] - g.Hops[v] {
			case -1:
				w.slack[v] = min(w.slack[v], costs[a.Edge]+w.slack[a.To])
			case 0:
				w.slack[v] = min(w.slack[v], costs[a.Edge]+w.tight[a.To])
			}
		}
		scanned += len(g.Arcs(v))
	}
	w.t.Spend(int64(scanned))
	best, bestCost, bestCount := -1, math.Inf(1), -1.0
	for _, a := range g.Arcs(r.Pos) {
		var rest float64
		switch g.Hops[a.To] - g.Hops[r.Pos] {
		case -1:
			rest = w.slack[a.To]
		case 0:
			rest = w.tight[a.To]
		default:
			continue
		}
		c := costs[a.Edge] + rest
		if best < 0 || c < bestCost || c == bestCost && w.count[a.To] > bestCount {
			best, bestCost, bestCount = a.To, c, w.count[a.To]
		}
	}
	if best < 0 {
		return nearer(g, r.Pos)
	}
	w.say("cheapest near-shortest route %s", trimFloat(bestCost))
	return best
}

// chokeLook is how many edges of the cheapest path the choke-point
// adversary scores: a course graph's path is under ten edges, and on a
// 5,000-node path the far edges' stacked raises overflow anyway.
const chokeLook = 64

// chokeRaise is the BabySnakes adversary: each edge of the player's
// cheapest path, j edges ahead, scores what j+1 stacked raises add to it,
// times 5 when every route at most one hop longer than the shortest
// passes through it (a choke point); it raises the top score.
func chokeRaise(w *work, g *Graph, r *Round) int {
	w.t.Spend(int64(w.paths.Compute(g, r.Costs())))
	path := w.paths.Path(r.Pos)
	if len(path) == 0 {
		return 0
	}
	w.order(g)
	best, bestScore := path[0].Edge, -1.0
	for j, a := range path[:min(len(path), chokeLook)] {
		c := r.Costs()[a.Edge]
		score := c * (math.Pow(g.Factor(a.Edge, r.UseMax), float64(j+1)) - 1)
		if w.choke(g, r.Pos, a.Edge) {
			score *= 5
		}
		if score > bestScore {
			best, bestScore = a.Edge, score
		}
	}
	w.say("raising %s-%s: score %s", g.IDs[g.Edges[best].A], g.IDs[g.Edges[best].B], trimFloat(bestScore))
	return best
}

// choke reports whether every route from pos at most one hop longer than
// the shortest uses edge e: with e gone, no such route is left. Routes of
// the graph without e that short are among the routes of the graph, so
// the same two-state walk as nearShort's decides it.
func (w *work) choke(g *Graph, pos, e int) bool {
	tight, slack := w.reach[0], w.reach[1]
	scanned := 0
	for _, v := range w.byHops {
		tight[v] = v == g.Y
		for _, a := range g.Arcs(v) {
			if a.Edge != e && g.Hops[a.To] == g.Hops[v]-1 {
				tight[v] = tight[v] || tight[a.To]
			}
		}
		scanned += len(g.Arcs(v))
	}
	for _, v := range w.byHops {
		slack[v] = tight[v]
		for _, a := range g.Arcs(v) {
			if a.Edge == e || v == g.Y {
				continue
			}
			switch g.Hops[a.To] - g.Hops[v] {
			case -1:
				slack[v] = slack[v] || slack[a.To]
			case 0:
				slack[v] = slack[v] || tight[a.To]
			}
		}
		scanned += len(g.Arcs(v))
	}
	w.t.Spend(int64(scanned))
	return !slack[pos]
}

// pushRaise is desertfoxes' smartGuyuAdversary: each edge of the cheapest
// path but the one at Y is raised in thought, raise after raise, until it
// leaves the cheapest path or the player, j edges ahead, would reach it
// (j+1 raises); it raises the edge pushed up most.
func pushRaise(w *work, g *Graph, r *Round) int {
	w.t.Spend(int64(w.repl.Compute(g, r.Costs(), r.Pos)))
	path := w.repl.Path
	if len(path) == 0 {
		return 0
	}
	best, bestPush := path[0].Edge, -1.0
	for j, a := range path {
		if a.To == g.Y || g.Edges[a.Edge].A == g.Y || g.Edges[a.Edge].B == g.Y {
			continue
		}
		c0 := r.Costs()[a.Edge]
		slack := w.repl.Avoid[j] - w.repl.Base // what it may rise and stay on the path
		c, f := c0, g.Factor(a.Edge, r.UseMax)
		for range j + 1 {
			c *= f
			if c-c0 > slack || math.IsInf(c, 1) {
				break
			}
		}
		if push := c - c0; push > bestPush {
			best, bestPush = a.Edge, push
		}
	}
	w.say("raising %s-%s: pushed up by %s", g.IDs[g.Edges[best].A], g.IDs[g.Edges[best].B], trimFloat(bestPush))
	return best
}
