package ebitencanvas

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/arena-playground/arena/render"
)

// face is a font face and the images of its glyphs, drawn as Ebitengine's
// text/v2 draws a GoXFace: each glyph rasterised once for each of a few
// sub-pixel offsets and drawn at whole pixels. text/v2 is not linked for
// it: it brings go-text/typesetting, which registers TIFF, JPEG and PNG
// decoders and language tables, 150 KB of the page's first load for a
// face the page never uses.
type face struct {
	f          font.Face
	m          font.Metrics
	variations fixed.Int26_6 // sub-pixel positions a glyph is drawn at
	// glyphs are where the canvas's atlas holds each glyph drawn, in the
	// atlas's generation gen.
	glyphs map[glyphKey]glyphSlot
	gen    int
	// metrics are each rune's bounds and advance, found once: freetype
	// loads and hints the glyph again on every GlyphBounds and
	// GlyphAdvance, which made text 70% of a frame's Go time. ASCII's
	// are kept in an array (found says which), the rest in the map: a
	// map's lookup a character was a tenth of measuring a frame's text.
	ascii   [128]glyphMetric
	found   [128]bool
	metrics map[rune]glyphMetric
}

// glyphMetric is a rune's bounds and advance in a face.
type glyphMetric struct {
	bounds  fixed.Rectangle26_6
	advance fixed.Int26_6
}

// metric is r's bounds and advance, from the cache.
func (fc *face) metric(r rune) glyphMetric {
	if r >= 0 && r < 128 {
		if !fc.found[r] {
			fc.ascii[r], fc.found[r] = fc.glyphMetric(r), true
		}
		return fc.ascii[r]
	}
	if g, ok := fc.metrics[r]; ok {
		return g
	}
	g := fc.glyphMetric(r)
	fc.metrics[r] = g
	return g
}

// glyphMetric asks the font for r's bounds and advance.
func (fc *face) glyphMetric(r rune) glyphMetric {
	b, adv, _ := fc.f.GlyphBounds(r)
	return glyphMetric{b, adv}
}

// glyphSlot is where a white mask's pixels are (a glyph's, a shape's): a
// rectangle of the atlas (empty for a glyph with none, such as a space),
// or an image of its own for one too large for it.
type glyphSlot struct {
	at  image.Rectangle
	big *ebiten.Image
}

// size is the slot's pixels' size (zero for none).
func (g glyphSlot) size() image.Point {
	if g.big != nil {
		return g.big.Bounds().Size()
	}
	return g.at.Size()
}

// glyphKey is a glyph at one of its sub-pixel offsets.
type glyphKey struct {
	r       rune
	xoffset fixed.Int26_6
}

func newFace(f render.Face) *face {
	ff := render.NewFace(f)
	m := ff.Metrics()
	// As text/v2: the smaller the text, the more offsets (its thresholds).
	n := fixed.Int26_6(1)
	switch s := fixed26_6ToFloat64(m.Ascent + m.Descent); {
	case s < 20:
		n = 8
	case s < 40:
		n = 4
	case s < 80:
		n = 2
	}
	return &face{f: ff, m: m, variations: n, glyphs: map[glyphKey]glyphSlot{}, metrics: map[rune]glyphMetric{}}
}

func fixed26_6ToFloat64(x fixed.Int26_6) float64 { return float64(x) / (1 << 6) }

func float64ToFixed26_6(x float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(x * (1 << 6))) }

// advance is the width of a line: the glyphs' advances and kerning, as
// font.MeasureString adds them.
func (fc *face) advance(s string) float64 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += fc.f.Kern(prev, r)
		}
		w += fc.metric(r).advance
		prev = r
	}
	return fixed26_6ToFloat64(w)
}

// lineHeight is the height of a line: ascent, descent and line gap.
func (fc *face) lineHeight() float64 { return fixed26_6ToFloat64(fc.m.Height) }

// draw writes s with the top of its line at y and its start at x, its
// glyphs added to c's batch from the atlas.
func (fc *face) draw(c *Canvas, s string, x, y float64, col color.RGBA) {
	origin := fixed.Point26_6{X: float64ToFixed26_6(x), Y: float64ToFixed26_6(y) + fc.m.Ascent}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			origin.X += fc.f.Kern(prev, r)
		}
		g, ix, iy, adv := fc.glyph(c, r, origin)
		if size := g.size(); size != (image.Point{}) {
			at := image.Pt(ix, iy)
			c.drawSlot(g, image.Rectangle{at, at.Add(size)}, col)
		}
		origin.X += adv
		prev = r
	}
}

// glyph returns where r's pixels are, drawn at origin, where to put their
// top left, and r's advance.
func (fc *face) glyph(c *Canvas, r rune, origin fixed.Point26_6) (glyphSlot, int, int, fixed.Int26_6) {
	factor := (1 << 6) / fc.variations
	origin.X = origin.X / factor * factor
	origin.Y &^= (1 << 6) - 1
	g := fc.metric(r)
	b, adv := g.bounds, g.advance
	sub := fixed.Point26_6{X: (origin.X + b.Min.X) & ((1 << 6) - 1), Y: (origin.Y + b.Min.Y) & ((1 << 6) - 1)}
	key := glyphKey{r: r, xoffset: sub.X}
	fc.sync(c)
	slot, ok := fc.glyphs[key]
	if !ok {
		slot = fc.rasterise(c, r, sub, b)
		fc.glyphs[key] = slot
	}
	return slot, (origin.X + b.Min.X).Floor(), (origin.Y + b.Min.Y).Floor(), adv
}

// rasterise draws r, white, at a sub-pixel offset into an image of its
// bounds and one pixel more (text/v2's margin for the offset), and places
// it in the atlas. An atlas with no room left is emptied (what is batched
// from it drawn first) and every face places its glyphs again.
func (fc *face) rasterise(c *Canvas, r rune, sub fixed.Point26_6, b fixed.Rectangle26_6) glyphSlot {
	w, h := (b.Max.X - b.Min.X).Ceil(), (b.Max.Y - b.Min.Y).Ceil()
	if w == 0 || h == 0 {
		return glyphSlot{}
	}
	rgba := image.NewRGBA(image.Rect(0, 0, w+1, h+1))
	d := font.Drawer{Dst: rgba, Src: image.White, Face: fc.f,
		Dot: fixed.Point26_6{X: -b.Min.X + sub.X, Y: -b.Min.Y + sub.Y}}
	d.DrawString(string(r))
	slot := c.place(rgba, true)
	fc.sync(c) // placing it may have emptied the atlas
	return slot
}

// sync forgets the face's glyphs if c's atlas was emptied since they were
// placed.
func (fc *face) sync(c *Canvas) {
	if fc.gen != c.atlas.gen {
		clear(fc.glyphs)
		fc.gen = c.atlas.gen
	}
}
