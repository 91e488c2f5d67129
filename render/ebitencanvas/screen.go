package ebitencanvas

import (
	"hash/maphash"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/render"
)

// Screen is a retained screen. Drawers draw on it as on any canvas, but
// it only records the frame: a list of operations, each with the pixels
// it may touch. Present compares that list with the last frame's and
// redraws only the regions where they differ, over the pixels the screen
// kept from the last frame (the app turns Ebitengine's clearing off).
//
// Why: in the browser's software WebGL (and llvmpipe under Xvfb) a
// frame costs its full-screen passes, not its Go code. A blank
// Ebitengine program pays two (the clear and the copy to the window); a
// view that filled the screen and copied its cached layers paid four.
// With a retained screen, a frame where a clock ticks costs the clock's
// pixels, and a frame where nothing moved costs nothing but Ebitengine's
// own copy.
//
// Two frames draw the same pixels where their operations are the same
// and in the same order (pixels are the same while their bytes are). An
// operation that is new, gone, or drawn in another order relative to
// those it overlaps, damages the pixels it may touch (damageOf), on both
// frames. The damage is redrawn in regions (regions, redraw).
//
// A layer (render.Layers) is kept as the operations its drawing recorded:
// while its name, key and rectangle stay the same they are the frame's
// again without drawing, and when its key changes only those of its
// operations that changed damage the screen (a map whose one region
// took a colour redraws that region).
type Screen struct {
	c    *Canvas
	seed maphash.Seed
	// ops and pts are this frame's record; last and lastPts the one on
	// the screen now.
	ops, last    []op
	pts, lastPts []render.Point
	size         image.Point
	whole        bool // the next Present redraws everything
	layers       map[string]*recordedLayer
	damage       []image.Rectangle
	index        opIndex // this frame's operations by where they draw
	cheapRegions []image.Rectangle
	dearRegions  []image.Rectangle
	bucket       map[uint64][]int32
	matched      []bool
	hashBuf      []byte  // record's bytes to hash, kept between calls
	drawn        float64 // share of the screen the last Present drew
	// Uncached records every layer anew and redraws the whole screen each
	// frame: the reference that BenchmarkDraw measures the screen against.
	Uncached bool
}

// NewScreen returns a screen drawing through c.
func NewScreen(c *Canvas) *Screen {
	return &Screen{c: c, seed: maphash.MakeSeed(), whole: true, layers: map[string]*recordedLayer{}, bucket: map[uint64][]int32{}}
}

// Canvas is the canvas the screen draws through.
func (s *Screen) Canvas() *Canvas { return s.c }

// Forget drops the recorded layers and redraws the whole screen next:
// what a new match shows may share a layer's key with what the last one
// showed.
func (s *Screen) Forget() {
	s.whole = true
	clear(s.layers)
}

// Drawn is the share of the screen's pixels the last Present drew (0 when
// nothing changed, 1 for a whole frame).
func (s *Screen) Drawn() float64 { return s.drawn }

type opKind uint8

const (
	opFill opKind = iota
	opStroke
	opPolyline
	opPolygon
	opCircle
	opRing
	opText
	opPixels
)

// op is one recorded drawing operation.
type op struct {
	kind  opKind
	align render.Align
	face  render.Face
	col   color.RGBA
	r     render.Rect // Fill, Stroke, Pixels; Text's anchor in X, Y
	a, b  float64     // widths and radii; Pixels' opacity in a
	p0    int32       // Polyline and Polygon: pts[p0:p1]
	p1    int32
	s     string          // Text's text
	img   *image.RGBA     // Pixels' image, the same pixels while the same
	box   image.Rectangle // the pixels it may touch
	hash  uint64
}

// same reports whether two recorded operations draw the same pixels.
func (o *op) same(p *op, pts, ppts []render.Point) bool {
	if o.hash != p.hash || o.kind != p.kind || o.align != p.align || o.face != p.face || o.col != p.col ||
		o.r != p.r || o.a != p.a || o.b != p.b || o.s != p.s || o.img != p.img || o.box != p.box ||
		o.p1-o.p0 != p.p1-p.p0 {
		return false
	}
	return slices.Equal(pts[o.p0:o.p1], ppts[p.p0:p.p1])
}

// record appends o, with its box and hash, to the frame. The hash is of
// the operation's fields written out as bytes (see appendFloat); its
// image, compared by same, is left out.
func (s *Screen) record(o op) {
	o.box = o.box.Intersect(image.Rectangle{Max: s.size})
	b := append(s.hashBuf[:0], byte(o.kind), byte(o.align), byte(o.face.Style), o.col.R, o.col.G, o.col.B, o.col.A)
	for _, v := range [...]float64{o.face.Size, o.r.X, o.r.Y, o.r.W, o.r.H, o.a, o.b} {
		b = appendFloat(b, v)
	}
	for _, p := range s.pts[o.p0:o.p1] {
		b = appendFloat(appendFloat(b, p.X), p.Y)
	}
	b = append(b, o.s...)
	s.hashBuf = b
	o.hash = maphash.Bytes(s.seed, b)
	s.ops = append(s.ops, o)
}

// Begin starts recording a frame for a screen of w x h pixels.
func (s *Screen) Begin(w, h int) {
	if (image.Point{w, h}) != s.size {
		s.size = image.Point{w, h}
		s.whole = true
	}
	s.ops, s.last = s.last[:0], s.ops
	s.pts, s.lastPts = s.lastPts[:0], s.pts
}

// Present draws on screen what changed since the last Present.
func (s *Screen) Present(screen *ebiten.Image) {
	s.c.SetTarget(screen)
	damage := s.diff()
	if len(damage) > 0 || s.whole || s.Uncached {
		s.index.build(s.ops, s.size)
	}
	var cheap, dear []image.Rectangle
	if s.whole || s.Uncached {
		dear = append(damage[:0], image.Rectangle{Max: s.size})
		s.whole = false
	} else {
		cheap, dear = s.regions(damage)
	}
	area := 0
	for k, d := range append(cheap, dear...) {
		s.redraw(screen, d, true, k >= len(cheap))
		area += d.Dx() * d.Dy()
	}
	s.drawn = min(1, float64(area)/float64(max(1, s.size.X*s.size.Y)))
	s.c.SetTarget(screen)
	// The frame before keeps no images alive.
	for i := range s.last {
		s.last[i].img = nil
	}
}

// maxDamage is the number of dear regions (see cheap) a frame redraws at
// most: each costs a draw call or a few.
const maxDamage = 64

// diff returns the boxes where this frame's operations differ from the
// last frame's.
func (s *Screen) diff() []image.Rectangle {
	damage := s.damage[:0]
	if len(s.ops) == len(s.last) {
		i := 0
		for i < len(s.ops) && s.ops[i].same(&s.last[i], s.pts, s.lastPts) {
			i++
		}
		if i == len(s.ops) {
			s.damage = damage
			return damage
		}
	}
	clear(s.bucket)
	for j := range s.last {
		s.bucket[s.last[j].hash] = append(s.bucket[s.last[j].hash], int32(j))
	}
	s.matched = append(s.matched[:0], make([]bool, len(s.last))...)
	latest := int32(-1) // the last frame's index of the latest match so far
	for i := range s.ops {
		o := &s.ops[i]
		match := int32(-1)
		for _, j := range s.bucket[o.hash] {
			if !s.matched[j] && o.same(&s.last[j], s.pts, s.lastPts) {
				match = j
				break
			}
		}
		switch {
		case match < 0:
			damage = s.damageOf(o, s.pts, damage)
		case match < latest:
			// Drawn now after an operation it was drawn before: where
			// they overlap the pixels may differ.
			s.matched[match] = true
			damage = s.damageOf(o, s.pts, damage)
		default:
			s.matched[match] = true
			latest = match
		}
	}
	for j := range s.last {
		if !s.matched[j] {
			damage = s.damageOf(&s.last[j], s.lastPts, damage)
		}
	}
	s.damage = damage
	return damage
}

// redraw draws the frame's operations within d, over a cleared d or from
// the last opaque operation that covers it. When none covers d but one
// covers most of it (a board under the cells that changed), d is split
// into that part and the bands around it, so that the board's pixels
// are not first painted with what lies under the board.
//
// A dear region is drawn whole through its scissor, so that what it draws
// goes to the GPU as one draw call (Ebitengine joins draws that share a
// target and a source), not one for each operation crossing its edge.
func (s *Screen) redraw(screen *ebiten.Image, d image.Rectangle, split, dear bool) {
	if d.Empty() {
		return
	}
	over := s.index.over(d, s.ops)
	first := -1
	for k := len(over) - 1; k >= 0; k-- {
		if s.ops[over[k]].covers(d) {
			first = k
			break
		}
	}
	if first < 0 && split {
		if in := s.mostlyCovered(d, over); !in.Empty() {
			// The bands' redraws reuse the index's slice: over is not
			// read again.
			s.redraw(screen, in, false, dear)
			for _, band := range []image.Rectangle{
				{d.Min, image.Pt(d.Max.X, in.Min.Y)}, {image.Pt(d.Min.X, in.Max.Y), d.Max},
				{image.Pt(d.Min.X, in.Min.Y), image.Pt(in.Min.X, in.Max.Y)}, {image.Pt(in.Max.X, in.Min.Y), image.Pt(d.Max.X, in.Max.Y)},
			} {
				s.redraw(screen, band, false, dear)
			}
			return
		}
	}
	clip := screen.SubImage(d).(*ebiten.Image)
	if first < 0 {
		s.c.retarget(clip)
		s.c.clear(clip)
		first = 0
	}
	for _, i := range over[first:] {
		o := &s.ops[i]
		// In a cheap region, what the canvas clips itself, and what lies
		// within the region, are drawn on the whole screen, in batches
		// that run across regions.
		switch {
		case dear:
			s.c.retarget(clip)
		case o.clippable():
			s.c.retarget(screen)
			s.c.clip = d
		case o.box.In(d):
			s.c.retarget(screen)
		default:
			s.c.retarget(clip)
		}
		s.play(o)
	}
	s.c.clip = image.Rectangle{}
}

// mostlyCovered returns the part of d that the largest opaque operation
// over it covers, if that is most of d.
func (s *Screen) mostlyCovered(d image.Rectangle, over []int32) image.Rectangle {
	var best image.Rectangle
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	for _, i := range over {
		if o := &s.ops[i]; o.opaque() {
			if in := o.box.Intersect(d); area(in) > area(best) {
				best = in
			}
		}
	}
	if 2*area(best) < area(d) {
		return image.Rectangle{}
	}
	return best
}

// clippable reports whether the canvas clips o itself (see Canvas.clip).
func (o *op) clippable() bool { return o.kind != opPixels && o.kind != opPolyline }

// opaque reports whether o paints every pixel of its box opaquely.
func (o *op) opaque() bool {
	return o.kind == opPixels && o.a >= 1 || o.kind == opFill && o.col.A == 255
}

// covers reports whether o paints every pixel of d opaquely.
func (o *op) covers(d image.Rectangle) bool { return o.opaque() && d.In(o.box) }

// play draws o through the canvas.
func (s *Screen) play(o *op) {
	c := s.c
	switch o.kind {
	case opFill:
		c.Fill(o.r, o.col)
	case opStroke:
		c.Stroke(o.r, o.a, o.col)
	case opPolyline:
		c.Polyline(s.pts[o.p0:o.p1], o.a, o.col)
	case opPolygon:
		c.Polygon(s.pts[o.p0:o.p1], o.col)
	case opCircle:
		c.Circle(render.Point{X: o.r.X, Y: o.r.Y}, o.a, o.col)
	case opRing:
		c.Ring(render.Point{X: o.r.X, Y: o.r.Y}, o.a, o.b, o.col)
	case opText:
		c.Text(o.s, o.r.X, o.r.Y, o.face, o.align, o.col)
	case opPixels:
		c.Pixels(o.r, o.img, o.a)
	}
}

// box returns the whole pixels r touches, grown by m.
func box(r render.Rect, m float64) image.Rectangle {
	return image.Rect(int(math.Floor(r.X-m)), int(math.Floor(r.Y-m)),
		int(math.Ceil(r.X+r.W+m)), int(math.Ceil(r.Y+r.H+m)))
}

// snapped returns the pixels a snapped rectangle covers.
func snapped(r render.Rect) image.Rectangle {
	x, y, w, h := snap(r)
	return image.Rect(int(x), int(y), int(x+w), int(y+h))
}

// pointsBox returns the pixels around pts, grown by m.
func pointsBox(pts []render.Point, m float64) image.Rectangle {
	if len(pts) == 0 {
		return image.Rectangle{}
	}
	x0, y0, x1, y1 := pts[0].X, pts[0].Y, pts[0].X, pts[0].Y
	for _, p := range pts {
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
	}
	return box(render.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}, m)
}

// addPts copies pts into the frame's record.
func (s *Screen) addPts(pts []render.Point) (int32, int32) {
	p0 := int32(len(s.pts))
	s.pts = append(s.pts, pts...)
	return p0, int32(len(s.pts))
}

// Fill paints a rectangle.
func (s *Screen) Fill(r render.Rect, col color.RGBA) {
	if col.A == 0 {
		return
	}
	s.record(op{kind: opFill, r: r, col: col, box: snapped(r)})
}

// Stroke paints the outline of r, inside it.
func (s *Screen) Stroke(r render.Rect, w float64, col color.RGBA) {
	s.record(op{kind: opStroke, r: r, a: w, col: col, box: box(r, 1)})
}

// Line paints a segment with round ends.
func (s *Screen) Line(a, b render.Point, w float64, col color.RGBA) {
	s.Polyline([]render.Point{a, b}, w, col)
}

// Polyline paints connected segments.
func (s *Screen) Polyline(pts []render.Point, w float64, col color.RGBA) {
	if len(pts) < 2 {
		return
	}
	p0, p1 := s.addPts(pts)
	s.record(op{kind: opPolyline, a: w, col: col, p0: p0, p1: p1, box: pointsBox(pts, w/2+2)})
}

// Polygon fills a closed polygon.
func (s *Screen) Polygon(pts []render.Point, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	p0, p1 := s.addPts(pts)
	s.record(op{kind: opPolygon, col: col, p0: p0, p1: p1, box: pointsBox(pts, 2)})
}

// Circle fills a disc.
func (s *Screen) Circle(o render.Point, r float64, col color.RGBA) {
	s.record(op{kind: opCircle, r: render.Rect{X: o.X, Y: o.Y}, a: r, col: col,
		box: box(render.Rect{X: o.X - r, Y: o.Y - r, W: 2 * r, H: 2 * r}, 3)})
}

// Ring paints a circle's outline.
func (s *Screen) Ring(o render.Point, r, w float64, col color.RGBA) {
	p := r + w
	s.record(op{kind: opRing, r: render.Rect{X: o.X, Y: o.Y}, a: r, b: w, col: col,
		box: box(render.Rect{X: o.X - p, Y: o.Y - p, W: 2 * p, H: 2 * p}, 3)})
}

// Text writes one line whose box has its top at y and is aligned on x.
func (s *Screen) Text(str string, x, y float64, f render.Face, align render.Align, col color.RGBA) {
	if str == "" || col.A == 0 {
		return
	}
	w := s.c.TextWidth(str, f)
	left := math.Round(x)
	switch align {
	case render.Center:
		left -= w / 2
	case render.Right:
		left -= w
	}
	// Glyphs may reach past their advance (italics, accents, a j's tail).
	m := f.Size/4 + 2
	s.record(op{kind: opText, s: str, r: render.Rect{X: x, Y: y}, face: f, align: align, col: col,
		box: box(render.Rect{X: left, Y: math.Round(y), W: w, H: s.c.LineHeight(f)}, m)})
}

// TextWidth measures a line of text.
func (s *Screen) TextWidth(str string, f render.Face) float64 { return s.c.TextWidth(str, f) }

// LineHeight is the height of a line of text in face f.
func (s *Screen) LineHeight(f render.Face) float64 { return s.c.LineHeight(f) }

// MinTextSize is the smallest text size drawers may use.
func (s *Screen) MinTextSize() float64 { return s.c.MinTextSize() }

// Pixels draws a small opaque image scaled to fill r, with opacity alpha.
// An image is known by its address, not its bytes: it must not change
// once drawn, so the same image is the same pixels, and a new one (a Life
// turn's next board, 2 MB at 4096x4096) costs no hashing.
func (s *Screen) Pixels(r render.Rect, img *image.RGBA, alpha float64) {
	sz := img.Rect.Size()
	if sz.X == 0 || sz.Y == 0 || alpha <= 0 {
		return
	}
	s.record(op{kind: opPixels, r: r, a: min(alpha, 1), img: img, box: snapped(r)})
}

// recordedLayer is a layer's record: the operations its drawing recorded for
// key and r, with their points.
type recordedLayer struct {
	key any
	r   render.Rect
	ops []op
	pts []render.Point
}

// Layer adds to the frame what draw draws within r: the operations it
// recorded the last time, if key and r are the same, without drawing.
func (s *Screen) Layer(name string, key any, r render.Rect, draw func()) {
	l := s.layers[name]
	if l != nil && l.key == key && l.r == r && !s.Uncached {
		base := int32(len(s.pts))
		s.pts = append(s.pts, l.pts...)
		for _, o := range l.ops {
			if o.p1 > o.p0 {
				o.p0, o.p1 = o.p0+base, o.p1+base
			}
			s.ops = append(s.ops, o)
		}
		return
	}
	if l == nil {
		l = &recordedLayer{}
		s.layers[name] = l
	}
	first, base := len(s.ops), int32(len(s.pts))
	draw()
	l.key, l.r = key, r
	l.pts = append(l.pts[:0], s.pts[base:]...)
	l.ops = append(l.ops[:0], s.ops[first:]...)
	for i := range l.ops {
		if o := &l.ops[i]; o.p1 > o.p0 {
			o.p0, o.p1 = o.p0-base, o.p1-base
		}
	}
}

var (
	_ render.Canvas    = (*Screen)(nil)
	_ render.Layers    = (*Screen)(nil)
	_ render.TextFloor = (*Screen)(nil)
)
