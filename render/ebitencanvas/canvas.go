// Package ebitencanvas is the screen back end of render.Canvas: it draws
// on an *ebiten.Image with Ebitengine's vector package and glyphs drawn as text/v2 draws them, with
// the same Go fonts and metrics as the software back end, so that layouts
// computed with one hold on the other.
//
// It imports ebiten, so its tests need a display (run them under Xvfb).
package ebitencanvas

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/arena-playground/arena/render"
)

// Canvas draws on a target image, set each frame with SetTarget. It keeps
// font faces and their glyphs (in one atlas with the white block fills
// are drawn from, so that text, fills and lines go out as one batch),
// uploaded pixel images and shapes between frames; it keeps
// no layers (a Screen drawing through it does); it is not safe for
// concurrent use.
//
// It never asks Ebitengine to antialias: in v2.8 an antialiased draw goes
// through an offscreen twice the screen's size, flushed each time plain
// and antialiased draws alternate, which took a frame to 500 ms in the
// browser's software WebGL. Antialiased shapes (polygons, discs, rings)
// are instead rasterised once by the software back end into small white
// textures, cached by shape, and drawn as images tinted to their colour;
// lines are drawn without antialiasing.
type Canvas struct {
	dst    *ebiten.Image
	faces  map[render.Face]*face
	pixels [maxPixels]uploaded  // the images Pixels drew lately (see Pixels)
	next   int                  // pixels' oldest entry
	shapes map[string]glyphSlot // by key (see shape), in the atlas's generation shapesGen
	// shapesGen is the atlas generation the shapes were placed in.
	shapesGen int
	key       []byte // the shape's key being written (see appendQuarter)
	// strokes keeps the polylines' triangles (see stroke), by a hash
	// of their points and width; oldStrokes, the generation before, from
	// which a stroke drawn again is taken back.
	strokes, oldStrokes map[uint64]*stroke
	atlas               *atlas // the white block and the glyphs (see atlas)
	path                vector.Path
	vs                  []ebiten.Vertex
	is                  []uint16
	// batch holds the triangles of the fills and lines drawn since the
	// last other drawing, drawn as one DrawTriangles call by flush: each
	// call costs Ebitengine's layers more than its vertices do.
	batch   []ebiten.Vertex
	batchIs []uint16
	// calls counts the draw calls made (see Calls).
	calls int
	// clip, when not empty, clips rectangles, shapes and text (all but
	// lines and pixel images) on the CPU: a Screen redrawing regions of the
	// screen clips them itself, not with the GPU's scissor, so that all
	// the regions' drawing is one batch (a scissor is a draw call of its
	// own). Rectangles, shapes and glyphs lie on whole pixels: clipped, they draw
	// the same pixels within the clip. A line's triangles cut at the
	// clip would not: their edges, recomputed, break ties at pixel
	// centres differently.
	clip image.Rectangle
	// MinText is the smallest text size drawers may use, in pixels (see
	// render.TextFloor); 0 sets none.
	MinText float64
}

// maxShapes bounds the shape cache; it is emptied when full.
const maxShapes = 512

// maxPixels is how many images Pixels keeps on the GPU: a Life turn's
// animation draws two a frame, for all its frames, and the next turn
// keeps one of them.
const maxPixels = 4

// uploaded is an image Pixels drew, and its copy on the GPU.
type uploaded struct {
	img *image.RGBA
	gpu *ebiten.Image
}

// New returns a canvas with no target yet.
func New() *Canvas {
	return &Canvas{faces: map[render.Face]*face{}, shapes: map[string]glyphSlot{}, strokes: map[uint64]*stroke{}, atlas: newAtlas()}
}

// MinTextSize is the smallest text size drawers may use.
func (c *Canvas) MinTextSize() float64 { return c.MinText }

// SetTarget sets the image drawn on, after drawing on the last one what
// was batched for it.
func (c *Canvas) SetTarget(dst *ebiten.Image) {
	c.flush()
	c.dst = dst
}

// retarget draws on dst from now on (a clipped part of the target),
// after what was batched for the last one.
func (c *Canvas) retarget(dst *ebiten.Image) {
	if dst != c.dst {
		c.flush()
		c.dst = dst
	}
}

// Flush draws what the canvas batched: call it before reading the
// target's pixels.
func (c *Canvas) Flush() { c.flush() }

func (c *Canvas) flush() {
	if len(c.batchIs) == 0 {
		return
	}
	c.dst.DrawTriangles(c.batch, c.batchIs, c.atlas.img, &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha})
	c.batch, c.batchIs = c.batch[:0], c.batchIs[:0]
	c.calls++
}

// clear clears img, a draw call of its own.
func (c *Canvas) clear(img *ebiten.Image) {
	img.Clear()
	c.calls++
}

// Calls is the number of draw calls the canvas has made to Ebitengine:
// each costs its layers and the browser's WebGL more than its vertices
// do, so a frame's count is what batching is measured by.
func (c *Canvas) Calls() int { return c.calls }

// maxBatch is the number of vertices a batch holds at most (DrawTriangles
// takes 16-bit indices).
const maxBatch = 1 << 14

var _ render.Canvas = (*Canvas)(nil)

func nrgba(c color.RGBA) color.NRGBA { return color.NRGBA(c) }

// snap rounds a rectangle to whole pixels, as the software back end does.
func snap(r render.Rect) (x, y, w, h float32) {
	x0, y0 := math.Round(r.X), math.Round(r.Y)
	return float32(x0), float32(y0), float32(math.Round(r.X+r.W) - x0), float32(math.Round(r.Y+r.H) - y0)
}

// Fill paints a rectangle.
func (c *Canvas) Fill(r render.Rect, col color.RGBA) {
	x, y, w, h := snap(r)
	if !c.clip.Empty() {
		in := image.Rect(int(x), int(y), int(x+w), int(y+h)).Intersect(c.clip)
		x, y, w, h = float32(in.Min.X), float32(in.Min.Y), float32(in.Dx()), float32(in.Dy())
	}
	if w <= 0 || h <= 0 || col.A == 0 {
		return
	}
	c.vs = append(c.vs[:0],
		ebiten.Vertex{DstX: x, DstY: y}, ebiten.Vertex{DstX: x + w, DstY: y},
		ebiten.Vertex{DstX: x, DstY: y + h}, ebiten.Vertex{DstX: x + w, DstY: y + h})
	c.is = append(c.is[:0], 0, 1, 2, 1, 2, 3)
	c.triangles(c.vs, c.is, col)
}

// Stroke paints the outline of r, inside it.
func (c *Canvas) Stroke(r render.Rect, w float64, col color.RGBA) {
	for _, side := range outline(r, w) {
		c.Fill(side, col)
	}
}

// outline returns the four rectangles of r's outline w wide, inside it:
// the top and bottom sides, then the left and right ones between them.
func outline(r render.Rect, w float64) [4]render.Rect {
	return [4]render.Rect{{X: r.X, Y: r.Y, W: r.W, H: w}, {X: r.X, Y: r.Y + r.H - w, W: r.W, H: w},
		{X: r.X, Y: r.Y + w, W: w, H: r.H - 2*w}, {X: r.X + r.W - w, Y: r.Y + w, W: w, H: r.H - 2*w}}
}

// Line paints a segment with round ends, without antialiasing.
func (c *Canvas) Line(a, b render.Point, w float64, col color.RGBA) {
	c.Polyline([]render.Point{a, b}, w, col)
}

// Polyline paints connected segments with round joins, without
// antialiasing (charts change every frame: caching would not pay).
func (c *Canvas) Polyline(pts []render.Point, w float64, col color.RGBA) {
	if len(pts) < 2 {
		return
	}
	st := c.stroke(pts, w)
	c.triangles(st.vs, st.is, col)
}

// A stroke is a polyline's triangles, as Ebitengine's stroker made them.
type stroke struct {
	pts []render.Point
	w   float64
	vs  []ebiten.Vertex
	is  []uint16
}

// maxStrokes bounds a generation of the stroke cache: when one is full,
// it becomes the old one and the one before is dropped, so that a frame
// of up to maxStrokes polylines (the shortest path's gen-1000 graph has
// 4,699 edges) finds every one again in the next, and the cache holds
// at most twice as many.
const maxStrokes = 8192

// stroke returns the triangles of a polyline w wide, with round joins
// and caps, made once: a kept screen draws the same polylines again each
// frame a region they cross changes (the shortest-path view's edges),
// and the stroker's arcs cost more than drawing them.
func (c *Canvas) stroke(pts []render.Point, w float64) *stroke {
	key := strokeKey(pts, w)
	if st, ok := c.strokes[key]; ok && st.w == w && slices.Equal(st.pts, pts) {
		return st
	}
	if st, ok := c.oldStrokes[key]; ok && st.w == w && slices.Equal(st.pts, pts) {
		c.keepStroke(key, st)
		return st
	}
	st := &stroke{pts: slices.Clone(pts), w: w}
	if len(pts) == 2 && pts[0] != pts[1] {
		st.vs, st.is = segment(pts[0], pts[1], w/2)
	} else {
		st.vs, st.is = c.strokePath(pts, w)
	}
	c.keepStroke(key, st)
	return st
}

// strokePath is Ebitengine's stroke of a polyline w wide, with round
// joins and caps.
func (c *Canvas) strokePath(pts []render.Point, w float64) ([]ebiten.Vertex, []uint16) {
	c.path = vector.Path{}
	c.path.MoveTo(float32(pts[0].X), float32(pts[0].Y))
	for _, p := range pts[1:] {
		c.path.LineTo(float32(p.X), float32(p.Y))
	}
	return c.path.AppendVerticesAndIndicesForStroke(nil, nil, &vector.StrokeOptions{
		Width: float32(w), LineCap: vector.LineCapRound, LineJoin: vector.LineJoinRound})
}

// segment is the triangles of one segment from a to b, r either side,
// with round caps: a quad and a fan of k triangles at each end, k the
// fewest that keep each cap within a quarter pixel of its circle.
// Ebitengine's stroker makes the same shape from Bézier arcs flattened
// and filled, which costs some five times as much (BenchmarkSegment):
// the shortest path's gen-1000 graph strokes 4,699 edges on its first
// frame.
func segment(a, b render.Point, r float64) ([]ebiten.Vertex, []uint16) {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	nx, ny := -dy/l*r, dx/l*r // the normal, r long
	k := 2
	if r > 0.25 {
		k = min(max(k, int(math.Ceil(math.Pi/(2*math.Acos(1-0.25/r))))), 32)
	}
	vs := make([]ebiten.Vertex, 0, 4+2*(k+2))
	is := make([]uint16, 0, 6+6*k)
	at := func(x, y float64) uint16 {
		vs = append(vs, ebiten.Vertex{DstX: float32(x), DstY: float32(y)})
		return uint16(len(vs) - 1)
	}
	q0, q1, q2, q3 := at(a.X+nx, a.Y+ny), at(b.X+nx, b.Y+ny), at(b.X-nx, b.Y-ny), at(a.X-nx, a.Y-ny)
	is = append(is, q0, q1, q2, q0, q2, q3)
	// The cap at a turns from +n through -d to -n; b's from -n through d.
	from := math.Atan2(ny, nx)
	for _, c := range []struct {
		p     render.Point
		start float64
	}{{a, from}, {b, from + math.Pi}} {
		centre := at(c.p.X, c.p.Y)
		prev := at(c.p.X+r*math.Cos(c.start), c.p.Y+r*math.Sin(c.start))
		for i := 1; i <= k; i++ {
			phi := c.start + math.Pi*float64(i)/float64(k)
			next := at(c.p.X+r*math.Cos(phi), c.p.Y+r*math.Sin(phi))
			is = append(is, centre, prev, next)
			prev = next
		}
	}
	return vs, is
}

// keepStroke keeps st in the newest generation, which ages when full.
func (c *Canvas) keepStroke(key uint64, st *stroke) {
	if len(c.strokes) >= maxStrokes {
		c.oldStrokes, c.strokes = c.strokes, make(map[uint64]*stroke, maxStrokes)
	}
	c.strokes[key] = st
}

// strokeKey is the cache's key of a polyline w wide, hashed from its
// numbers written as bytes (see appendFloat).
func strokeKey(pts []render.Point, w float64) uint64 {
	var buf [512]byte // a chart's polyline of up to 31 points, on the stack
	b := buf[:0]
	for _, p := range pts {
		b = appendFloat(appendFloat(b, p.X), p.Y)
	}
	return maphash.Bytes(strokeSeed, appendFloat(b, w))
}

// appendFloat writes v's bits to b, to be hashed with the rest:
// maphash.WriteComparable looks up each value's type as it hashes it,
// which cost more than the rest of recording a frame in the page.
func appendFloat(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

var strokeSeed = maphash.MakeSeed()

// Polygon fills a closed polygon, antialiased, from the shape cache.
func (c *Canvas) Polygon(pts []render.Point, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	x0, y0, x1, y1 := pts[0].X, pts[0].Y, pts[0].X, pts[0].Y
	for _, p := range pts {
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
	}
	ox, oy := math.Floor(x0), math.Floor(y0)
	key := append(c.key[:0], 'p')
	for _, p := range pts {
		key = appendQuarter(key, quarter(p.X-ox))
		key = appendQuarter(key, quarter(p.Y-oy))
	}
	c.key = key
	c.shape(key, ox, oy, int(math.Ceil(x1-ox))+1, int(math.Ceil(y1-oy))+1, col, func(m *render.Image) {
		rel := make([]render.Point, len(pts))
		for i, p := range pts {
			rel[i] = render.Point{X: quarter(p.X - ox), Y: quarter(p.Y - oy)}
		}
		m.Polygon(rel, color.RGBA{255, 255, 255, 255})
	})
}

// appendQuarter writes a number of a shape's key, a whole number of
// quarters, as a varint. A shape is looked up by its key every time it is
// drawn (a frame of a match draws hundreds): the key is bytes, not text,
// as formatting floats was most of a polygon's cost in the page.
func appendQuarter(key []byte, v float64) []byte {
	return binary.AppendVarint(key, int64(math.Round(v*4)))
}

// quarter rounds to a quarter pixel: finer than the eye sees, coarse
// enough for shapes to repeat in the cache.
func quarter(v float64) float64 { return math.Round(v*4) / 4 }

// shape draws a cached white shape at (x, y) tinted col, rasterising it
// with draw into a w x h image the first time.
func (c *Canvas) shape(key []byte, x, y float64, w, h int, col color.RGBA, draw func(m *render.Image)) {
	if w <= 0 || h <= 0 || col.A == 0 {
		return
	}
	if c.shapesGen != c.atlas.gen { // the atlas was emptied since
		c.forgetShapes()
	}
	slot, ok := c.shapes[string(key)]
	if !ok {
		if len(c.shapes) >= maxShapes {
			c.forgetShapes()
		}
		m := render.NewImage(w, h)
		draw(m)
		slot = c.place(m.RGBA, w*h <= maxShapeArea)
		c.shapes[string(key)] = slot
	}
	at := image.Pt(int(x), int(y))
	c.drawSlot(slot, image.Rectangle{at, at.Add(image.Pt(w, h))}, col)
}

// maxShapeArea is the largest shape, in pixels, kept in the atlas; a
// larger one (a map's region) has an image of its own, so that a few
// of them cannot fill the atlas frame after frame.
const maxShapeArea = 96 * 96

// place puts a white mask in the atlas when inAtlas and it fits, emptying
// the atlas once if it is full (what is batched from it drawn first), and
// in an image of its own otherwise.
func (c *Canvas) place(m *image.RGBA, inAtlas bool) glyphSlot {
	if !inAtlas || !fits(m.Rect.Dx(), m.Rect.Dy()) {
		return glyphSlot{big: ebiten.NewImageFromImage(m)}
	}
	at, ok := c.atlas.place(m)
	if !ok {
		c.flush()
		c.atlas.empty()
		c.forgetShapes()
		at, _ = c.atlas.place(m)
	}
	return glyphSlot{at: at}
}

// forgetShapes empties the shape cache.
func (c *Canvas) forgetShapes() {
	for k, old := range c.shapes {
		if old.big != nil {
			old.big.Deallocate()
		}
		delete(c.shapes, k)
	}
	c.shapesGen = c.atlas.gen
}

// drawSlot draws a white mask tinted col over the pixels dst, within the
// clip when there is one: from the atlas into the batch, or on its own.
func (c *Canvas) drawSlot(slot glyphSlot, dst image.Rectangle, col color.RGBA) {
	in := dst
	if !c.clip.Empty() {
		in = dst.Intersect(c.clip)
		if in.Empty() {
			return
		}
	}
	if slot.big == nil {
		src := slot.at.Add(in.Min.Sub(dst.Min))
		c.sprite(image.Rectangle{src.Min, src.Min.Add(in.Size())}, in.Min.X, in.Min.Y, col)
		return
	}
	img := slot.big.SubImage(in.Sub(dst.Min)).(*ebiten.Image)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(in.Min.X), float64(in.Min.Y))
	op.ColorScale.ScaleWithColor(nrgba(col))
	c.flush()
	c.dst.DrawImage(img, op)
	c.calls++
}

// Circle fills a disc, antialiased, from the shape cache.
func (c *Canvas) Circle(o render.Point, r float64, col color.RGBA) {
	ox, oy := math.Floor(o.X-r), math.Floor(o.Y-r)
	cx, cy, rr := quarter(o.X-ox), quarter(o.Y-oy), quarter(r)
	n := int(math.Ceil(2*r)) + 2
	c.key = appendQuarter(appendQuarter(appendQuarter(append(c.key[:0], 'c'), cx), cy), rr)
	c.shape(c.key, ox, oy, n, n, col,
		func(m *render.Image) { m.Circle(render.Point{X: cx, Y: cy}, rr, color.RGBA{255, 255, 255, 255}) })
}

// Ring paints a circle's outline, antialiased, from the shape cache.
func (c *Canvas) Ring(o render.Point, r, w float64, col color.RGBA) {
	pad := r + w
	ox, oy := math.Floor(o.X-pad), math.Floor(o.Y-pad)
	cx, cy, rr, ww := quarter(o.X-ox), quarter(o.Y-oy), quarter(r), quarter(w)
	n := int(math.Ceil(2*pad)) + 2
	c.key = appendQuarter(appendQuarter(appendQuarter(appendQuarter(append(c.key[:0], 'r'), cx), cy), rr), ww)
	c.shape(c.key, ox, oy, n, n, col,
		func(m *render.Image) { m.Ring(render.Point{X: cx, Y: cy}, rr, ww, color.RGBA{255, 255, 255, 255}) })
}

func (c *Canvas) face(f render.Face) *face {
	ff, ok := c.faces[f]
	if !ok {
		ff = newFace(f)
		c.faces[f] = ff
	}
	return ff
}

// Text writes one line with the top of its box at y.
func (c *Canvas) Text(s string, x, y float64, f render.Face, align render.Align, col color.RGBA) {
	ff := c.face(f)
	x, y = math.Round(x), math.Round(y)
	switch align {
	case render.Center:
		x -= ff.advance(s) / 2
	case render.Right:
		x -= ff.advance(s)
	}
	ff.draw(c, s, x, y, col)
}

// TextWidth measures a line of text.
func (c *Canvas) TextWidth(s string, f render.Face) float64 { return c.face(f).advance(s) }

// LineHeight is the height of a line of text.
func (c *Canvas) LineHeight(f render.Face) float64 { return c.face(f).lineHeight() }

// Pixels draws img scaled to fill r with nearest-neighbour filtering, with
// opacity alpha. The last few images drawn are kept on the GPU by their
// address (an image must not change once drawn): a frame that draws them
// again uploads nothing.
func (c *Canvas) Pixels(r render.Rect, img *image.RGBA, alpha float64) {
	size := img.Rect.Size()
	if size.X == 0 || size.Y == 0 || alpha <= 0 {
		return
	}
	x, y, w, h := snap(r)
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterNearest}
	op.GeoM.Scale(float64(w)/float64(size.X), float64(h)/float64(size.Y))
	op.GeoM.Translate(float64(x), float64(y))
	op.ColorScale.ScaleAlpha(float32(min(alpha, 1)))
	c.flush()
	c.dst.DrawImage(c.upload(img), op)
	c.calls++
}

// upload returns img's copy on the GPU, made if it is not kept.
func (c *Canvas) upload(img *image.RGBA) *ebiten.Image {
	for _, u := range c.pixels {
		if u.img == img {
			return u.gpu
		}
	}
	u := &c.pixels[c.next]
	c.next = (c.next + 1) % maxPixels
	size := img.Rect.Size()
	if u.gpu == nil || u.gpu.Bounds().Size() != size {
		if u.gpu != nil {
			u.gpu.Deallocate()
		}
		u.gpu = ebiten.NewImage(size.X, size.Y)
	}
	u.gpu.WritePixels(img.Pix)
	u.img = img
	return u.gpu
}

// sprite adds the atlas's pixels at src, drawn at (x, y) tinted col, to
// the batch.
func (c *Canvas) sprite(src image.Rectangle, x, y int, col color.RGBA) {
	if len(c.batch)+4 > maxBatch {
		c.flush()
	}
	r, g, b, a := nrgba(col).RGBA()
	cr, cg, cb, ca := float32(r)/0xffff, float32(g)/0xffff, float32(b)/0xffff, float32(a)/0xffff
	w, h := src.Dx(), src.Dy()
	base := uint16(len(c.batch))
	for _, d := range [4]image.Point{{0, 0}, {w, 0}, {0, h}, {w, h}} {
		c.batch = append(c.batch, ebiten.Vertex{DstX: float32(x + d.X), DstY: float32(y + d.Y),
			SrcX: float32(src.Min.X + d.X), SrcY: float32(src.Min.Y + d.Y), ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca})
	}
	c.batchIs = append(c.batchIs, base, base+1, base+2, base+1, base+2, base+3)
}

// triangles adds vs and is, in one colour, to the batch.
func (c *Canvas) triangles(vs []ebiten.Vertex, is []uint16, col color.RGBA) {
	if len(c.batch)+len(vs) > maxBatch {
		c.flush()
	}
	r, g, b, a := nrgba(col).RGBA()
	base := uint16(len(c.batch))
	for _, v := range vs {
		v.SrcX, v.SrcY = whiteAt, whiteAt
		v.ColorR, v.ColorG = float32(r)/0xffff, float32(g)/0xffff
		v.ColorB, v.ColorA = float32(b)/0xffff, float32(a)/0xffff
		c.batch = append(c.batch, v)
	}
	for _, i := range is {
		c.batchIs = append(c.batchIs, base+i)
	}
}
