package evasion

import (
	"math/bits"
	"slices"
	"strconv"
)

// grid is the board's occupancy, one bit per cell (11 KB): what makes a
// tick cost nanoseconds instead of a scan of every wall per cell looked at.
// It has a border one cell wide, so that a step from any cell of the board
// lands on a bit: a fence's bits are set (see fenced).
type grid [(gridW*gridW + 63) / 64]uint64

// gridW is the side of the grid: the board and its border.
const gridW = Size + 2

func gridIndex(x, y int) uint { return uint((y+1)*gridW + x + 1) }

func (g *grid) has(x, y int) bool {
	i := gridIndex(x, y)
	return g[i>>6]&(1<<(i&63)) != 0
}

// hasIndex is has for a grid index (gridIndex).
func (g *grid) hasIndex(i uint) bool { return g[i>>6]&(1<<(i&63)) != 0 }

func (g *grid) set(x, y int) {
	i := gridIndex(x, y)
	g[i>>6] |= 1 << (i & 63)
}

// fenced returns an occupancy grid with its border set: off the board
// counts as blocked.
func fenced() *grid {
	g := fence // a copy, not a fresh grid and 1,204 bits set one by one
	return &g
}

// fence is the empty board's grid: its border alone.
var fence = func() grid {
	var g grid
	for i := -1; i <= Size; i++ {
		g.set(i, -1)
		g.set(i, Size)
		g.set(-1, i)
		g.set(Size, i)
	}
	return g
}()

// flip flips the bits of a wall's cells: it sets them when the wall is
// built (on free cells: the arms stop at the first blocked one) and
// clears them when it is deleted (walls never overlap on a grid, see
// Index). It is what a build and a deletion cost, so it works on the
// bits: a horizontal wall is a run of bits in its row, flipped a word at
// a time; the other kinds step through the grid by index.
func (g *grid) flip(w *Wall) {
	i := gridIndex(w.X1, w.Y1)
	switch w.Kind {
	case Horizontal:
		for j := i + uint(w.X2-w.X1) + 1; i < j; {
			n := min(64-i&63, j-i) // bits left in this word, or in the wall
			g[i>>6] ^= (^uint64(0) >> (64 - n)) << (i & 63)
			i += n
		}
	case Vertical:
		for range w.Y2 - w.Y1 + 1 {
			g[i>>6] ^= 1 << (i & 63)
			i += gridW
		}
	case Diagonal, Counterdiagonal:
		// As Cells walks the staircase: alternate steps in y and x from
		// the first end until one leaves the wall's box.
		cols, rows, dy := w.X2-w.X1+1, w.Y2-w.Y1+1, uint(gridW)
		if w.Kind == Counterdiagonal {
			rows, dy = w.Y1-w.Y2+1, -dy
		}
		x, y, inY := 0, 0, w.BD
		for x < cols && y < rows {
			g[i>>6] ^= 1 << (i & 63)
			if inY {
				y, i = y+1, i+dy
			} else {
				x, i = x+1, i+1
			}
			inY = !inY
		}
	}
}

// The initial state of every game (spec §1).
var (
	HunterStart    = Point{0, 0}
	HunterStartVel = Point{1, 1}
	PreyStart      = Point{230, 200}
)

// Field is one game in progress: the original's Game and GameState. It is
// a value that is cheap to copy: copies share their walls and occupancy
// grid until one of them changes its walls, so a bot can simulate from
// a copy millions of ticks without touching the original.
type Field struct {
	MaxWalls, Delay int
	Tick            int
	Timer           int // ticks until the hunter may build again
	Hunter          Point
	HunterVel       Point // the direction the hunter will try next
	Prey            Point

	walls []Wall
	occ   *grid // nil: blocked cells are found by scanning walls
	own   bool  // walls and occ belong to this copy alone
}

// NewField returns the state at tick 0 of a game.
func NewField(maxWalls, delay int) Field {
	return Field{MaxWalls: maxWalls, Delay: delay, Hunter: HunterStart, HunterVel: HunterStartVel, Prey: PreyStart,
		occ: fenced(), own: true}
}

// same reports whether f and g are the same position: the same tick,
// cooldown, hunter, prey and walls in the same order.
func (f *Field) same(g *Field) bool {
	return f.MaxWalls == g.MaxWalls && f.Delay == g.Delay && f.Tick == g.Tick && f.Timer == g.Timer &&
		f.Hunter == g.Hunter && f.HunterVel == g.HunterVel && f.Prey == g.Prey && slices.Equal(f.walls, g.walls)
}

// Walls returns the walls in list order; the caller must not change them.
func (f *Field) Walls() []Wall { return f.walls }

// Blocked reports whether a cell is off the board or in a wall.
func (f *Field) Blocked(x, y int) bool {
	if uint(x) >= Size || uint(y) >= Size {
		return true
	}
	if f.occ != nil {
		return f.occ.has(x, y)
	}
	return f.scanBlocked(x, y)
}

// scanBlocked looks for a wall holding (x, y) in the wall list. It is
// kept out of line so that Blocked inlines.
//
//go:noinline
func (f *Field) scanBlocked(x, y int) bool {
	for i := range f.walls {
		if f.walls[i].Contains(x, y) {
			return true
		}
	}
	return false
}

// Scan drops the occupancy grid: Blocked then scans the wall list, as the
// original does. It is the reference the grid is measured and checked
// against, and what a field read from a message starts with.
func (f *Field) Scan() {
	f.occ, f.own = nil, false
}

// Index builds the occupancy grid of a field that has none. A field
// whose walls overlap (a state message can say anything) keeps scanning
// its walls: on a grid, deleting one of two walls would free the cells
// they share, where the original still finds the other.
func (f *Field) Index() {
	if f.occ != nil {
		return
	}
	g, overlap := fenced(), false
	for i := range f.walls {
		f.walls[i].Cells(func(x, y int) {
			overlap = overlap || g.has(x, y)
			g.set(x, y)
		})
	}
	if overlap {
		return
	}
	f.occ, f.walls, f.own = g, slices.Clone(f.walls), true
}

// write gives this copy its own walls and grid before it changes them.
func (f *Field) write() {
	if f.own {
		return
	}
	f.walls = slices.Clone(f.walls)
	if f.occ != nil {
		g := *f.occ
		f.occ = &g
	}
	f.own = true
}

// Fork returns a copy that shares nothing that either will change: the
// copy a simulation starts from.
func (f *Field) Fork() Field {
	c := *f
	c.own = false
	f.own = false
	return c
}

// HunterMove is the hunter's request for a tick, validated: the wall to
// build (NoWall for none) and the walls to delete, by index.
type HunterMove struct {
	Build  Kind
	Delete []int
}

// NoWall asks for no wall.
const NoWall Kind = -1

// PreyMove is the prey's request; components beyond ±1 are clamped.
type PreyMove struct{ DX, DY int }

// Step plays one tick in the original's order (spec §3): deletions, the
// hunter's move, the build at its old cell, the prey's move on odd
// ticks, the tick and timer, and the capture test. It reports capture.
func (f *Field) Step(h HunterMove, p PreyMove) bool {
	if len(h.Delete) > 0 || h.Build != NoWall || f.occ == nil {
		return f.step(h, p)
	}
	g := f.occ
	// The common tick, when nothing is built or deleted and no one
	// bounces, is written out here and calls nothing: it is what bots
	// simulate millions of times. Anything else goes to step before the
	// field is touched.
	hx, hy := f.Hunter.X+f.HunterVel.X, f.Hunter.Y+f.HunterVel.Y
	px, py, tick := f.Prey.X, f.Prey.Y, f.Tick
	if t := gridIndex(hx, hy); g[t>>6]&(1<<(t&63)) != 0 {
		goto slow
	}
	if tick&1 == 1 { // the prey moves on odd ticks
		if uint(p.DX+1) > 2 || uint(p.DY+1) > 2 { // to be clamped
			goto slow
		}
		px, py = px+p.DX, py+p.DY
		if t := gridIndex(px, py); g[t>>6]&(1<<(t&63)) != 0 {
			goto slow
		}
	}
	f.Hunter, f.Prey, f.Tick = Point{hx, hy}, Point{px, py}, tick+1
	if f.Timer > 0 {
		f.Timer--
	}
	if uint(px-hx+4) > 8 || uint(py-hy+4) > 8 {
		return false
	}
	return f.Captured()
slow: // h asks for nothing here; not passing it on frees its registers
	return f.step(HunterMove{Build: NoWall}, p)
}

// step plays any tick the long way: builds, deletions, bounces, clamped
// prey steps, and fields without a grid.
func (f *Field) step(h HunterMove, p PreyMove) bool {
	if len(h.Delete) > 0 {
		f.delete(h.Delete)
	}
	anchor := f.Hunter
	f.Hunter, f.HunterVel = f.move(f.Hunter, f.HunterVel)
	if h.Build >= Horizontal && h.Build <= Counterdiagonal {
		f.build(h.Build, anchor)
	}
	if f.Tick&1 == 1 { // the prey moves on odd ticks
		f.Prey, _ = f.move(f.Prey, Point{clamp1(p.DX), clamp1(p.DY)})
	}
	f.Tick++
	if f.Timer > 0 {
		f.Timer--
	}
	return f.Captured()
}

func clamp1(v int) int { return max(-1, min(1, v)) }

// move is the original's movement with its seven bounce cases (spec §4),
// for the hunter and the prey alike: it returns the new cell and velocity.
func (f *Field) move(p, v Point) (Point, Point) {
	t := Point{p.X + v.X, p.Y + v.Y}
	if f.open(t) || !f.Blocked(t.X, t.Y) {
		return t, v
	}
	return f.bounce(p, v)
}

// open reports whether the grid says t, a step from a cell of the board,
// is free: the common case of a move, small enough to inline (false also
// when the field has no grid: ask Blocked then). The grid's border makes
// a bounds test needless.
func (f *Field) open(t Point) bool {
	i := gridIndex(t.X, t.Y)
	return f.occ != nil && f.occ[i>>6]&(1<<(i&63)) == 0
}

// bounce is the move when the target cell is blocked.
func (f *Field) bounce(p, v Point) (Point, Point) {
	if v.X == 0 || v.Y == 0 {
		return p, Point{-v.X, -v.Y}
	}
	sx, sy := f.Blocked(p.X+v.X, p.Y), f.Blocked(p.X, p.Y+v.Y)
	switch {
	case sx && sy:
		return p, Point{-v.X, -v.Y}
	case sx:
		return Point{p.X, p.Y + v.Y}, Point{-v.X, v.Y}
	case sy:
		return Point{p.X + v.X, p.Y}, Point{v.X, -v.Y}
	}
	fy, fx := f.Blocked(p.X+v.X, p.Y+2*v.Y), f.Blocked(p.X+2*v.X, p.Y+v.Y)
	switch {
	case fy && !fx:
		return Point{p.X, p.Y + v.Y}, Point{-v.X, v.Y}
	case fx && !fy:
		return Point{p.X + v.X, p.Y}, Point{v.X, -v.Y}
	}
	return p, Point{-v.X, -v.Y}
}

// delete removes the walls at the given indices of the list as it was;
// other indices and repeats are harmless. Survivors keep their order.
func (f *Field) delete(idx []int) {
	n := len(f.walls)
	if !slices.ContainsFunc(idx, func(i int) bool { return i >= 0 && i < n }) {
		return
	}
	f.write()
	var buf [MaxMaxWalls]bool // no allocation for the walls a game can hold
	gone := buf[:min(n, len(buf))]
	if n > len(buf) { // a field read from a message may hold more
		gone = make([]bool, n)
	}
	for _, i := range idx {
		if i >= 0 && i < n {
			gone[i] = true
		}
	}
	kept := f.walls[:0]
	for i, w := range f.walls {
		if !gone[i] {
			kept = append(kept, w)
			continue
		}
		if f.occ != nil {
			f.occ.flip(&w)
		}
	}
	clear(f.walls[len(kept):])
	f.walls = kept
}

// arms are the steps of a wall's two arms from the anchor, each a cycle
// of two (spec §5): the "+" arm and the "-" arm of each kind.
var arms = [4][2][2]Point{
	Horizontal:      {{{1, 0}, {1, 0}}, {{-1, 0}, {-1, 0}}},
	Vertical:        {{{0, 1}, {0, 1}}, {{0, -1}, {0, -1}}},
	Diagonal:        {{{0, 1}, {1, 0}}, {{-1, 0}, {0, -1}}},
	Counterdiagonal: {{{0, -1}, {1, 0}}, {{-1, 0}, {0, 1}}},
}

// build tries to add a wall of kind k through the anchor (the hunter's
// cell before its move). It fails, changing nothing, when the list is
// full, the timer runs, or the wall would cover the hunter or the prey.
func (f *Field) build(k Kind, anchor Point) bool {
	if len(f.walls) >= f.MaxWalls || f.Timer > 0 {
		return false
	}
	up, upOK, _ := f.arm(anchor, arms[k][0])
	lo, loOK, n := f.arm(anchor, arms[k][1])
	if !upOK || !loOK {
		return false
	}
	w := Wall{Kind: k, X1: lo.X, Y1: lo.Y, X2: up.X, Y2: up.Y, BD: n%2 == 1}
	switch k {
	case Horizontal, Vertical:
		w.BD = false
	}
	f.write()
	f.walls = append(f.walls, w)
	if f.occ != nil {
		f.occ.flip(&w)
	}
	f.Timer = f.Delay
	return true
}

// arm scans one arm from the anchor to the last free cell before a
// blocked one. It fails if the arm would cover the hunter (already moved)
// or the prey (last and n then mean nothing); n counts the free cells,
// the anchor included.
func (f *Field) arm(c Point, steps [2]Point) (last Point, ok bool, n int) {
	if f.occ != nil {
		return f.gridArm(c, steps)
	}
	for !f.Blocked(c.X, c.Y) {
		if c == f.Hunter || c == f.Prey {
			return c, false, n
		}
		last = c
		s := steps[n&1]
		n++
		c.X += s.X
		c.Y += s.Y
	}
	return last, true, n
}

// gridArm is arm on the grid: it walks bit indices, which the grid's
// border stops, and a horizontal arm a word at a time.
func (f *Field) gridArm(c Point, steps [2]Point) (last Point, ok bool, n int) {
	g := f.occ
	i, h, p := gridIndex(c.X, c.Y), gridIndex(f.Hunter.X, f.Hunter.Y), gridIndex(f.Prey.X, f.Prey.Y)
	var end uint // the first blocked cell (the last free one below)
	switch steps {
	case [2]Point{{1, 0}, {1, 0}}:
		end = g.nextSet(i)
		for _, o := range [2]uint{h, p} {
			if o >= i && o < end {
				return Point{}, false, 0
			}
		}
		n, last = int(end-i), pointAt(end-1)
	case [2]Point{{-1, 0}, {-1, 0}}:
		end = g.prevSet(i)
		for _, o := range [2]uint{h, p} {
			if o <= i && o > end {
				return Point{}, false, 0
			}
		}
		n, last = int(i-end), pointAt(end+1)
	default:
		d := [2]uint{uint(steps[0].Y*gridW + steps[0].X), uint(steps[1].Y*gridW + steps[1].X)}
		for ; g[i>>6]&(1<<(i&63)) == 0; n++ {
			if i == h || i == p {
				return Point{}, false, 0
			}
			end = i // the last free cell, for now
			i += d[n&1]
		}
		if n > 0 {
			last = pointAt(end)
		}
		return last, true, n
	}
	if n == 0 {
		last = Point{}
	}
	return last, true, n
}

// pointAt is the cell of grid bit i.
func pointAt(i uint) Point { return Point{int(i%gridW) - 1, int(i/gridW) - 1} }

// nextSet returns the index of the first set bit at i or after; the
// border ends every row.
func (g *grid) nextSet(i uint) uint {
	w := i >> 6
	for m := g[w] >> (i & 63); ; m = g[w] {
		if m != 0 {
			return i + uint(bits.TrailingZeros64(m))
		}
		w++
		i = w << 6
	}
}

// nextClear returns the index of the first clear bit at i or after, or
// a number past the grid when none is.
func (g *grid) nextClear(i uint) uint {
	w := i >> 6
	if w >= uint(len(g)) {
		return i
	}
	for m := ^g[w] >> (i & 63); ; m = ^g[w] {
		if m != 0 {
			return i + uint(bits.TrailingZeros64(m))
		}
		w++
		if w == uint(len(g)) {
			return w << 6
		}
		i = w << 6
	}
}

// setRun sets bits lo to hi, a word at a time.
func (g *grid) setRun(lo, hi uint) {
	for i := lo; i <= hi; {
		n := min(64-i&63, hi+1-i) // bits left in this word, or in the run
		g[i>>6] |= (^uint64(0) >> (64 - n)) << (i & 63)
		i += n
	}
}

// prevSet returns the index of the last set bit at i or before.
func (g *grid) prevSet(i uint) uint {
	w := i >> 6
	for m := g[w] << (63 - i&63); ; m = g[w] {
		if m != 0 {
			return i - uint(bits.LeadingZeros64(m))
		}
		w--
		i = w<<6 + 63
	}
}

// Distance2 is the squared distance between the hunter and the prey.
func (f *Field) Distance2() int {
	dx, dy := f.Prey.X-f.Hunter.X, f.Prey.Y-f.Hunter.Y
	return dx*dx + dy*dy
}

// Captured reports whether the prey is within 4 of the hunter with no
// wall on the original's Bresenham line between them (spec §6).
func (f *Field) Captured() bool {
	dx, dy := f.Prey.X-f.Hunter.X, f.Prey.Y-f.Hunter.Y
	return dx*dx+dy*dy <= CaptureRadius2 && f.Captures(f.Hunter, f.Prey)
}

// Captures reports whether a hunter at h would capture a prey at p.
func (f *Field) Captures(h, p Point) bool {
	dx, dy := p.X-h.X, p.Y-h.Y
	if dx*dx+dy*dy > CaptureRadius2 {
		return false
	}
	for _, c := range captureLines[dx+4][dy+4] {
		if f.Blocked(h.X+c.X, h.Y+c.Y) {
			return false
		}
	}
	return true
}

// Move returns where a player at p going by v ends, and its velocity
// after: the original's movement rule, without changing the field.
func (f *Field) Move(p, v Point) (Point, Point) { return f.move(p, v) }

// CaptureRadius2 is the squared capture distance: 4 cells, inclusive.
const CaptureRadius2 = 16

// AppendState writes the state message of game gameNum without the time
// field: "game tick maxWalls delay 300 300 timer hx hy hvx hvy px py n
// walls...".
func (f *Field) AppendState(b []byte, gameNum int) []byte {
	b = strconv.AppendInt(b, int64(gameNum), 10)
	b = appendInts(b, f.Tick, f.MaxWalls, f.Delay, Size, Size, f.Timer, f.Hunter.X, f.Hunter.Y,
		f.HunterVel.X, f.HunterVel.Y, f.Prey.X, f.Prey.Y, len(f.walls))
	for i := range f.walls {
		b = append(b, ' ')
		b = f.walls[i].appendTo(b)
	}
	return b
}
