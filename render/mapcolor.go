package render

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"sync"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

func init() { register("mapcolor", mapcolorDrawer{}) }

// mapcolorDrawer draws the map-colouring game: the map beside the search
// tree of the decision being played. A turn replays its search's trace
// line by line, the tree growing in visit order with each node's value,
// alpha and beta as they change and the moves a cut-off pruned greyed;
// then the chosen move is highlighted and its colour fills the map.
type mapcolorDrawer struct{}

// mapcolorReveal is the part of a turn spent replaying the trace.
const mapcolorReveal = 0.85

// Pace makes a turn last as long as its trace needs to be followed: eight
// lines to a turn, between one turn and three.
func (mapcolorDrawer) Pace(rec *play.Record, k int) float64 {
	if t := decisionTree(rec, k); t != nil {
		return min(3, max(1, float64(len(t.Lines))/8))
	}
	return 1
}

// Rate is a turn a second: a decision is watched, not skimmed.
func (mapcolorDrawer) Rate() float64 { return 1 }

// RecordRate is a turn a second too, faster when the whole game would
// last longer than 30 seconds.
func (d mapcolorDrawer) RecordRate(rec *play.Record) float64 {
	total := 0.0
	for k := range rec.Turns {
		total += d.Pace(rec, k)
	}
	return max(1, total/30)
}

// Steps are the trace lines of turn k, replayed over the reveal.
func (mapcolorDrawer) Steps(rec *play.Record, k int) (int, float64) {
	if t := decisionTree(rec, k); t != nil {
		return len(t.Lines), mapcolorReveal
	}
	return 1, 1
}

// treeCache keeps the trees of recent decisions: rebuilding one is a
// search, not something to do every frame.
var treeCache = struct {
	sync.Mutex
	m map[treeKey]*mapcolor.Tree
}{m: map[treeKey]*mapcolor.Tree{}}

// treeKey identifies a decision: the map (its problem: two random maps
// may share a name and a colouring, never a problem), the colouring and
// who moves, and the depth searched.
type treeKey struct {
	problem   *mapcolor.Problem
	colouring string
	depth     int
}

// decisionTree is the search the mover of turn k made, when it searched.
func decisionTree(rec *play.Record, k int) *mapcolor.Tree {
	if k < 0 || k >= len(rec.Turns) {
		return nil
	}
	s := rec.State(k).(mapcolor.State)
	note := rec.Turns[k].Notes[s.Mover()].Get()
	if !mapcolor.CourseSearch(note) {
		return nil
	}
	key := treeKey{s.Problem(), colouring(s), note.Depth}
	treeCache.Lock()
	t, ok := treeCache.m[key]
	treeCache.Unlock()
	if ok {
		return t
	}
	t = mapcolor.Decision(s, note.Depth)
	treeCache.Lock()
	if len(treeCache.m) > 64 {
		clear(treeCache.m)
	}
	treeCache.m[key] = t
	treeCache.Unlock()
	return t
}

// colouring writes who coloured what, and whose turn it is.
func colouring(s mapcolor.State) string {
	b := make([]byte, 0, 2*len(s.Problem().States)+1)
	for i := range s.Problem().States {
		c, o := s.Colour(i)
		b = append(b, byte(c+1), byte(o+1))
	}
	return string(append(b, byte(s.Mover())))
}

// mapcolorMoment is what is drawn at one moment: the map, the decision
// in view (turn k's while it plays, the one before once settled) and the
// search shown, that decision's or, when it made none, the last one made.
type mapcolorMoment struct {
	from   mapcolor.State
	shown  mapcolor.State // the map: the next state once the move is chosen
	shownK int            // its index
	settle float64        // 0..1: the chosen colour fading in

	k     int    // the decision in view
	chose string // what it chose, when it made no search

	tree   *mapcolor.Tree
	treeK  int        // the turn whose search the tree is
	mover  match.Side // who searched
	player string     // its bot
	lines  int        // trace lines revealed
}

func mapcolorAt(rec *play.Record, t float64) mapcolorMoment {
	k, f := Moment(rec, t)
	m := mapcolorMoment{k: k, from: rec.State(k).(mapcolor.State)}
	m.shown, m.shownK = m.from, k
	if f >= mapcolorReveal && k+1 < rec.Len() {
		m.shown, m.shownK = rec.State(k+1).(mapcolor.State), k+1
		m.settle = ease((f - mapcolorReveal) / (1 - mapcolorReveal))
	}
	reveal := min(1, f/mapcolorReveal)
	if f == 0 && k > 0 {
		// Settled: the last decision stays on screen, whole.
		m.k, reveal = k-1, 1
	}
	m.tree = decisionTree(rec, m.k)
	m.treeK = m.k
	if m.tree == nil && m.k < len(rec.Turns) {
		s := rec.State(m.k).(mapcolor.State)
		if mv, ok := rec.Turns[m.k].Actions[s.Mover()].(mapcolor.Move); ok {
			m.chose = fmt.Sprintf("%s (%s) chose %s %s", s.Mover(), rec.Players[s.Mover()], mv.State, mv.Colour)
			switch note := rec.Turns[m.k].Notes[s.Mover()].Get(); {
			case note != nil && note.Text != "":
				m.chose += ": " + note.Text
			case note != nil && note.Nodes > 0:
				m.chose += fmt.Sprintf(" after a search of %d nodes to depth %d, arena's own and not the course's traced tree: its options are on the map with the thinking layer (T)", note.Nodes, note.Depth)
			default:
				m.chose += " without a search"
			}
		}
		for j := m.k - 1; j >= 0 && m.tree == nil; j-- {
			m.tree, m.treeK, reveal = decisionTree(rec, j), j, 1
		}
	}
	m.mover = rec.State(m.treeK).(mapcolor.State).Mover()
	m.player = rec.Players[m.mover]
	if m.tree != nil {
		m.lines = int(math.Round(reveal * float64(len(m.tree.Lines))))
	}
	return m
}

// Inks are the named colours regions are painted in.
func (mapcolorDrawer) Inks() []color.RGBA { return hues() }

// Board draws the map and, beside it, the search tree.
func (mapcolorDrawer) Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	m := mapcolorAt(rec, t)
	mapR, treeR := splitMapcolor(r, m.from.Geometry(), MapcolorPane(rec.Players))
	// The map changes when a colour is chosen and while it fades in, the
	// tree line by line: each is kept between frames (see Layer), and
	// only the pulse of the last colouring is drawn every frame.
	type mapKey struct {
		r      Rect
		shown  int
		settle float64
	}
	Layer(c, "mapcolor-map", mapKey{mapR, m.shownK, m.settle}, mapR, func() { drawMap(c, mapR, m, th) })
	drawPulse(c, mapR, m, t, th)
	type treeKey struct {
		r            Rect
		tree         *mapcolor.Tree
		treeK, lines int
		chose        string
	}
	if treeR.W > 0 {
		Layer(c, "mapcolor-tree", treeKey{treeR, m.tree, m.treeK, m.lines, m.chose}, treeR, func() { drawTree(c, treeR, m, th) })
	}
}

// MapcolorPane reports whether a match of these players draws the
// course's search tree beside the map: when a player is the course's
// search, or a program (the course's own, whose trace arena reads).
// Between arena's other bots and people no tree is drawn, and the map
// takes the whole board.
func MapcolorPane(players [2]string) bool {
	for _, p := range players {
		name, _, _ := strings.Cut(p, ":")
		switch name {
		case "random", "greedy", "strong", play.Person:
		default:
			return true
		}
	}
	return false
}

// splitMapcolor divides the board's rectangle between map and tree: side
// by side or one above the other, whichever draws the map larger.
func splitMapcolor(r Rect, geo mapcolor.Geometry, pane bool) (mapR, treeR Rect) {
	if !pane {
		return r, Rect{}
	}
	a := aspect(geo)
	beside := min(r.W*0.56/a, r.H)
	above := min(r.W/a, r.H*0.48)
	// Beside, the tree keeps what the map leaves; when that is too narrow
	// for its rows, stack them unless the map would shrink by 40%.
	narrow := r.W-min(r.W*0.56, r.H*a*1.04) < 320
	if beside >= above && !(narrow && above >= 0.6*beside) {
		mapR, treeR = r.CutLeft(math.Round(min(r.W*0.56, r.H*a*1.04)))
		return mapR, treeR.Inset(math.Round(r.W * 0.01))
	}
	mapR, treeR = r.CutTop(math.Round(min(r.H*0.48, r.W/a*1.04)))
	return mapR, treeR.Inset(math.Round(r.H * 0.01))
}

// aspect is the width over the height of the map's drawing.
func aspect(geo mapcolor.Geometry) float64 {
	if geo.Cells != nil || len(geo.Pos) < 2 {
		return 1
	}
	minX, minY, maxX, maxY := bounds(geo.Pos)
	return min(4, max(0.25, (maxX-minX+0.1)/(maxY-minY+0.1)))
}

func bounds(ps []mapcolor.Point) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range ps {
		minX, minY, maxX, maxY = min(minX, p.X), min(minY, p.Y), max(maxX, p.X), max(maxY, p.Y)
	}
	return
}

// MapLayout places the map of s when the board is drawn in r: where each
// state is drawn and how big its disc is, for the human controls.
type MapLayout struct {
	x0, y0, side float64
	geo          mapcolor.Geometry
	radius       float64
}

// LayoutMap returns the map's layout for the board drawn in r, with the
// search tree's pane beside it or not (MapcolorPane).
func LayoutMap(s mapcolor.State, r Rect, pane bool) MapLayout {
	mapR, _ := splitMapcolor(r, s.Geometry(), pane)
	return layoutMap(s.Geometry(), mapR.Inset(math.Round(mapR.W*0.02)))
}

// layoutMap fits a map in r: regions fill the unit square; a graph's
// bounding box is scaled to fill r, and its discs sized by how close its
// nearest states are.
func layoutMap(geo mapcolor.Geometry, r Rect) MapLayout {
	if geo.Cells != nil {
		x0, y0, side := square(r)
		return MapLayout{x0: x0, y0: y0, side: side, geo: geo, radius: side * 0.42 / math.Sqrt(float64(max(len(geo.Pos), 1))) * 0.5}
	}
	minX, minY, maxX, maxY := bounds(geo.Pos)
	nearest := 1.0
	for i, p := range geo.Pos {
		for _, q := range geo.Pos[i+1:] {
			nearest = min(nearest, math.Hypot(p.X-q.X, p.Y-q.Y))
		}
	}
	w, h := max(maxX-minX, 1e-3), max(maxY-minY, 1e-3)
	// Leave room for a disc around the outermost states.
	margin := min(nearest*0.5, 0.08)
	side := min(r.W/(w+2*margin), r.H/(h+2*margin))
	x0 := r.X + (r.W-w*side)/2 - minX*side
	y0 := r.Y + (r.H-h*side)/2 - minY*side
	radius := min(nearest*0.46*side, r.W*0.06)
	return MapLayout{x0: x0, y0: y0, side: side, geo: geo, radius: radius}
}

// Centre is where state i is drawn.
func (l MapLayout) Centre(i int) Point {
	q := l.geo.Pos[i]
	return Point{l.x0 + q.X*l.side, l.y0 + q.Y*l.side}
}

// Radius is the size of a state's disc.
func (l MapLayout) Radius() float64 { return l.radius }

// StateAt returns the state under (x, y): the region containing it, or
// the disc within reach of it on a graph.
func (l MapLayout) StateAt(x, y float64) (int, bool) {
	qx, qy := (x-l.x0)/l.side, (y-l.y0)/l.side
	if l.geo.Cells != nil {
		for i, cell := range l.geo.Cells {
			if inside(cell, qx, qy) {
				return i, true
			}
		}
		return 0, false
	}
	best, bestD := -1, 1.6*l.radius
	for i := range l.geo.Pos {
		c := l.Centre(i)
		if d := math.Hypot(c.X-x, c.Y-y); d < bestD {
			best, bestD = i, d
		}
	}
	return best, best >= 0
}

// inside reports whether (x, y) is in a convex polygon.
func inside(poly []mapcolor.Point, x, y float64) bool {
	sign := 0.0
	for k, p := range poly {
		q := poly[(k+1)%len(poly)]
		cross := (q.X-p.X)*(y-p.Y) - (q.Y-p.Y)*(x-p.X)
		if cross != 0 {
			if sign != 0 && (cross > 0) != (sign > 0) {
				return false
			}
			sign = cross
		}
	}
	return true
}

// square fits the unit square in r, centred.
func square(r Rect) (x0, y0, side float64) {
	side = min(r.W, r.H)
	return r.X + (r.W-side)/2, r.Y + (r.H-side)/2, side
}

func drawMap(c Canvas, r Rect, m mapcolorMoment, th *Theme) {
	s := m.shown
	p, geo := s.Problem(), s.Geometry()
	l := layoutMap(geo, r.Inset(math.Round(r.W*0.02)))
	side := l.side
	at := func(q mapcolor.Point) Point { return Point{l.x0 + q.X*side, l.y0 + q.Y*side} }
	newState := -1
	if m.settle > 0 {
		newState, _ = s.Last()
	}
	playable := s.Playable()
	fill := func(i int) color.RGBA {
		col, _ := s.Colour(i)
		if col < 0 {
			if playable[i] {
				return Mix(th.Board, th.TextDim, 0.22)
			}
			return th.Board
		}
		hue := ColourOf(p.Colours[col], col)
		if i == newState {
			return Mix(th.Board, hue, m.settle)
		}
		return hue
	}
	unit := min(r.W, r.H) / 100
	if geo.Cells != nil {
		for i, cell := range geo.Cells {
			pts := make([]Point, len(cell))
			for k, q := range cell {
				pts[k] = at(q)
			}
			c.Polygon(pts, fill(i))
		}
		for _, cell := range geo.Cells {
			pts := make([]Point, len(cell)+1)
			for k, q := range cell {
				pts[k] = at(q)
			}
			pts[len(cell)] = pts[0]
			c.Polyline(pts, max(1, unit*0.35), th.Background)
		}
	} else {
		for i, nbrs := range p.Adj {
			for _, j := range nbrs {
				if j > i {
					c.Line(at(geo.Pos[i]), at(geo.Pos[j]), max(1, unit*0.3), th.Grid)
				}
			}
		}
	}
	nodeR := l.radius
	face := Face{Size: math.Round(max(7, min(nodeR*0.75, 16))), Style: Bold}
	for i, name := range p.States {
		pos := at(geo.Pos[i])
		col, owner := s.Colour(i)
		if geo.Cells == nil {
			c.Circle(pos, nodeR, fill(i))
			if col >= 0 {
				c.Ring(pos, nodeR, max(1.5, nodeR*0.16), th.Player[owner])
			}
		} else if col >= 0 {
			// The owner's dot, outlined to show on a region of its own hue.
			dot, r := Point{pos.X, pos.Y + nodeR*0.9}, max(2, nodeR*0.28)
			c.Circle(dot, r+max(1, r*0.3), th.Background)
			c.Circle(dot, r, th.Player[owner])
		}
		textCol := th.Text
		if col >= 0 {
			textCol = th.Background
		}
		f, y := face, pos.Y-c.LineHeight(face)/2
		if w, room := c.TextWidth(name, f), 1.8*nodeR; geo.Cells == nil && w > room {
			// A long name shrinks to fit its disc, or goes below it.
			f.Size = math.Floor(f.Size * room / w)
			if f.Size < 8 {
				f, y, textCol = face, pos.Y+nodeR+1, th.Text
			} else {
				y = pos.Y - c.LineHeight(f)/2
			}
		}
		c.Text(name, pos.X, y, f, Center, textCol)
	}
}

// drawPulse rings the last colouring, pulsing with time t.
func drawPulse(c Canvas, r Rect, m mapcolorMoment, t float64, th *Theme) {
	s, geo := m.shown, m.shown.Geometry()
	st, _ := s.Last()
	if st < 0 {
		return
	}
	l := layoutMap(geo, r.Inset(math.Round(r.W*0.02)))
	at := Point{l.x0 + geo.Pos[st].X*l.side, l.y0 + geo.Pos[st].Y*l.side}
	nodeR := l.radius
	phase := t * 2 * math.Pi
	c.Ring(at, nodeR*(1.35+0.15*math.Sin(phase)), max(1.5, nodeR*0.12), Alpha(th.Mark, 0.55+0.35*math.Sin(phase)))
}

// Panel shows the scores, the colours with both players' weights, and
// the last move.
func (mapcolorDrawer) Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	s := shownState(rec, t).(mapcolor.State)
	p := s.Problem()
	face := Face{Size: math.Round(textSize(c, min(r.H/7, r.W/24))), Style: Regular}
	lh := c.LineHeight(face)
	y := r.Y
	sc := s.Score()
	c.Text(fmt.Sprintf("P1 %d  P2 %d  (P1 maximises P1 − P2 = %d)", sc[0], sc[1], sc[0]-sc[1]), r.X, y, face, Left, th.Text)
	y += lh * 1.2
	sw := math.Round(lh * 0.8)
	x := r.X
	for i, name := range p.Colours {
		label := fmt.Sprintf("%s %d/%d", name, p.Weights[0][i], p.Weights[1][i])
		w := sw + 4 + c.TextWidth(label, face) + lh
		if x+w > r.X+r.W {
			x, y = r.X, y+lh
		}
		c.Fill(Rect{x, y + (lh-sw)/2, sw, sw}, ColourOf(name, i))
		c.Text(label, x+sw+4, y, face, Left, th.TextDim)
		x += w
	}
	y += lh * 1.2
	c.Text("colour weights: P1/P2", r.X, y, face, Left, th.TextDim)
	y += lh
	if st, col := s.Last(); st >= 0 && s.Turn() > 0 {
		mover := match.Side((s.Turn() - 1) % 2)
		c.Text(fmt.Sprintf("move %d: %s coloured %s %s", s.Turn(), mover, p.States[st], p.Colours[col]), r.X, y, face, Left, th.Player[mover])
	}
}

// Caption names the move.
func (mapcolorDrawer) Caption(rec *play.Record, t float64) string {
	s := shownState(rec, t).(mapcolor.State)
	if s.ToMove() == match.Nobody {
		return fmt.Sprintf("%s · over after %d moves", s.MapName(), s.Turn())
	}
	return fmt.Sprintf("%s · move %d · %s to move", s.MapName(), s.Turn()+1, s.Mover())
}

// Spot places a mark on a state of the map.
func (mapcolorDrawer) Spot(rec *play.Record, k int, _ match.Side, r Rect, p match.Place) (Spot, bool) {
	s := rec.State(k).(mapcolor.State)
	if p.Kind != match.OnState || p.A >= len(s.Problem().States) {
		return Spot{}, false
	}
	l := LayoutMap(s, r, MapcolorPane(rec.Players))
	return Spot{At: l.Centre(p.A), R: l.Radius()}, true
}

// PlaceName names a state.
func (mapcolorDrawer) PlaceName(rec *play.Record, k int, _ match.Side, p match.Place) string {
	if st := rec.State(k).(mapcolor.State).Problem().States; p.A < len(st) {
		return st[p.A]
	}
	return fmt.Sprint(p.A)
}
