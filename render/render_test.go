package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// scripted plays a small Life match from fixed actions, so that the golden
// images do not depend on any bot: a 10x10 board where both players grow,
// collide on one cell and lose cells.
func scripted(t testing.TB) *play.Record {
	cfg := life.Competition()
	cfg.Rows, cfg.Cols, cfg.Iterations = 10, 10, 6
	cfg.Start = [2][]life.Cell{cells(3, 3, 3, 4, 4, 3, 4, 4), cells(3, 7, 3, 8, 4, 7, 4, 8)}
	script := [][2]life.Action{
		{cells(2, 3, 5, 5), cells(5, 5, 2, 8)}, // (5,5) contested: collisions cancel
		{cells(6, 4), cells(6, 7, 6, 8)},
		{{}, {}},
		{cells(1, 2, 1, 3, 1, 4), {}},
		{nil, nil}, // the first legal cell of each
		{{}, {}},
	}
	bot := func(side match.Side) match.Bot {
		return match.BotFunc(func(tn *match.Turn) (match.Action, error) {
			if a := script[tn.State.Turn()][side]; a != nil {
				return a, nil
			}
			legal := life.Legal(tn.State.(life.State), side)
			return life.Action(legal[:min(1, len(legal))]), nil
		})
	}
	rec, err := play.Play(context.Background(), play.Setup{Game: life.Game{}, Config: cfg, Seed: 1,
		Players: [2]play.Spec{{Name: "script"}, {Name: "script"}}, Bots: [2]match.Bot{bot(match.P1), bot(match.P2)}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == nil || len(rec.Result.Forfeits) > 0 {
		t.Fatalf("scripted match: %v", rec.Result)
	}
	return rec
}

// cells makes a list of cells from row, column pairs.
func cells(rc ...int) life.Action {
	a := life.Action{}
	for i := 0; i+1 < len(rc); i += 2 {
		a = append(a, life.Cell{Row: rc[i], Col: rc[i+1]})
	}
	return a
}

// TestGoldenFrames compares frames of the scripted match, settled and in
// the middle of each animation phase, with images in testdata. Run with
// -update to rewrite them after a deliberate change, and look at them.
func TestGoldenFrames(t *testing.T) {
	rec := scripted(t)
	for _, at := range []float64{0, 0.25, 0.7, 1, 3.5, 6} {
		name := filepath.Join("testdata", fmt.Sprintf("life_%v.png", at))
		img := NewImage(240, 240)
		if err := Frame(img, Rect{0, 0, 240, 240}, rec, at, Dark); err != nil {
			t.Fatal(err)
		}
		if *update {
			var b bytes.Buffer
			png.Encode(&b, img.RGBA)
			if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n, at2 := differences(img.RGBA, want); n > 0 {
			t.Errorf("%s: %d pixels differ, the first at %v (run go test -update and look at the image if the change is meant)", name, n, at2)
		}
	}
}

func differences(got *image.RGBA, want image.Image) (int, image.Point) {
	n, first := 0, image.Point{}
	for y := got.Rect.Min.Y; y < got.Rect.Max.Y; y++ {
		for x := got.Rect.Min.X; x < got.Rect.Max.X; x++ {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	return n, first
}

// TestGIFDecodesToFrames decodes a recorded GIF with image/gif, composes
// its delta frames as a viewer does, and requires every composed frame to
// equal the drawn frame mapped to the palette.
func TestGIFDecodesToFrames(t *testing.T) {
	rec := scripted(t)
	o := GIFOptions{Size: 160, FPS: 30, TurnsPerSecond: 10, HoldSeconds: 2, Theme: Dark}
	var buf bytes.Buffer
	if err := WriteGIF(&buf, rec, o); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	fpt := 3 // 30 frames per second at 10 turns per second
	if want := int(Span(rec))*fpt + 1; len(g.Image) != want {
		t.Fatalf("%d frames, want %d", len(g.Image), want)
	}
	if g.LoopCount != 0 || g.Delay[len(g.Delay)-1] != 200 {
		t.Errorf("loop %d, last delay %d; want endless loop and a 2 s hold", g.LoopCount, g.Delay[len(g.Delay)-1])
	}
	pal := Dark.Palette()
	screen := image.NewRGBA(image.Rect(0, 0, o.Size, o.Size))
	img := NewImage(o.Size, o.Size)
	for i, fr := range g.Image {
		draw.Draw(screen, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		Frame(img, Rect{0, 0, float64(o.Size), float64(o.Size)}, rec, float64(i)/float64(fpt), Dark)
		for y := range o.Size {
			for x := range o.Size {
				p := img.RGBAAt(x, y)
				want := pal.Colors[pal.Index(p.R, p.G, p.B)].(color.RGBA)
				if got := screen.RGBAAt(x, y); got != want {
					t.Fatalf("frame %d pixel (%d,%d): viewer shows %v, want %v", i, x, y, got, want)
				}
			}
		}
	}
}

func TestPaletteKeepsThemeColours(t *testing.T) {
	pal := Dark.PaletteFor("mapcolor")
	cols := []color.RGBA{Dark.Background, Dark.Panel, Dark.Board, Dark.Grid, Dark.Text, Dark.TextDim,
		Dark.Accent, Dark.Player[0], Dark.Player[1], Dark.Collision, Dark.Mark}
	for i, name := range []string{"R", "G", "B", "Y", "orange", "Purple", "mauve", "ochre"} {
		cols = append(cols, ColourOf(name, i))
	}
	for _, c := range cols {
		if got := pal.Colors[pal.Index(c.R, c.G, c.B)]; got != c {
			t.Errorf("theme colour %v maps to %v", c, got)
		}
	}
	if len(pal.Colors) > 256 || pal.Colors[pal.Transparent] != (color.RGBA{}) {
		t.Errorf("palette of %d colours, transparent entry %v", len(pal.Colors), pal.Colors[pal.Transparent])
	}
	// Games without inks of their own keep 7-bit codes.
	if n := len(Dark.PaletteFor("life").Colors); n > 128 {
		t.Errorf("Life's palette has %d colours: its GIFs would need 8-bit codes", n)
	}
}

// A 500-iteration match, played once for the benchmarks.
func benchRecord(b *testing.B) *play.Record {
	rec, err := play.Play(context.Background(), play.Setup{Game: life.Game{}, Seed: 7,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}})
	if err != nil {
		b.Fatal(err)
	}
	return rec
}

// BenchmarkGIF records the 500-iteration match as the CLI does by
// default, and reports the size.
func BenchmarkGIF(b *testing.B) { benchmarkGIF(b, benchRecord(b)) }

// benchmarkGIF records rec as arena record does by default.
func benchmarkGIF(b *testing.B, rec *play.Record) {
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteGIF(&buf, rec, DefaultGIF); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

// BenchmarkFrame draws one 480x480 frame in the middle of a turn, beside
// the reference of filling the same image with one colour.
func BenchmarkFrame(b *testing.B) {
	rec := benchRecord(b)
	img := NewImage(480, 480)
	b.Run("life", func(b *testing.B) {
		for b.Loop() {
			Frame(img, Rect{0, 0, 480, 480}, rec, 250.5, Dark)
		}
	})
	b.Run("clear", func(b *testing.B) {
		for b.Loop() {
			img.Fill(Rect{0, 0, 480, 480}, Dark.Background)
		}
	})
}

// largeLife plays random against random on a 300x200 board (cells
// smaller than a pixel in a small view) for turns turns.
func largeLife(t *testing.T, turns int) *play.Record {
	t.Helper()
	cfg := life.Competition()
	cfg.Rows, cfg.Cols, cfg.Iterations, cfg.RandomStart = 300, 200, turns, 2000
	rec, err := play.Play(context.Background(), play.Setup{Game: life.Game{}, Config: cfg, Seed: 3,
		Players: [2]play.Spec{{Name: "random"}, {Name: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A board whose cells are smaller than a pixel is drawn from one cell a
// pixel, the cell at the pixel's centre; one whose cells are a pixel or
// more keeps one pixel a cell.
func TestLifePixelsSampleTinyCells(t *testing.T) {
	rec := largeLife(t, 2)
	m := lifeAt(rec, float64(rec.Len()-1))
	th := Dark
	whole := lifePixels(m.fromB, 400, 600, th)
	if b := whole.Bounds(); b.Dx() != 200 || b.Dy() != 300 {
		t.Fatalf("cells of 2 pixels: image %v, want one pixel a cell", b)
	}
	small := lifePixels(m.fromB, 70, 90, th)
	if b := small.Bounds(); b.Dx() != 70 || b.Dy() != 90 {
		t.Fatalf("cells of a third of a pixel: image %v, want 70x90", b)
	}
	live := 0
	for y := range 90 {
		for x := range 70 {
			row, col := (2*y+1)*300/180, (2*x+1)*200/140
			if got, want := small.RGBAAt(x, y), whole.RGBAAt(col, row); got != want {
				t.Fatalf("pixel (%d,%d): %v, the cell (%d,%d) at its centre is %v", x, y, got, row, col, want)
			}
			if small.RGBAAt(x, y) != th.Board {
				live++
			}
		}
	}
	if live == 0 {
		t.Fatal("no live cell sampled: the test's board is empty")
	}
}

// A large board is drawn as its boards' images, the second faded in over
// the first: each pixel is the colour of its cell as colour gives it, at
// rest, while a turn's cells are colonised and while its generation steps
// (cells born and dying), exactly as Mix blends it.
func TestLifePixelsAreTheCellsColours(t *testing.T) {
	rec := largeLife(t, 3)
	for _, at := range []float64{1, 1 + lifePlace/2, 1 + (1+lifePlace)/2} {
		m := lifeAt(rec, at)
		img := NewImage(70, 90)
		under, over, alpha := m.layers()
		img.Pixels(Rect{W: 70, H: 90}, lifePixels(under, 70, 90, Dark), 1)
		if alpha > 0 {
			img.Pixels(Rect{W: 70, H: 90}, lifePixels(over, 70, 90, Dark), alpha)
		}
		differ := 0 // pixels whose cell is changing colour
		for y := range 90 {
			for x := range 70 {
				row, col := (2*y+1)*300/180, (2*x+1)*200/140
				want := m.colour(row, col, Dark)
				if got := img.RGBAAt(x, y); got != want {
					t.Fatalf("at %v, pixel (%d,%d): %v, its cell (%d,%d) is %v", at, x, y, got, row, col, want)
				}
				if want != m.blend[m.fromB.At(row, col)][m.fromB.At(row, col)] {
					differ++
				}
			}
		}
		if m.animating != (differ > 0) {
			t.Errorf("at %v: %d pixels changing, animating %v: the test's moments do not cover the three cases", at, differ, m.animating)
		}
	}
}

// A turn's animation draws the same two images in all its frames, and a
// record's copies (one a frame while a match streams in) share them.
func TestLifePixelsAreKeptForATurn(t *testing.T) {
	rec := largeLife(t, 3)
	images := func(r *play.Record, at float64) [2]*image.RGBA {
		m := lifeAt(r, at)
		under, over, _ := m.layers()
		return [2]*image.RGBA{lifePixels(under, 70, 90, Dark), lifePixels(over, 70, 90, Dark)}
	}
	first := images(rec, 1+(1+lifePlace)/2)
	copied := *rec
	if again := images(&copied, 1+(1+lifePlace)/2+0.1); again != first {
		t.Errorf("a later frame of the turn, from a copy of the record, drew %p, want the turn's %p", again, first)
	}
	if next := images(rec, 2+(1+lifePlace)/2); next == first {
		t.Error("the next turn drew the last turn's images")
	}
}

// A board with more cells than the view has pixels fits in the view: its
// cells are a fraction of a pixel, not a pixel each past the view's edges.
func TestLayoutGridFitsLargeBoards(t *testing.T) {
	r := Rect{X: 100, Y: 50, W: 640, H: 600}
	for _, n := range []int{24, 600, 4096} {
		l := LayoutGrid(r, n, n)
		side := l.size * float64(n)
		if l.x0 < r.X || l.y0 < r.Y || l.x0+side > r.X+r.W+0.5 || l.y0+side > r.Y+r.H+0.5 {
			t.Errorf("%dx%d board in %+v: at (%v,%v), %v wide", n, n, r, l.x0, l.y0, side)
		}
	}
}
