package evasion

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// The reference bots are honest versions of what the course's students
// built (rules §11): a student can train against the course's best ideas.
// Each pairs a hunter with a prey, as a student's program played both
// roles; none looks at the clock or the random source, so each plays the
// same from the same state.
func referenceBots() []match.BotInfo {
	pair := func(name, desc string, h func() hunterPlan, p func() preyPlan) match.BotInfo {
		return match.BotInfo{Name: name, Description: desc,
			New: func(match.Options) (match.Bot, error) { return &reference{hunter: h(), prey: p()}, nil }}
	}
	return []match.BotInfo{
		pair("box", "reference: hunter shrinks the prey's bounding box by half or more with each cut (herbertli's HalfHunter); prey walks to the centroid of its region (herbertli's CentroidPrey)",
			func() hunterPlan { return &boxHunter{} }, func() preyPlan { return &centroidPrey{} }),
		pair("bfs", "reference: hunter scores all four walls by a BFS of the prey's area, the prey reachable (samarthtambad's 2020 player); prey simulates the hunter and steps where it survives longest, assuming walls between them deleted (desertfoxes' findSurvivalMove)",
			func() hunterPlan { return &bfsHunter{} }, func() preyPlan { return &simPrey{horizon: 20} }),
		pair("shadow", "reference: hunter lays a diagonal across its path 2 to 4 columns from the prey, then horizontal walls as it moves off (a 2020 student's program); prey walks toward the hunter and, within a dozen cells, keeps beside it off its diagonal",
			func() hunterPlan { return &diagonalHunter{} }, func() preyPlan { return &shadowPrey{} }),
		match.Mix([2]string{"hunter", "prey"},
			func(t *match.Turn) bool { return t.State.(State).Hunter() == t.Side },
			func() []match.BotInfo { return Game{}.Bots() }),
	}
}

// hunterPlan and preyPlan are one role's strategy.
type hunterPlan interface {
	hunt(t *match.Turn, s State, f *Field) Action
}

type preyPlan interface {
	flee(t *match.Turn, s State, f *Field) Action
}

// reference plays a hunter plan and a prey plan.
type reference struct {
	hunter hunterPlan
	prey   preyPlan
}

func (b *reference) Act(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	f := s.Field()
	if s.Hunter() == t.Side {
		return b.hunter.hunt(t, s, &f), nil
	}
	if f.Tick%2 == 0 {
		return PreyAction(s, 0, 0), nil // the prey moves on odd ticks only
	}
	return b.prey.flee(t, s, &f), nil
}

// unfencing returns the indices of the walls that no longer border the
// prey's region: every reference hunter deletes them, as free.
func unfencing(f *Field, reg *Region) []int {
	var del []int
	for i := range f.Walls() {
		if !reg.Borders(&f.Walls()[i]) {
			del = append(del, i)
		}
	}
	return del
}

// ready reports whether a wall can be built this tick after deleting del.
func ready(f *Field, del []int) bool {
	return f.Timer <= 0 && len(f.Walls())-len(del) < f.MaxWalls
}

// cutArea plays the tick with the wall on a copy and returns the prey's
// area after it, and whether the wall stood with the hunter still in the
// prey's region (or the tick captured).
func cutArea(t *match.Turn, f *Field, kind Kind, del []int) (int, bool) {
	_, a, ok := cutPlay(t, f, kind, del)
	return a, ok
}

// cutPlay is cutArea that also returns the copy after the tick.
func cutPlay(t *match.Turn, f *Field, kind Kind, del []int) (Field, int, bool) {
	g := f.Fork()
	n := len(g.Walls())
	if g.Step(HunterMove{Build: kind, Delete: del}, PreyMove{}) {
		return g, 0, true
	}
	if len(g.Walls()) != n-countValid(del, n)+1 {
		return g, 0, false
	}
	var r Region
	r.Fill(&g, g.Prey)
	t.Spend(int64(r.Area))
	return g, r.Area, r.Has(g.Hunter.X, g.Hunter.Y)
}

// boxHunter builds a horizontal or vertical wall through its line when
// the cut leaves the prey at most half of its bounding box: herbertli's
// HalfHunter, which reasons on the rectangle of walls around the prey.
type boxHunter struct{ regionCache }

func (h *boxHunter) hunt(t *match.Turn, s State, f *Field) Action {
	reg := h.region(t, f)
	del := unfencing(f, reg)
	if !ready(f, del) {
		return HunterAction(s, NoWall, del...)
	}
	box := Box{reg.Min, reg.Max}
	kind, area := bestCut(f, f.Hunter, f.HunterVel, f.Prey, box)
	if kind == NoWall || 2*area > box.area() {
		return HunterAction(s, NoWall, del...)
	}
	if _, ok := cutArea(t, f, kind, del); !ok {
		return HunterAction(s, NoWall, del...)
	}
	t.Note.Text = fmt.Sprintf("box %d cells; %s cut leaves %d", box.area(), kind, area)
	return HunterAction(s, kind, del...)
}

// bfsHunter tries each of the four walls on a copy of the field and
// builds the one that leaves the prey the least area, the prey still
// reachable, when it takes at least a tenth of the area away.
type bfsHunter struct{ regionCache }

func (h *bfsHunter) hunt(t *match.Turn, s State, f *Field) Action {
	reg := h.region(t, f)
	del := unfencing(f, reg)
	if !ready(f, del) {
		return HunterAction(s, NoWall, del...)
	}
	best, bestArea := leastCut(t, f, del, reg.Area, nil, func(kind Kind, a int) { markCut(t, f, kind, a) })
	if best == NoWall || 10*bestArea > 9*reg.Area {
		return HunterAction(s, NoWall, del...)
	}
	t.Note.Text = fmt.Sprintf("region %d cells; %s cut leaves %d", reg.Area, best, bestArea)
	return HunterAction(s, best, del...)
}

// diagonalHunter opens with a diagonal wall across its path when it is 2
// to 4 columns from the prey, then builds horizontal walls (vertical ones
// when no horizontal one can) as it moves away from the prey, each kept
// only if the prey's area shrinks and the hunter stays with it.
type diagonalHunter struct{ regionCache }

func (h *diagonalHunter) hunt(t *match.Turn, s State, f *Field) Action {
	reg := h.region(t, f)
	del := unfencing(f, reg)
	if !ready(f, del) {
		return HunterAction(s, NoWall, del...)
	}
	v, dx, dy := f.HunterVel, f.Prey.X-f.Hunter.X, f.Prey.Y-f.Hunter.Y
	var kinds []Kind
	switch {
	case abs(dx) >= 2 && abs(dx) <= 4:
		kinds = []Kind{Diagonal}
		if v.X == v.Y {
			kinds[0] = Counterdiagonal // across a "/" path
		}
	case v.X*dx < 0 || v.Y*dy < 0: // moving away from the prey
		kinds = []Kind{Horizontal, Vertical}
	}
	for _, kind := range kinds {
		if !t.Spend(0) {
			break
		}
		if a, ok := cutArea(t, f, kind, del); ok && a < reg.Area {
			t.Note.Text = fmt.Sprintf("region %d cells; %s cut leaves %d", reg.Area, kind, a)
			return HunterAction(s, kind, del...)
		}
	}
	return HunterAction(s, NoWall, del...)
}

// centroidPrey steps toward the centroid of its region.
type centroidPrey struct{ regionCache }

func (p *centroidPrey) flee(t *match.Turn, s State, f *Field) Action {
	c := p.region(t, f).Centroid()
	best := bestStep(f, func(_, to Point) int { return -dist2(to, c) })
	return PreyAction(s, best.X, best.Y)
}

// simPrey simulates the hunter ahead (building nothing), marks every cell
// within 4 of it deadly whatever walls stand between (the hunter could
// delete them), and takes the step that survives longest; among equals it
// heads for the centre of its region's bounding box, the cells farthest
// from future walls.
type simPrey struct {
	horizon int
	regionCache
	lookahead
}

func (p *simPrey) flee(t *match.Turn, s State, f *Field) Action {
	reg := p.region(t, f)
	centre := Point{(reg.Min.X + reg.Max.X) / 2, (reg.Min.Y + reg.Max.Y) / 2}
	var safe [3][3]int
	if near(f.Hunter, f.Prey, p.horizon+6) {
		safe = p.survival(t, f, p.horizon, func(h, q Point) bool { return dist2(h, q) <= 16 })
	}
	best := bestStep(f, func(d, to Point) int {
		return safe[d.Y+1][d.X+1]<<40 - dist2(to, centre)
	})
	return PreyAction(s, best.X, best.Y)
}

// shadowPrey walks toward the hunter while it is far, and within a dozen
// cells steps off the hunter's diagonal and stays beside it, where the
// walls the hunter builds behind itself cannot box the prey in. It never
// steps where the hunter, running on, catches it within a few ticks.
type shadowPrey struct{ lookahead }

func (p *shadowPrey) flee(t *match.Turn, s State, f *Field) Action {
	safe := p.survival(t, f, 8, f.Captures)
	far := !near(f.Hunter, f.Prey, 12)
	best := bestStep(f, func(d, to Point) int {
		return safe[d.Y+1][d.X+1]<<20 + shadowScore(f, to, far)
	})
	return PreyAction(s, best.X, best.Y)
}

// shadowScore scores the prey's cell to: toward the hunter while it is
// far, beside it and off its diagonal when near.
func shadowScore(f *Field, to Point, far bool) int {
	return shadowScoreAt(f.Hunter, f.HunterVel, to, far)
}

// shadowScoreAt is shadowScore with the hunter at h going by v: what the
// strong hunter foretells a shadowing prey by.
func shadowScoreAt(h, v, to Point, far bool) int {
	if far {
		return -dist2(to, h)
	}
	return 16*min(lineDistance(h, v, to), 8) - abs(dist2(to, h)-49)
}

// bestStep returns the prey's step (dx, dy) whose cell scores highest;
// ties go to the first in reading order, so a plan plays the same every
// time.
func bestStep(f *Field, score func(step, to Point) int) Point {
	best, bestScore := Point{}, 0
	first := true
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			to, _ := f.Move(f.Prey, Point{dx, dy})
			if sc := score(Point{dx, dy}, to); first || sc > bestScore {
				best, bestScore, first = Point{dx, dy}, sc, false
			}
		}
	}
	return best
}
