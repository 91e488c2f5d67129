package evasion

import (
	"fmt"
	"slices"
	"sync"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the built-in players. Each plays both roles: the session
// makes it the hunter in one game and the prey in the other.
func (Game) Bots() []match.BotInfo {
	return append([]match.BotInfo{
		{Name: "random", Description: "the course's sample player, kept legal: a random wall now and then, random prey steps",
			New: func(match.Options) (match.Bot, error) { return match.BotFunc(randomAct), nil }},
		{Name: "greedy", Description: "hunter: the wall that most shrinks the prey's region, at once; prey: heads for the centre of its region, off the hunter's line",
			Marks: "hunter: walls through its cell, by the cells of the prey's region a wall leaves (negated: fewer is better); prey: steps, by the score it chose by",
			New:   func(match.Options) (match.Bot, error) { return &player{}, nil }},
		{Name: "strong", Description: "hunter: times each cut to close the box around the prey, foretelling a prey that keeps alongside; takes down its newest wall when the region stops shrinking; prey: simulates the hunter ahead and keeps out of its reach",
			Marks: "hunter: walls through its cell, by the cells of the prey's region a wall leaves (negated: fewer is better); prey: steps, by the ticks it survives after the step when the hunter is near, else the score it chose by",
			Options: []match.OptionInfo{{Name: "horizon", Description: "ticks the prey looks ahead (default 24)"},
				{Name: "look", Description: "ticks the hunter looks ahead for a better cut (default 12)"}},
			New: func(o match.Options) (match.Bot, error) {
				h, err := o.Int("horizon", 24)
				if err != nil || h < 2 || h > 200 {
					return nil, fmt.Errorf("option horizon: want 2 to 200 ticks")
				}
				look, err := o.Int("look", 12)
				if err != nil || look < 0 || look > 600 {
					return nil, fmt.Errorf("option look: want 0 to 600 ticks")
				}
				return &player{strong: true, horizon: h, look: look}, nil
			}},
	}, referenceBots()...)
}

// randomAct plays like the course's sample client: the hunter asks for a
// random wall one tick in ten and deletes a random wall when the list is
// full; the prey steps at random.
func randomAct(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	f := s.Field()
	if s.Hunter() != t.Side {
		return PreyAction(s, t.Rand.IntN(3)-1, t.Rand.IntN(3)-1), nil
	}
	kind := NoWall
	if t.Rand.IntN(10) == 0 {
		kind = Kind(t.Rand.IntN(4))
	}
	var del []int
	if n := len(f.Walls()); n > 0 && n >= f.MaxWalls && t.Rand.IntN(2) == 0 {
		del = append(del, t.Rand.IntN(n))
	}
	return HunterAction(s, kind, del...), nil
}

// player is the greedy and the strong bot, in either role. It keeps the
// prey's region between ticks and fills it again only when the walls
// change.
type player struct {
	strong  bool
	horizon int
	look    int // ticks the hunter looks ahead for a better cut
	regionCache
	foresight
	lookahead
}

// regionCache keeps the prey's region between ticks and fills it again
// only when the walls change or the prey leaves it.
type regionCache struct {
	reg      Region
	regWalls []Wall
	regOK    bool
	gen      int // counts the fills, for what is computed from a region
}

func (p *player) Act(t *match.Turn) (match.Action, error) {
	s := t.State.(State)
	f := s.Field()
	if s.Hunter() == t.Side {
		return p.hunt(t, s, &f), nil
	}
	return p.flee(t, s, &f), nil
}

// region returns the prey's region in f, filled again when the walls
// changed or the prey left it.
func (p *regionCache) region(t *match.Turn, f *Field) *Region {
	if !p.regOK || !slices.Equal(p.regWalls, f.Walls()) || !p.reg.Has(f.Prey.X, f.Prey.Y) {
		lastRegion.fill(&p.reg, f)
		t.Spend(int64(p.reg.Area)) // as if filled here: budgets stay the same
		p.regWalls, p.regOK = slices.Clone(f.Walls()), true
		p.gen++
	}
	return &p.reg
}

// lastRegion is the last region any bot filled, for the bots of other
// sides and matches that need the same one (the hunter and the prey of a
// tick both do): a region depends only on the walls and on which of
// their pockets holds the prey.
var lastRegion sharedRegion

type sharedRegion struct {
	mu    sync.Mutex
	walls []Wall
	reg   Region
	ok    bool
}

// fill sets r to f's prey region, copied from the last one when it is the
// same.
func (s *sharedRegion) fill(r *Region, f *Field) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ok && slices.Equal(s.walls, f.Walls()) && s.reg.Has(f.Prey.X, f.Prey.Y) {
		r.copyFrom(&s.reg)
		return
	}
	r.Fill(f, f.Prey)
	s.reg.copyFrom(r)
	s.walls, s.ok = append(s.walls[:0], f.Walls()...), true
}

// hunt deletes the walls that no longer fence the prey's region, and
// builds a horizontal or vertical wall behind the hunter as it closes on
// the prey. Greedy builds the best cut as soon as it can; strong looks
// along the hunter's path and waits when a later cut leaves the prey much
// less room (where the prey will be then foretold when it keeps alongside
// the hunter), and takes down its newest wall when the region has not
// changed for long (the hunter's path then misses the prey's corner).
func (p *player) hunt(t *match.Turn, s State, f *Field) Action {
	reg := p.region(t, f)
	del := unfencing(f, reg)
	if p.strong {
		p.watch(f, reg)
		if p.stalled(f, reg, p.gen) {
			if i := newestFence(f, reg, del); i >= 0 {
				t.Note.Text = fmt.Sprintf("region %d cells unchanged too long; wall %d taken down", reg.Area, i)
				return HunterAction(s, NoWall, append(del, i)...)
			}
		}
	}
	if f.Timer > 0 {
		t.Note.Text = fmt.Sprintf("region %d cells; waiting for the cooldown", reg.Area)
		return HunterAction(s, NoWall, del...)
	}
	if p.strong {
		return p.cut(t, s, f, reg, del)
	}
	if len(f.Walls())-len(del) >= f.MaxWalls {
		t.Note.Text = fmt.Sprintf("region %d cells; no wall left to build", reg.Area)
		return HunterAction(s, NoWall, del...)
	}
	box := Box{reg.Min, reg.Max}
	kind, area := bestCut(f, f.Hunter, f.HunterVel, f.Prey, box)
	for k, a := range cutAreas(f, f.Hunter, f.HunterVel, f.Prey, box) {
		if a > 0 {
			markCut(t, f, Kind(k), a)
		}
	}
	if kind == NoWall || area >= reg.Area {
		t.Note.Text = fmt.Sprintf("region %d cells; no cut shrinks it", reg.Area)
		return HunterAction(s, NoWall, del...)
	}
	if _, ok := cutArea(t, f, kind, del); !ok {
		t.Note.Text = fmt.Sprintf("region %d cells; a %s cut would shut the hunter out", reg.Area, kind)
		return HunterAction(s, NoWall, del...)
	}
	t.Note.Text = fmt.Sprintf("region %d cells; %s cut leaves %d", reg.Area, kind, area)
	return HunterAction(s, kind, del...)
}

// cut is the strong hunter's build: every wall type, built as it stands
// or, when the walls are at their cap, in place of one of them (a side
// replaced by a tighter one), scored by the prey's area after it with the
// hunter still inside. It builds the best when it takes at least a tenth
// of the area away, unless the hunter's path brings a much better cut
// within a few ticks.
func (p *player) cut(t *match.Turn, s State, f *Field, reg *Region, del []int) Action {
	best, bestDel, bestArea := NoWall, del, reg.Area
	least := map[Kind]int{} // each wall's least room, for the marks
	seen := func(kind Kind, a int) {
		if l, ok := least[kind]; !ok || a < l {
			least[kind] = a
		}
	}
	defer func() {
		for kind := Horizontal; kind <= Counterdiagonal; kind++ {
			if a, ok := least[kind]; ok {
				markCut(t, f, kind, a)
			}
		}
	}()
	try := func(d []int) {
		if kind, a := leastCut(t, f, d, bestArea, free, seen); kind != NoWall {
			best, bestDel, bestArea = kind, d, a
		}
	}
	if ready(f, del) {
		try(del)
	} else {
		for _, i := range nearestWalls(f, del, maxReplaced) {
			try(append(slices.Clone(del), i))
		}
	}
	if best == NoWall || 10*bestArea > 9*reg.Area {
		t.Note.Text = fmt.Sprintf("region %d cells; no cut takes a tenth of it", reg.Area)
		return HunterAction(s, NoWall, del...)
	}
	if p.model() == shadowing {
		// A prey that keeps beside the hunter comes along: the cut that
		// takes its room down fastest may be a few ticks ahead.
		if k, later := p.later(f, reg, p.gen, shadowing, p.look, max(f.Delay, 1), bestArea); k > 0 {
			t.Spend(int64(p.look))
			t.Note.Text = fmt.Sprintf("region %d cells; waiting %d ticks for a cut to %d, the prey alongside", reg.Area, k, later)
			return HunterAction(s, NoWall, del...)
		}
	} else if later, k := p.laterCut(t, f, Box{reg.Min, reg.Max}); later*10 < bestArea*7 {
		t.Note.Text = fmt.Sprintf("region %d cells; waiting %d ticks for a cut to %d", reg.Area, k, later)
		return HunterAction(s, NoWall, del...)
	}
	t.Note.Text = fmt.Sprintf("region %d cells; %s cut leaves %d", reg.Area, best, bestArea)
	return HunterAction(s, best, bestDel...)
}

// Box is a rectangle of cells, corners included.
type Box struct{ Min, Max Point }

// bestCut returns the horizontal or vertical wall through anchor (the
// hunter at h with velocity v) that leaves the prey at prey the least
// room in the rectangle box, with the hunter on the prey's side after its
// move; NoWall when neither can. The region is taken as the rectangle,
// which it is while every wall is horizontal or vertical.
func bestCut(f *Field, h, v, prey Point, box Box) (Kind, int) {
	best, bestArea := NoWall, box.area()
	for kind, a := range cutAreas(f, h, v, prey, box) {
		if a > 0 && a < bestArea {
			best, bestArea = Kind(kind), a
		}
	}
	return best, bestArea
}

// cutAreas is the room a horizontal and a vertical wall through the
// hunter would leave the prey in box (see bestCut); 0 for a cut that
// cannot be made.
func cutAreas(f *Field, h, v, prey Point, box Box) [2]int {
	next, _ := f.Move(h, v)
	var areas [2]int
	// A horizontal wall takes row h.Y and keeps the prey's side of the
	// box's rows; a vertical one the same across columns.
	if lines, ok := cutSide(h.Y, next.Y, prey.Y, box.Min.Y, box.Max.Y); ok {
		areas[Horizontal] = (box.Max.X - box.Min.X + 1) * lines
	}
	if lines, ok := cutSide(h.X, next.X, prey.X, box.Min.X, box.Max.X); ok {
		areas[Vertical] = (box.Max.Y - box.Min.Y + 1) * lines
	}
	return areas
}

// markCut marks a wall the hunter weighed: built through its cell, in the
// wall's direction, valued by the room it leaves the prey (less is
// better for the hunter).
func markCut(t *match.Turn, f *Field, kind Kind, area int) {
	t.Note.Mark(match.AtMove(f.Hunter.Y, f.Hunter.X, int(kind)), -float64(area), "")
}

// cutSide is a cut at coordinate at, along one axis of a box spanning lo
// to hi: the lines left on the prey's side, and whether the cut can be
// made with the hunter (moving to next) on that side too.
func cutSide(at, next, prey, lo, hi int) (int, bool) {
	if next == at || prey == at || (next > at) != (prey > at) || at < lo || at > hi {
		return 0, false
	}
	if prey > at {
		return hi - at, true
	}
	return at - lo, true
}

func (b Box) area() int { return (b.Max.X - b.Min.X + 1) * (b.Max.Y - b.Min.Y + 1) }

// laterCut follows the hunter's path (no walls built) for up to p.look
// ticks and returns the least room a cut would leave later, counting that
// the prey may walk k/2 cells away from the cut meanwhile, and after how
// many ticks.
func (p *player) laterCut(t *match.Turn, f *Field, box Box) (int, int) {
	h, v := f.Hunter, f.HunterVel
	best, when := box.area(), 0
	span := max(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y) + 1
	for k := 1; k <= p.look; k++ {
		h, v = f.Move(h, v)
		if _, a := bestCut(f, h, v, f.Prey, box); a+k/2*span < best {
			best, when = a+k/2*span, k
		}
	}
	t.Spend(int64(p.look))
	return best, when
}

// leastCut tries the four wall types on copies of the field, deleting
// del, and returns the one that leaves the prey the least area under
// bound with the hunter still in it (NoWall when none does), stopping
// when the node budget is spent. When keep is not nil, only the cuts
// whose copy it keeps count.
func leastCut(t *match.Turn, f *Field, del []int, bound int, keep func(g *Field) bool, seen func(Kind, int)) (Kind, int) {
	best, bestArea := NoWall, bound
	for kind := Horizontal; kind <= Counterdiagonal && t.Spend(0); kind++ {
		g, a, ok := cutPlay(t, f, kind, del)
		if ok && (keep == nil || keep(&g)) {
			if seen != nil {
				seen(kind, a)
			}
			if a < bestArea {
				best, bestArea = kind, a
			}
		}
	}
	return best, bestArea
}

// maxReplaced bounds the walls the strong hunter thinks of replacing in a
// tick (four BFS each): the nearest to it, which are the sides it can
// tighten; with 1,000 walls at their cap, trying them all would cost
// seconds a tick.
const maxReplaced = 8

// nearestWalls returns the indices of up to n walls not in del, nearest
// to the hunter first (by the distance to the wall's bounding box).
func nearestWalls(f *Field, del []int, n int) []int {
	type near struct{ i, d int }
	var ws []near
	h := f.Hunter
	for i, w := range f.Walls() {
		if slices.Contains(del, i) {
			continue
		}
		lo, hi := min(w.Y1, w.Y2), max(w.Y1, w.Y2)
		dx := max(w.X1-h.X, 0, h.X-w.X2)
		dy := max(lo-h.Y, 0, h.Y-hi)
		ws = append(ws, near{i, max(dx, dy)})
	}
	slices.SortStableFunc(ws, func(a, b near) int { return a.d - b.d })
	out := make([]int, 0, n)
	for _, w := range ws[:min(n, len(ws))] {
		out = append(out, w.i)
	}
	return out
}

func countValid(idx []int, n int) int {
	seen := map[int]bool{}
	for _, i := range idx {
		if i >= 0 && i < n {
			seen[i] = true
		}
	}
	return len(seen)
}

// flee moves the prey. It moves only on odd ticks; on even ones any reply
// does. Greedy heads for the centre of its region and keeps off the
// hunter's diagonal; strong first keeps out of every cell the hunter
// could capture it in over the next ticks (the hunter is deterministic
// while it builds nothing), then does the same.
func (p *player) flee(t *match.Turn, s State, f *Field) Action {
	if f.Tick%2 == 0 {
		return PreyAction(s, 0, 0)
	}
	reg := p.region(t, f)
	centre := reg.Centroid()
	var safe [3][3]int
	foresaw := p.strong && near(f.Hunter, f.Prey, p.horizon+6)
	if foresaw {
		safe = p.survival(t, f, p.horizon, f.Captures)
	}
	best, bestScore := Point{}, -1<<62
	far := !near(f.Hunter, f.Prey, 12)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			to, _ := f.Move(f.Prey, Point{dx, dy})
			score := -dist2(to, centre) + 4*lineDistance(f.Hunter, f.HunterVel, to)
			if p.strong {
				score = shadowScore(f, to, far) + safe[dy+1][dx+1]<<40
			}
			markStep(t, f, dx, dy, score, safe[dy+1][dx+1], foresaw)
			score = score*8 + t.Rand.IntN(8*p.noise()) // near-ties differ from match to match
			if score > bestScore {
				best, bestScore = Point{dx, dy}, score
			}
		}
	}
	return PreyAction(s, best.X, best.Y)
}

// markStep marks a step the prey weighed, on its cell with the step's
// direction: with the hunter near, the strong prey's value is the ticks
// it survives after the step (its distance to capture, in time); the
// greedy prey's, and the strong one's far from the hunter, the score it
// chose by.
func markStep(t *match.Turn, f *Field, dx, dy, score, safe int, near bool) {
	v := float64(score)
	if near {
		v = float64(safe)
	}
	t.Note.Mark(match.AtMove(f.Prey.Y, f.Prey.X, (dy+1)*3+dx+1), v, "")
}

// noise is the span of the random part of the prey's scores: enough to
// vary sessions from seed to seed, too little to change a clear choice.
func (p *player) noise() int { return 24 }

// near reports whether two cells are within d in both x and y.
func near(a, b Point, d int) bool { return abs(a.X-b.X) <= d && abs(a.Y-b.Y) <= d }

func dist2(a, b Point) int { return (a.X-b.X)*(a.X-b.X) + (a.Y-b.Y)*(a.Y-b.Y) }

// lineDistance is how far p is from the hunter's diagonal line, capped:
// the prey wants to be off the line the hunter runs along.
func lineDistance(h, v, p Point) int {
	// Distance to the line through h with direction v, times √2.
	d := abs((p.X-h.X)*v.Y - (p.Y-h.Y)*v.X)
	return min(d, 12)
}

// lookahead is a prey's memory for survival, kept from tick to tick so
// that a prey's tick allocates nothing.
type lookahead struct {
	hs        []Point
	next, cur []int
	window
}

// survival returns, for each first step of the prey, for how many of the
// next k ticks it can stay out of the hunter's reach (the hunter simulated
// ahead, building nothing; deadly says whether a hunter at h catches a
// prey at q, and is false beyond the capture radius). The prey steps on
// odd ticks only.
//
// It is computed backward over a window around the prey, each cell's
// value the best of the cells its nine steps reach: where those steps
// land is worked out once (a step does not depend on the tick), and
// deadly is asked only near the hunter, so a tick costs a table walk.
func (la *lookahead) survival(t *match.Turn, f *Field, k int, deadly func(h, q Point) bool) [3][3]int {
	hs := append(la.hs[:0], Point{})
	h, v := f.Hunter, f.HunterVel
	for range k {
		h, v = f.Move(h, v)
		hs = append(hs, h)
	}
	w := &la.window
	w.fill(f, k/2+2)
	next, cur := resize(la.next, len(w.steps)), resize(la.cur, len(w.steps))
	la.hs, la.next, la.cur = hs, next, cur
	for i := range next {
		next[i] = k
	}
	for i := k; i >= 2; i-- {
		moves := (f.Tick+i)%2 == 1 // the prey steps in tick i+1 (tick 1 is this one)
		for c, steps := range w.steps {
			best := 0
			switch {
			case w.blocked[c]:
			case !moves:
				best = next[c]
			default:
				for _, to := range steps {
					if to >= 0 {
						best = max(best, next[to])
					}
				}
			}
			cur[c] = best
		}
		w.near(hs[i], func(c int, q Point) {
			if !w.blocked[c] && deadly(hs[i], q) {
				cur[c] = i - 1
			}
		})
		next, cur = cur, next
		t.Spend(int64(len(w.steps)))
	}
	var out [3][3]int
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			to, _ := f.Move(f.Prey, Point{dx, dy})
			if deadly(hs[1], to) {
				out[dy+1][dx+1] = 0
				continue
			}
			out[dy+1][dx+1] = next[w.index(to)]
		}
	}
	return out
}

// resize returns s with length n, reusing its memory when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// window is the square of cells within r of the prey (in x and y), each
// with the cells its nine steps lead to (-1 outside the window).
type window struct {
	centre  Point
	r, side int
	steps   [][9]int32
	blocked []bool
}

// fill makes w the window of radius r around f's prey.
func (w *window) fill(f *Field, r int) {
	w.centre, w.r, w.side = f.Prey, r, 2*r+1
	w.steps, w.blocked = resize(w.steps, w.side*w.side), resize(w.blocked, w.side*w.side)
	for c := range w.steps {
		q := w.cell(c)
		w.blocked[c] = f.Blocked(q.X, q.Y)
		for d := range 9 {
			w.steps[c][d] = -1
			if w.blocked[c] {
				continue // off the board too: no step from there
			}
			if to, _ := f.Move(q, Point{d%3 - 1, d/3 - 1}); w.has(to) {
				w.steps[c][d] = int32(w.index(to))
			}
		}
	}
}

func (w *window) has(q Point) bool {
	return abs(q.X-w.centre.X) <= w.r && abs(q.Y-w.centre.Y) <= w.r
}

func (w *window) index(q Point) int {
	return (q.Y-w.centre.Y+w.r)*w.side + q.X - w.centre.X + w.r
}

func (w *window) cell(c int) Point {
	return Point{w.centre.X - w.r + c%w.side, w.centre.Y - w.r + c/w.side}
}

// near calls fn for each window cell within the capture distance of h
// in x and y.
func (w *window) near(h Point, fn func(c int, q Point)) {
	for y := max(h.Y-4, w.centre.Y-w.r); y <= min(h.Y+4, w.centre.Y+w.r); y++ {
		for x := max(h.X-4, w.centre.X-w.r); x <= min(h.X+4, w.centre.X+w.r); x++ {
			q := Point{x, y}
			fn(w.index(q), q)
		}
	}
}
