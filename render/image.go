package render

import (
	"image"
	"image/color"
	stddraw "image/draw"
	"math"
	"sync"

	"github.com/golang/freetype/raster"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// fonts are the Go fonts, parsed once.
var fonts = sync.OnceValue(func() [3]*truetype.Font {
	var fs [3]*truetype.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF, gomono.TTF} {
		f, err := truetype.Parse(ttf)
		if err != nil {
			panic(err) // the fonts are compiled in
		}
		fs[i] = f
	}
	return fs
})

// NewFace returns a font face for f. Faces cache glyphs and are not safe
// for concurrent use: each canvas keeps its own.
func NewFace(f Face) font.Face {
	ff := truetype.NewFace(fonts()[f.Style], &truetype.Options{Size: f.Size, DPI: 72, Hinting: font.HintingFull})
	return &advanceCache{Face: ff, adv: map[rune]fixed.Int26_6{}}
}

// advanceCache remembers glyph advances: measuring text to centre or fit
// it would otherwise load and hint every glyph each time.
type advanceCache struct {
	font.Face
	adv map[rune]fixed.Int26_6
}

func (a *advanceCache) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if v, ok := a.adv[r]; ok {
		return v, true
	}
	v, ok := a.Face.GlyphAdvance(r)
	if ok {
		a.adv[r] = v
	}
	return v, ok
}

// Image is the software Canvas: it draws into an RGBA image with
// freetype's antialiasing rasteriser and truetype glyphs, and writes the
// same pixels on every machine.
type Image struct {
	*image.RGBA
	ras   *raster.Rasterizer
	paint *raster.RGBAPainter
	path  raster.Path
	faces map[Face]font.Face
	// layers keeps the pixels of Layer drawings, so that a recording
	// copies what stands still from frame to frame (see Layers).
	layers map[string]*imageLayer
}

type imageLayer struct {
	key any
	r   image.Rectangle
	pix *image.RGBA
}

// Layer draws what draw draws within r, or copies it from the last frame
// when key and r are the same: the pixels are those draw left, so a
// layer must paint its whole rectangle.
func (m *Image) Layer(name string, key any, r Rect, draw func()) {
	b := m.snap(r)
	if l, ok := m.layers[name]; ok && l.key == key && l.r == b {
		stddraw.Draw(m.RGBA, b, l.pix, b.Min, stddraw.Src)
		return
	}
	draw()
	if m.layers == nil {
		m.layers = map[string]*imageLayer{}
	}
	l := m.layers[name]
	if l == nil || l.pix.Bounds() != b {
		l = &imageLayer{pix: image.NewRGBA(b)}
		m.layers[name] = l
	}
	l.key, l.r = key, b
	stddraw.Draw(l.pix, b, m.RGBA, b.Min, stddraw.Src)
}

// NewImage returns a blank canvas of the given size.
func NewImage(w, h int) *Image {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	r := raster.NewRasterizer(w, h)
	r.UseNonZeroWinding = true
	return &Image{RGBA: m, ras: r, paint: raster.NewRGBAPainter(m), faces: map[Face]font.Face{}}
}

// snap converts a rectangle to whole pixels, clipped to the image.
func (m *Image) snap(r Rect) image.Rectangle {
	return image.Rect(int(math.Round(r.X)), int(math.Round(r.Y)),
		int(math.Round(r.X+r.W)), int(math.Round(r.Y+r.H))).Intersect(m.Rect)
}

// Fill paints a rectangle.
func (m *Image) Fill(r Rect, c color.RGBA) {
	b := m.snap(r)
	if b.Empty() || c.A == 0 {
		return
	}
	if c.A == 0xff {
		row := m.PixOffset(b.Min.X, b.Min.Y)
		n := b.Dx() * 4
		first := m.Pix[row : row+n]
		for i := 0; i < n; i += 4 {
			first[i], first[i+1], first[i+2], first[i+3] = c.R, c.G, c.B, 0xff
		}
		for y := b.Min.Y + 1; y < b.Max.Y; y++ {
			o := m.PixOffset(b.Min.X, y)
			copy(m.Pix[o:o+n], first)
		}
		return
	}
	a := uint32(c.A)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		p := m.Pix[m.PixOffset(b.Min.X, y):m.PixOffset(b.Max.X, y)]
		for i := 0; i < len(p); i += 4 {
			p[i] = uint8((uint32(p[i])*(255-a) + uint32(c.R)*a + 127) / 255)
			p[i+1] = uint8((uint32(p[i+1])*(255-a) + uint32(c.G)*a + 127) / 255)
			p[i+2] = uint8((uint32(p[i+2])*(255-a) + uint32(c.B)*a + 127) / 255)
			p[i+3] = 0xff
		}
	}
}

// Stroke paints the outline of r, inside it.
func (m *Image) Stroke(r Rect, w float64, c color.RGBA) {
	m.Fill(Rect{r.X, r.Y, r.W, w}, c)
	m.Fill(Rect{r.X, r.Y + r.H - w, r.W, w}, c)
	m.Fill(Rect{r.X, r.Y + w, w, r.H - 2*w}, c)
	m.Fill(Rect{r.X + r.W - w, r.Y + w, w, r.H - 2*w}, c)
}

func fx(v float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(v * 64)) }

func fp(p Point) fixed.Point26_6 { return fixed.Point26_6{X: fx(p.X), Y: fx(p.Y)} }

// draw rasterises what is in m.ras in colour c and clears it.
func (m *Image) draw(c color.RGBA) {
	m.paint.SetColor(color.NRGBA(c))
	m.ras.Rasterize(m.paint)
	m.ras.Clear()
}

// Line paints a segment with round ends.
func (m *Image) Line(a, b Point, w float64, c color.RGBA) { m.Polyline([]Point{a, b}, w, c) }

// Polyline paints connected segments with round joins.
func (m *Image) Polyline(pts []Point, w float64, c color.RGBA) {
	if len(pts) < 2 {
		return
	}
	m.path.Clear()
	m.path.Start(fp(pts[0]))
	for _, p := range pts[1:] {
		m.path.Add1(fp(p))
	}
	m.ras.AddStroke(m.path, fx(w), raster.RoundCapper, raster.RoundJoiner)
	m.draw(c)
}

// Polygon fills a closed polygon.
func (m *Image) Polygon(pts []Point, c color.RGBA) {
	if len(pts) < 3 {
		return
	}
	m.ras.Start(fp(pts[0]))
	for _, p := range pts[1:] {
		m.ras.Add1(fp(p))
	}
	m.ras.Add1(fp(pts[0]))
	m.draw(c)
}

// circlePath sets m.path to a circle of eight quadratic arcs.
func (m *Image) circlePath(o Point, r float64) {
	m.path.Clear()
	const n = 8
	k := r / math.Cos(math.Pi/n) // control points sit outside the circle
	m.path.Start(fp(Point{o.X + r, o.Y}))
	for i := 1; i <= n; i++ {
		a0, a1 := 2*math.Pi*(float64(i)-0.5)/n, 2*math.Pi*float64(i)/n
		m.path.Add2(fp(Point{o.X + k*math.Cos(a0), o.Y + k*math.Sin(a0)}), fp(Point{o.X + r*math.Cos(a1), o.Y + r*math.Sin(a1)}))
	}
}

// Circle fills a disc.
func (m *Image) Circle(o Point, r float64, c color.RGBA) {
	m.circlePath(o, r)
	m.ras.AddPath(m.path)
	m.draw(c)
}

// Ring paints a circle's outline.
func (m *Image) Ring(o Point, r, w float64, c color.RGBA) {
	m.circlePath(o, r)
	m.ras.AddStroke(m.path, fx(w), raster.ButtCapper, raster.RoundJoiner)
	m.draw(c)
}

func (m *Image) face(f Face) font.Face {
	ff, ok := m.faces[f]
	if !ok {
		ff = NewFace(f)
		m.faces[f] = ff
	}
	return ff
}

// Text writes one line with the top of its box at y.
func (m *Image) Text(s string, x, y float64, f Face, align Align, c color.RGBA) {
	ff := m.face(f)
	switch align {
	case Center:
		x -= m.TextWidth(s, f) / 2
	case Right:
		x -= m.TextWidth(s, f)
	}
	d := font.Drawer{Dst: m.RGBA, Src: image.NewUniform(color.NRGBA(c)), Face: ff,
		Dot: fixed.Point26_6{X: fx(math.Round(x)), Y: fx(math.Round(y)) + ff.Metrics().Ascent}}
	d.DrawString(s)
}

// TextWidth measures a line of text.
func (m *Image) TextWidth(s string, f Face) float64 {
	return float64(font.MeasureString(m.face(f), s)) / 64
}

// LineHeight is the height of a line of text.
func (m *Image) LineHeight(f Face) float64 {
	return float64(m.face(f).Metrics().Height) / 64
}

// Pixels draws img scaled to fill r, by nearest neighbour, over what is
// there with opacity alpha: each pixel Mix(under, img's, alpha), so that
// a board faded in over another is the blend Mix gives a cell.
func (m *Image) Pixels(r Rect, img *image.RGBA, alpha float64) {
	b := m.snap(r)
	sw, sh := img.Rect.Dx(), img.Rect.Dy()
	if b.Empty() || sw == 0 || sh == 0 || alpha <= 0 {
		return
	}
	x0, y0 := math.Round(r.X), math.Round(r.Y)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		sy := min(sh-1, int((float64(y)-y0)*float64(sh)/r.H))
		src := img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+sy):]
		dst := m.Pix[m.PixOffset(b.Min.X, y):]
		for x := b.Min.X; x < b.Max.X; x++ {
			sx := min(sw-1, int((float64(x)-x0)*float64(sw)/r.W))
			d := dst[4*(x-b.Min.X) : 4*(x-b.Min.X)+4 : 4*(x-b.Min.X)+4]
			if alpha >= 1 {
				copy(d, src[4*sx:4*sx+4])
				continue
			}
			under, over := color.RGBA{d[0], d[1], d[2], d[3]}, color.RGBA{src[4*sx], src[4*sx+1], src[4*sx+2], 0xff}
			if under != over { // most cells keep their colour
				c := Mix(under, over, alpha)
				d[0], d[1], d[2], d[3] = c.R, c.G, c.B, c.A
			}
		}
	}
}
