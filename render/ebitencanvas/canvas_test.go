package ebitencanvas

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// Ebitengine reads pixels back only inside its game loop, so the tests
// run from the first Update, as ebiten's own internal/testing does. They
// need a display: make test runs them under Xvfb.

type loop struct {
	m    *testing.M
	code int
}

func (l *loop) Update() error {
	l.code = l.m.Run()
	return ebiten.Termination
}
func (l *loop) Draw(*ebiten.Image)         {}
func (l *loop) Layout(int, int) (int, int) { return 320, 240 }

func TestMain(m *testing.M) {
	l := &loop{m: m}
	if err := ebiten.RunGame(l); err != nil && err != ebiten.Termination {
		panic(err)
	}
	os.Exit(l.code)
}

// TestSameFrameAsSoftware draws a Life frame, mid-animation, with this
// canvas and with the software one: the layouts and colours must agree.
// Antialiasing and glyph rasterisation differ a little between the two,
// so most pixels, not all, must be equal.
func TestSameFrameAsSoftware(t *testing.T) {
	rec, err := play.Play(context.Background(), play.Setup{Game: life.Game{}, Seed: 3,
		Players: [2]play.Spec{{Name: "greedy"}, {Name: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	const size = 360
	r := render.Rect{W: size, H: size}
	soft := render.NewImage(size, size)
	render.Frame(soft, r, rec, 40.6, render.Dark)

	dst := ebiten.NewImage(size, size)
	c := New()
	c.SetTarget(dst)
	render.Frame(c, r, rec, 40.6, render.Dark)
	c.Flush()
	got := image.NewRGBA(image.Rect(0, 0, size, size))
	dst.ReadPixels(got.Pix)

	same, near := 0, 0
	for i := 0; i < len(got.Pix); i += 4 {
		d := 0
		for k := range 3 {
			d = max(d, abs(int(got.Pix[i+k])-int(soft.Pix[i+k])))
		}
		if d == 0 {
			same++
		}
		if d <= 24 {
			near++
		}
	}
	n := size * size
	t.Logf("%.1f%% of pixels equal, %.1f%% within 24", 100*float64(same)/float64(n), 100*float64(near)/float64(n))
	if float64(near) < 0.97*float64(n) {
		t.Errorf("only %d of %d pixels agree between the screen and the software canvas", near, n)
	}
}

func TestShapesAreCached(t *testing.T) {
	dst := ebiten.NewImage(64, 64)
	c := New()
	c.SetTarget(dst)
	for range 3 {
		c.Circle(render.Point{X: 20.3, Y: 20.3}, 8, render.Dark.Accent)
		c.Polygon([]render.Point{{X: 1, Y: 1}, {X: 30, Y: 2}, {X: 10, Y: 25}}, render.Dark.Text)
	}
	c.Flush()
	if len(c.shapes) != 2 {
		t.Errorf("%d shapes cached for two shapes drawn three times", len(c.shapes))
	}
	px := make([]byte, 4)
	dst.SubImage(image.Rect(20, 20, 21, 21)).(*ebiten.Image).ReadPixels(px)
	if a := render.Dark.Accent; px[0] != a.R || px[1] != a.G || px[2] != a.B {
		t.Errorf("the centre of the disc is %v, want %v", px, a)
	}
}

// A polyline's triangles are made once and drawn again from the cache,
// in any colour; another width, another point, or a cache emptied when
// full draws what a fresh canvas draws, pixel for pixel.
func TestStrokesAreCached(t *testing.T) {
	line := []render.Point{{X: 4, Y: 4}, {X: 40, Y: 12.5}, {X: 20, Y: 50}}
	moved := slices.Clone(line)
	moved[2].X++
	draw := func(c *Canvas, pts []render.Point, w float64, col color.RGBA) []byte {
		dst := ebiten.NewImage(64, 64)
		c.SetTarget(dst)
		c.Polyline(pts, w, col)
		c.Flush()
		px := make([]byte, 4*64*64)
		dst.ReadPixels(px)
		return px
	}
	warm := New()
	for range 3 {
		draw(warm, line, 3, render.Dark.Accent)
	}
	if len(warm.strokes) != 1 {
		t.Fatalf("%d strokes cached for one polyline drawn three times", len(warm.strokes))
	}
	for _, c := range []struct {
		name string
		pts  []render.Point
		w    float64
		col  color.RGBA
	}{
		{"the same, in another colour", line, 3, render.Dark.Text},
		{"another width", line, 5, render.Dark.Accent},
		{"a point moved", moved, 3, render.Dark.Accent},
	} {
		if got, want := draw(warm, c.pts, c.w, c.col), draw(New(), c.pts, c.w, c.col); !bytes.Equal(got, want) {
			t.Errorf("%s: the cached canvas draws other pixels than a fresh one", c.name)
		}
	}
	// A frame of maxStrokes polylines finds the first again in the next.
	first := warm.stroke(line, 3)
	for i := range maxStrokes {
		warm.stroke([]render.Point{{X: 1, Y: float64(i)}, {X: 9, Y: 9}}, 1)
	}
	if warm.stroke(line, 3) != first {
		t.Error("a stroke of the last frame was stroked again")
	}
	for i := range 2*maxStrokes + 1 {
		warm.Polyline([]render.Point{{X: 0, Y: float64(i)}, {X: 9, Y: 9}}, 1, render.Dark.Text)
	}
	if n := len(warm.strokes) + len(warm.oldStrokes); n > 2*maxStrokes {
		t.Errorf("%d strokes cached, past the bound of %d", n, 2*maxStrokes)
	}
	if _, ok := warm.oldStrokes[strokeKey(line, 3)]; ok {
		t.Error("a stroke not drawn for two generations is still kept")
	}
	if got, want := draw(warm, line, 3, render.Dark.Accent), draw(New(), line, 3, render.Dark.Accent); !bytes.Equal(got, want) {
		t.Error("after the cache was emptied, the polyline draws other pixels than on a fresh canvas")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestLayersDrawAgainOnlyWhenNeeded: a screen's layer draws once per key
// and rectangle; Forget makes it draw again.
func TestLayersDrawAgainOnlyWhenNeeded(t *testing.T) {
	s := NewScreen(New())
	kept := ebiten.NewImage(64, 64)
	draws := map[string]int{}
	frame := func(layers ...func()) {
		s.Begin(64, 64)
		for _, l := range layers {
			l()
		}
		s.Present(kept)
	}
	layer := func(name string, key int, r render.Rect) func() {
		return func() {
			s.Layer(name, key, r, func() {
				draws[name]++
				s.Fill(r, render.Dark.Accent)
			})
		}
	}
	a, b := render.Rect{W: 32, H: 32}, render.Rect{X: 16, Y: 16, W: 32, H: 32}
	frame(layer("a", 1, a))
	frame(layer("a", 1, a))
	frame(layer("a", 2, a))
	if draws["a"] != 2 {
		t.Fatalf("a drew %d times for two keys", draws["a"])
	}
	frame(layer("a", 2, a), layer("b", 1, b)) // b over part of a's pixels
	frame(layer("a", 2, a), layer("b", 1, b))
	if draws["a"] != 2 || draws["b"] != 1 {
		t.Errorf("a drew %d times, b %d: a layer over another must not make it draw again", draws["a"], draws["b"])
	}
	frame(layer("a", 2, b))
	if draws["a"] != 3 {
		t.Errorf("a drew %d times: a new rectangle must make it draw again", draws["a"])
	}
	s.Forget()
	frame(layer("b", 1, b))
	if draws["b"] != 2 {
		t.Errorf("b drew %d times: Forget must make it draw again", draws["b"])
	}
}

// Text is drawn from the canvas's atlas; when the atlas fills, it is
// emptied: text batched before is drawn as it was, and text drawn after
// (its glyphs placed again) is the same pixels as a fresh canvas draws.
func TestTextWhenTheAtlasFills(t *testing.T) {
	const line = "arena 42: P1 weighed −70k"
	face := render.Face{Size: 14}
	text := func(c *Canvas, dst *ebiten.Image) {
		c.SetTarget(dst)
		c.Fill(render.Rect{W: 300, H: 40}, render.Dark.Background)
		c.Text(line, 10, 10, face, render.Left, render.Dark.Text)
	}
	flushed := func(c *Canvas, dst *ebiten.Image) { text(c, dst); c.Flush() }
	read := func(img *ebiten.Image) []byte {
		px := make([]byte, 4*300*40)
		img.ReadPixels(px)
		return px
	}
	want := ebiten.NewImage(300, 40)
	flushed(New(), want)
	wantPx := read(want)
	if slices.Equal(wantPx, read(ebiten.NewImage(300, 40))) {
		t.Fatal("the text drew nothing")
	}

	c := New()
	dst := ebiten.NewImage(300, 40)
	text(c, dst) // batched, not yet drawn
	gen := c.atlas.gen
	big := render.Face{Size: 90}
	for r := rune(0x21); c.atlas.gen == gen; r++ {
		if r > 0x2000 {
			t.Fatal("the atlas never filled")
		}
		c.Text(string(r), 10000, 0, big, render.Left, render.Dark.Text) // off the target
	}
	c.Flush()
	if got := read(dst); !slices.Equal(got, wantPx) {
		t.Error("text batched before the atlas was emptied was drawn from what replaced it")
	}
	again := ebiten.NewImage(300, 40)
	flushed(c, again)
	if got := read(again); !slices.Equal(got, wantPx) {
		t.Error("text drawn after the atlas was emptied differs from a fresh canvas's")
	}
}

// A segment's triangles cover the pixels Ebitengine's stroker covers,
// caps included, but for a pixel here and there where the caps' arcs
// are drawn with fewer sides: at any width, angle or fraction of a pixel.
func TestSegmentIsTheStrokersShape(t *testing.T) {
	const size = 96
	mask := func(vs []ebiten.Vertex, is []uint16) []bool {
		dst := ebiten.NewImage(size, size)
		c := New()
		c.SetTarget(dst)
		c.triangles(vs, is, color.RGBA{255, 255, 255, 255})
		c.Flush()
		px := make([]byte, 4*size*size)
		dst.ReadPixels(px)
		out := make([]bool, size*size)
		for i := range out {
			out[i] = px[4*i+3] > 0
		}
		return out
	}
	for _, w := range []float64{1, 1.5, 2, 3, 6, 12, 24} {
		for i, ang := range []float64{0, 0.3, math.Pi / 4, 1.2, math.Pi / 2, 2.5, math.Pi, 4, 5.9} {
			a := render.Point{X: 48.3 - 20*math.Cos(ang), Y: 47.6 - 20*math.Sin(ang)}
			b := render.Point{X: 48.3 + 20*math.Cos(ang), Y: 47.6 + 20*math.Sin(ang)}
			vs, is := segment(a, b, w/2)
			got := mask(vs, is)
			vs, is = New().strokePath([]render.Point{a, b}, w)
			want := mask(vs, is)
			covered, differ := 0, 0
			for k := range got {
				if want[k] {
					covered++
				}
				if got[k] != want[k] {
					differ++
				}
			}
			// The caps may differ by a few pixels along their arcs; a
			// cap missing or turned inward differs by its area.
			if limit := int(math.Ceil(w)) + 2; differ > limit || covered == 0 {
				t.Errorf("width %g, angle %d: %d of the stroker's %d pixels differ, more than %d", w, i, differ, covered, limit)
			}
		}
	}
}

// BenchmarkSegment strokes the shortest path's gen-1000 graph's 4,699
// edges as the first frame does, with the segment's triangles and with
// Ebitengine's stroker in the same run.
func BenchmarkSegment(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	edges := make([][2]render.Point, 4699)
	for i := range edges {
		a := render.Point{X: rnd.Float64() * 1280, Y: rnd.Float64() * 800}
		edges[i] = [2]render.Point{a, {X: a.X + rnd.Float64()*80 - 40, Y: a.Y + rnd.Float64()*80 - 40}}
	}
	c := New()
	b.Run("segment", func(b *testing.B) {
		for b.Loop() {
			for _, e := range edges {
				segment(e[0], e[1], 0.75)
			}
		}
	})
	b.Run("stroker", func(b *testing.B) {
		for b.Loop() {
			for _, e := range edges {
				c.strokePath(e[:], 1.5)
			}
		}
	})
}
