package ebitencanvas

import (
	"image"
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
	glyphs     map[glyphKey]*ebiten.Image
	// metrics are each rune's bounds and advance, found once: freetype
	// loads and hints the glyph again on every GlyphBounds and
	// GlyphAdvance, which made text 70% of a frame's Go time.
	metrics map[rune]glyphMetric
}

// glyphMetric is a rune's bounds and advance in a face.
type glyphMetric struct {
	bounds  fixed.Rectangle26_6
	advance fixed.Int26_6
}

// metric is r's bounds and advance, from the cache.
func (fc *face) metric(r rune) glyphMetric {
	if g, ok := fc.metrics[r]; ok {
		return g
	}
	b, adv, _ := fc.f.GlyphBounds(r)
	g := glyphMetric{b, adv}
	fc.metrics[r] = g
	return g
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
	return &face{f: ff, m: m, variations: n, glyphs: map[glyphKey]*ebiten.Image{}, metrics: map[rune]glyphMetric{}}
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

// draw writes s with the top of its line at y and its start at x.
func (fc *face) draw(dst *ebiten.Image, s string, x, y float64, cs ebiten.ColorScale) {
	origin := fixed.Point26_6{X: float64ToFixed26_6(x), Y: float64ToFixed26_6(y) + fc.m.Ascent}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			origin.X += fc.f.Kern(prev, r)
		}
		img, ix, iy, adv := fc.glyph(r, origin)
		if img != nil {
			op := &ebiten.DrawImageOptions{ColorScale: cs}
			op.GeoM.Translate(float64(ix), float64(iy))
			dst.DrawImage(img, op)
		}
		origin.X += adv
		prev = r
	}
}

// glyph returns the image of r drawn at origin, where to put its top
// left, and its advance.
func (fc *face) glyph(r rune, origin fixed.Point26_6) (*ebiten.Image, int, int, fixed.Int26_6) {
	factor := (1 << 6) / fc.variations
	origin.X = origin.X / factor * factor
	origin.Y &^= (1 << 6) - 1
	g := fc.metric(r)
	b, adv := g.bounds, g.advance
	sub := fixed.Point26_6{X: (origin.X + b.Min.X) & ((1 << 6) - 1), Y: (origin.Y + b.Min.Y) & ((1 << 6) - 1)}
	key := glyphKey{r: r, xoffset: sub.X}
	img, ok := fc.glyphs[key]
	if !ok {
		img = fc.rasterise(r, sub, b)
		fc.glyphs[key] = img
	}
	return img, (origin.X + b.Min.X).Floor(), (origin.Y + b.Min.Y).Floor(), adv
}

// rasterise draws r, white, at a sub-pixel offset into an image of its
// bounds and one pixel more (text/v2's margin for the offset).
func (fc *face) rasterise(r rune, sub fixed.Point26_6, b fixed.Rectangle26_6) *ebiten.Image {
	w, h := (b.Max.X - b.Min.X).Ceil(), (b.Max.Y - b.Min.Y).Ceil()
	if w == 0 || h == 0 {
		return nil
	}
	rgba := image.NewRGBA(image.Rect(0, 0, w+1, h+1))
	d := font.Drawer{Dst: rgba, Src: image.White, Face: fc.f,
		Dot: fixed.Point26_6{X: -b.Min.X + sub.X, Y: -b.Min.Y + sub.Y}}
	d.DrawString(string(r))
	return ebiten.NewImageFromImage(rgba)
}
