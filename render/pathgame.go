package render

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/pathgame"
	"github.com/arena-playground/arena/engine/play"
)

func init() { register("pathgame", pathDrawer{}) }

// pathDrawer draws the adversarial shortest-path game. Graphs come
// without coordinates, so each is laid out once, the same way everywhere:
// columns by hop distance to Y (X on the left, Y on the right), each
// column ordered to keep edges short (barycentre sweeps). The graph at
// cost 1 is a layer drawn once; raised edges are drawn over it, wider and
// warmer on a log scale of their cost, the player's cheapest path to Y
// over those, and the token slides along the edge it takes.
type pathDrawer struct{}

// Turns are messages: a move shows for a third of a second at 1x.
func (pathDrawer) Rate() float64 { return 3 }

// RecordRate shows a pairing of some 20 messages at 1x (7 s), and a long
// one (a player wandering while costs pile up) in about 20 s.
func (pathDrawer) RecordRate(rec *play.Record) float64 { return max(3, float64(len(rec.Turns))/20) }

// pathLayout is a graph's node positions in the unit square.
type pathLayout struct {
	g      *pathgame.Graph
	pos    []Point
	layers int
}

// pathLayouts keeps the layouts of the last few graphs drawn: a layout
// costs a few sweeps over the graph, and a long session meets many graphs.
var pathLayouts struct {
	sync.Mutex
	recent []*pathLayout
}

// layoutGraph places g's nodes: column by hop distance to Y, order within
// a column by the mean position of the neighbours in the columns beside
// it, sweeping left to right and back a few times.
func layoutGraph(g *pathgame.Graph) *pathLayout {
	pathLayouts.Lock()
	defer pathLayouts.Unlock()
	for _, l := range pathLayouts.recent {
		if l.g == g {
			return l
		}
	}
	maxK := int64(0)
	for _, k := range g.Hops {
		if k != pathgame.Unreachable {
			maxK = max(maxK, k)
		}
	}
	shift := 0 // a column for nodes out of Y's reach, far left
	for _, k := range g.Hops {
		if k == pathgame.Unreachable {
			shift = 1
		}
	}
	col := make([]int, g.N())
	cols := make([][]int, int(maxK)+1+shift)
	for n, k := range g.Hops {
		c := 0
		if k != pathgame.Unreachable {
			c = int(maxK-k) + shift
		}
		col[n] = c
		cols[c] = append(cols[c], n)
	}
	y := make([]float64, g.N())
	for _, c := range cols {
		for i, n := range c {
			y[n] = (float64(i) + 0.5) / float64(len(c))
		}
	}
	sweep := func(c []int) {
		bary := make(map[int]float64, len(c))
		for _, n := range c {
			sum, cnt := 0.0, 0
			for _, a := range g.Arcs(n) {
				if col[a.To] != col[n] {
					sum += y[a.To]
					cnt++
				}
			}
			bary[n] = y[n]
			if cnt > 0 {
				bary[n] = sum / float64(cnt)
			}
		}
		sort.SliceStable(c, func(i, j int) bool { return bary[c[i]] < bary[c[j]] })
		for i, n := range c {
			y[n] = (float64(i) + 0.5) / float64(len(c))
		}
	}
	for range 4 {
		for i := range cols {
			sweep(cols[i])
		}
		for i := len(cols) - 1; i >= 0; i-- {
			sweep(cols[i])
		}
	}
	l := &pathLayout{g: g, pos: make([]Point, g.N()), layers: len(cols)}
	for n := range l.pos {
		x := (float64(col[n]) + 0.5) / float64(len(cols))
		l.pos[n] = Point{x, y[n]}
	}
	pathLayouts.recent = append(pathLayouts.recent, l)
	if len(pathLayouts.recent) > 4 {
		pathLayouts.recent = pathLayouts.recent[1:]
	}
	return l
}

// pathView maps the unit square into the board's rectangle.
type pathView struct {
	box    Rect
	layout *pathLayout
}

func newPathView(r Rect, g *pathgame.Graph) pathView {
	return pathView{box: r.Inset(min(r.W, r.H) * 0.04), layout: layoutGraph(g)}
}

func (v pathView) at(n int) Point {
	p := v.layout.pos[n]
	return Point{v.box.X + p.X*v.box.W, v.box.Y + p.Y*v.box.H}
}

// costStyle is an edge's width and colour for its cost: thin and grey at
// 1; any raise at least a quarter of the way to wide and red, the rest on
// a log scale up to 300 and beyond.
func costStyle(c float64, base float64, th *Theme) (float64, color.RGBA) {
	f := 0.0
	if c > 1 {
		f = 0.25 + 0.75*min(1, math.Log10(c)/2.5)
	}
	return base * (1 + 3*f), Mix(Mix(th.Grid, th.TextDim, 0.5), th.Collision, f)
}

// pathMoment is what a moment of playback shows.
type pathMoment struct {
	k       int
	s, next pathgame.State
	round   pathgame.Round
	f       float64 // progress of the message after s
	moving  bool
}

func pathAt(rec *play.Record, t float64) pathMoment {
	k, f := Moment(rec, t)
	m := pathMoment{k: k, s: rec.State(k).(pathgame.State)}
	m.round = m.s.Round()
	if f > 0 && k+1 < rec.Len() {
		m.next, m.f, m.moving = rec.State(k+1).(pathgame.State), f, true
	}
	return m
}

// Board draws the graph at time t.
func (pathDrawer) Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	m := pathAt(rec, t)
	g := m.s.Graph()
	v := newPathView(r, g)
	unit := max(1, math.Round(min(r.W, r.H)/400))
	nodeR := max(1.5, min(v.box.W, v.box.H)/float64(2*v.layout.layers)/12)
	type key struct {
		r Rect
		g *pathgame.Graph
	}
	Layer(c, "pathgame-graph", key{r, g}, r, func() {
		c.Fill(r, th.Background)
		w, col := costStyle(1, unit, th)
		for _, e := range g.Edges {
			c.Line(v.at(e.A), v.at(e.B), w, Alpha(col, 0.55))
		}
		for n := range g.N() {
			c.Circle(v.at(n), nodeR, th.TextDim)
		}
	})
	costs := m.round.Costs()
	for e, cost := range costs {
		if cost > 1 {
			w, col := costStyle(cost, unit, th)
			ed := g.Edges[e]
			c.Line(v.at(ed.A), v.at(ed.B), w, col)
		}
	}
	// The player's cheapest path to Y now.
	pos := m.round.Pos
	for _, a := range cheapestPath(rec, m) {
		from := pos
		c.Line(v.at(from), v.at(a.To), max(2, unit*2), Alpha(th.Accent, 0.8))
		pos = a.To
	}
	ps := pathgame.PlayerSide(min(m.s.GameNum(), 1))
	// The message being shown: the token slides, a raise pulses.
	tok := v.at(m.round.Pos)
	if m.moving && m.next.GameNum() == m.s.GameNum() {
		if u := m.next.Last(); u != nil && u.Valid {
			nr := m.next.Round()
			if u.Role == pathgame.Player {
				tok = lerp(v.at(m.round.Pos), v.at(nr.Pos), ease(m.f))
			} else if a, okA := g.Node(idOf(u.Edge[0])); okA {
				if b, okB := g.Node(idOf(u.Edge[1])); okB {
					pulse := 0.5 + 0.5*math.Sin(m.f*math.Pi)
					c.Line(v.at(a), v.at(b), max(3, unit*3)*(1+pulse), Alpha(th.Player[ps.Other()], 0.9))
					mid := lerp(v.at(a), v.at(b), 0.5)
					face := Face{Size: math.Round(textSize(c, max(10, min(r.W, r.H)/40))), Style: Bold}
					c.Text(trimCost(u.Cost), mid.X, mid.Y-c.LineHeight(face)*1.2, face, Center, th.Text)
				}
			}
		}
	}
	x, y := v.at(g.X), v.at(g.Y)
	c.Ring(x, nodeR*3, max(1.5, unit*1.5), th.TextDim)
	c.Ring(y, nodeR*3, max(1.5, unit*1.5), th.Mark)
	c.Circle(tok, nodeR*2.6, th.Player[ps])
}

// cheapest keeps the player's cheapest path at the turn last drawn: a
// frame draws the same turn as the frame before, and on a 1,000-node
// graph a Dijkstra a frame is work that turn has already done.
var cheapest struct {
	sync.Mutex
	rec  *play.Record
	k    int
	arcs []pathgame.Arc
}

// cheapestPath is the player's cheapest path to Y at moment m of rec,
// found once a turn.
func cheapestPath(rec *play.Record, m pathMoment) []pathgame.Arc {
	cheapest.Lock()
	defer cheapest.Unlock()
	if cheapest.rec != rec || cheapest.k != m.k || cheapest.arcs == nil {
		var paths pathgame.Paths
		paths.Compute(m.s.Graph(), m.round.Costs())
		cheapest.rec, cheapest.k, cheapest.arcs = rec, m.k, append([]pathgame.Arc{}, paths.Path(m.round.Pos)...)
	}
	return cheapest.arcs
}

// idOf reads a JSON string id, or "".
func idOf(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' {
		return string(raw[1 : len(raw)-1])
	}
	return ""
}

func trimCost(c float64) string {
	if c >= 1e6 {
		return fmt.Sprintf("%.3g", c)
	}
	return fmt.Sprintf("%.2f", c)
}

// Panel writes the roles, the cost so far, the messages left and how the
// games ended.
func (pathDrawer) Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	m := pathAt(rec, t)
	s, round := m.s, m.round
	face := Face{Size: math.Round(textSize(c, min(r.H/6.5, r.W/22))), Style: Regular}
	y := r.Y
	line := func(text string, col color.RGBA) {
		if y < r.Y+r.H {
			y = Wrap(c, text, r.X, y, r.W, face, col)
		}
	}
	game := min(s.GameNum(), 1)
	ps := pathgame.PlayerSide(game)
	g := s.Graph()
	line(fmt.Sprintf("game %d of 2 · %s walks %s → %s, %s raises · %d nodes", game+1, ps, g.IDs[g.X], g.IDs[g.Y], ps.Other(), g.N()), th.Player[ps])
	line(fmt.Sprintf("at %s (k=%d) · paid %s · messages left %d and %d of %d", g.IDs[round.Pos], g.Hops[round.Pos],
		trimCost(round.Cost), round.MoveCap()-round.Msgs[pathgame.Player], round.MoveCap()-round.Msgs[pathgame.Adversary], round.MoveCap()), th.TextDim)
	for i := range 2 {
		if e := s.End(i); e != nil {
			what := "arrived for " + trimCost(e.Cost)
			if !e.Arrived {
				what = fmt.Sprintf("did not arrive (%s): %s", trimCost(e.Cost), e.Why)
			}
			line(fmt.Sprintf("game %d: %s %s", i+1, pathgame.PlayerSide(i), what), th.Text)
		}
	}
	left := clocksLeft(rec, m.k)
	line(fmt.Sprintf("clocks left: %s %.1f s · %s %.1f s", match.P1, left[0].Seconds(), match.P2, left[1].Seconds()), th.TextDim)
	if y < r.Y+r.H {
		y = costLegend(c, r.X, y, r.W, face, th)
	}
	line("the cheapest path to Y now in violet", th.Accent)
}

// clocksLeft is what each side had left of its clock for the game being
// played after k turns: the thinking times the record kept for that game
// (a replay keeps none: clocks then show full).
func clocksLeft(rec *play.Record, k int) [2]time.Duration {
	per := rec.Config.(*pathgame.Config).Clock()
	left := [2]time.Duration{per, per}
	game := rec.State(k).(pathgame.State).GameNum()
	for i := k - 1; i >= 0 && rec.State(i).(pathgame.State).GameNum() == game; i-- {
		for side, d := range rec.Turns[i].Think {
			left[side] -= d
		}
	}
	return [2]time.Duration{max(0, left[0]), max(0, left[1])}
}

// costLegend draws the edge costs' scale: a sample edge for each of a
// few costs, as wide and as red as the board draws it, with its cost. It
// returns the y below it.
func costLegend(c Canvas, x, y, w float64, face Face, th *Theme) float64 {
	lh, right := c.LineHeight(face), x+w
	c.Text("edge cost (log scale)", x, y, face, Left, th.TextDim)
	x += c.TextWidth("edge cost (log scale)", face) + lh
	unit := max(1, math.Round(lh/8))
	for _, sample := range []struct {
		cost  float64
		label string
	}{{1, "1"}, {2, "2"}, {10, "10"}, {100, "100"}, {1000, "300+"}} {
		cost, label := sample.cost, sample.label
		seg := 1.5 * lh
		if x+seg+lh/4+c.TextWidth(label, face) > right {
			break
		}
		lw, col := costStyle(cost, unit, th)
		c.Line(Point{x, y + lh/2}, Point{x + seg, y + lh/2}, lw, col)
		x += seg + lh/4
		c.Text(label, x, y, face, Left, th.TextDim)
		x += c.TextWidth(label, face) + lh/2
	}
	return y + lh
}

// Route marks the shortest path's expected lines as the walker's route
// (a Router): a bot expects its own steps, not an opponent's replies.
func (pathDrawer) Route() {}

// Caption names the game and the message.
func (pathDrawer) Caption(rec *play.Record, t float64) string {
	m := pathAt(rec, t)
	if m.s.GameNum() == 2 {
		return "pairing over"
	}
	side := m.s.ToMove().Side()
	return fmt.Sprintf("game %d · message %d · %s to %s", m.s.GameNum()+1, m.round.Msgs[0]+m.round.Msgs[1]+1, side, m.s.RoleOf(side))
}

// turnEvents marks raises of the player's cheapest path, detours (a step
// off it) and the end of each game.
func (pathDrawer) turnEvents(rec *play.Record, k int) []Event {
	before, after := rec.State(k-1).(pathgame.State), rec.State(k).(pathgame.State)
	if g := before.GameNum(); after.GameNum() != g {
		e := after.End(g)
		kind, label := EventLead, fmt.Sprintf("game %d: arrived for %s", g+1, trimCost(e.Cost))
		if !e.Arrived {
			kind, label = EventForfeit, fmt.Sprintf("game %d: did not arrive (%s)", g+1, e.Why)
		}
		return []Event{{Turn: k, Kind: kind, Side: pathgame.PlayerSide(g), Label: label}}
	}
	u := after.Last()
	if u == nil || !u.Valid {
		return nil
	}
	r := before.Round()
	g := before.Graph()
	var p pathgame.Paths
	p.Compute(g, r.Costs())
	side := before.ToMove().Side()
	if u.Role == pathgame.Player {
		if next := p.Next[r.Pos]; next.To >= 0 && next.To != after.Round().Pos {
			return []Event{{Turn: k, Kind: EventCollision, Side: side, Label: "a detour off the cheapest path"}}
		}
		return nil
	}
	a, _ := g.Node(idOf(u.Edge[0]))
	b, _ := g.Node(idOf(u.Edge[1]))
	for _, arc := range p.Path(r.Pos) {
		if e, ok := g.EdgeBetween(a, b); ok && e == arc.Edge && u.Cost > r.Costs()[e] {
			return []Event{{Turn: k, Kind: EventReplaced, Side: side, Label: "raised the cheapest path to " + trimCost(u.Cost)}}
		}
	}
	return nil
}

// PathBoard is where a graph is drawn in a board rectangle: the
// playground's controls use it to find what a click or the pointer is on.
type PathBoard struct{ v pathView }

// NewPathBoard lays g out in r as Board draws it.
func NewPathBoard(r Rect, g *pathgame.Graph) PathBoard { return PathBoard{newPathView(r, g)} }

// At is node n's centre.
func (b PathBoard) At(n int) Point { return b.v.at(n) }

// NodeAt is the node nearest (x, y) within reach pixels.
func (b PathBoard) NodeAt(g *pathgame.Graph, x, y, reach float64) (int, bool) {
	best, bestD := -1, reach*reach
	for n := range g.N() {
		p := b.v.at(n)
		if d := (p.X-x)*(p.X-x) + (p.Y-y)*(p.Y-y); d <= bestD {
			best, bestD = n, d
		}
	}
	return best, best >= 0
}

// EdgeAt is the edge nearest (x, y) within reach pixels of its segment.
func (b PathBoard) EdgeAt(g *pathgame.Graph, x, y, reach float64) (int, bool) {
	best, bestD := -1, reach*reach
	for e, ed := range g.Edges {
		if d := segmentDist2(b.v.at(ed.A), b.v.at(ed.B), Point{x, y}); d <= bestD {
			best, bestD = e, d
		}
	}
	return best, best >= 0
}

// segmentDist2 is the squared distance from p to the segment ab.
func segmentDist2(a, b, p Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	qx, qy := a.X+t*dx-p.X, a.Y+t*dy-p.Y
	return qx*qx + qy*qy
}

// Spot places a mark on a node or along an edge.
func (pathDrawer) Spot(rec *play.Record, k int, _ match.Side, r Rect, p match.Place) (Spot, bool) {
	g := rec.State(k).(pathgame.State).Graph()
	if p.A >= g.N() || (p.Kind == match.OnEdge && p.B >= g.N()) {
		return Spot{}, false
	}
	v := newPathView(r, g)
	rad := max(4, min(v.box.W, v.box.H)/float64(2*v.layout.layers)/5)
	switch p.Kind {
	case match.OnNode:
		return Spot{At: v.at(p.A), R: rad}, true
	case match.OnEdge:
		a, b := v.at(p.A), v.at(p.B)
		return Spot{At: lerp(a, b, 0.5), R: rad, Seg: true, From: a, To: b}, true
	}
	return Spot{}, false
}

// Unnamed says the board draws no node ids: the layer writes those its
// marks and lines name.
func (pathDrawer) Unnamed() bool { return true }

// PlaceName names a node by its id, an edge by its ends'.
func (pathDrawer) PlaceName(rec *play.Record, k int, _ match.Side, p match.Place) string {
	g := rec.State(k).(pathgame.State).Graph()
	id := func(n int) string {
		if n < g.N() {
			return g.IDs[n]
		}
		return fmt.Sprint(n)
	}
	if p.Kind == match.OnEdge {
		return id(p.A) + "-" + id(p.B)
	}
	return id(p.A)
}
