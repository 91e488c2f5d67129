package ebitencanvas

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// TestScreenDrawsWhatAWholeFrameDraws plays matches through a retained
// screen, frame after frame on the one image it keeps, and draws each
// frame whole on a fresh image too: the pixels must agree, while the
// screen draws only part of them.
func TestScreenDrawsWhatAWholeFrameDraws(t *testing.T) {
	// A board of more cells than the view has pixels: drawn as images, a
	// turn's second faded in over its first.
	large := life.Competition()
	large.Rows, large.Cols, large.Iterations, large.RandomStart = 300, 400, 8, 4000
	for _, c := range []struct {
		name  string
		setup play.Setup
	}{
		{"life", play.Setup{Game: life.Game{}, Seed: 3, Players: [2]play.Spec{{Name: "greedy"}, {Name: "random"}}}},
		{"life-large", play.Setup{Game: life.Game{}, Config: large, Seed: 3, Players: [2]play.Spec{{Name: "random"}, {Name: "random"}}}},
		{"colosseum", play.Setup{Game: colosseum.Game{}, Seed: 2, Players: [2]play.Spec{{Name: "greedy"}, {Name: "random"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := play.Play(context.Background(), c.setup)
			if err != nil {
				t.Fatal(err)
			}
			const w, h = 320, 240
			r := render.Rect{W: w, H: h}
			kept := ebiten.NewImage(w, h)
			s := NewScreen(New())
			whole := New()
			var drawn float64
			frames := 0
			for _, at := range []float64{0, 0, 0.3, 0.6, 1, 1, 1, 2.5, 2.5, 4, 7.25, 7.25, 3, 0} {
				s.Begin(w, h)
				render.Frame(s, r, rec, at, render.Dark)
				s.Present(kept)
				drawn += s.Drawn()
				frames++

				fresh := ebiten.NewImage(w, h)
				whole.SetTarget(fresh)
				render.Frame(whole, r, rec, at, render.Dark)
				whole.Flush()
				if n, at2 := differ(kept, fresh); n > 0 {
					if dir := os.Getenv("ARENA_DIFF_DIR"); dir != "" {
						for name, img := range map[string]*ebiten.Image{"kept": kept, "fresh": fresh} {
							f, _ := os.Create(filepath.Join(dir, c.name+"-"+name+".png"))
							png.Encode(f, img)
							f.Close()
						}
					}
					t.Fatalf("at %g: %d pixels differ from the whole frame's, the first at %v", at, n, at2)
				}
			}
			if drawn >= float64(frames)-1 {
				t.Errorf("the screen drew %.2f screens in %d frames: it redraws everything", drawn, frames)
			}
			t.Logf("%d frames drew %.2f screens", frames, drawn)
		})
	}
}

// TestScreenDrawsNothingWhenNothingChanged: the same frame twice costs
// no pixels; a new text costs about its box.
func TestScreenDrawsNothingWhenNothingChanged(t *testing.T) {
	const w, h = 200, 100
	kept := ebiten.NewImage(w, h)
	s := NewScreen(New())
	f := render.Face{Size: 12}
	frame := func(label string) {
		s.Begin(w, h)
		s.Fill(render.Rect{W: w, H: h}, render.Dark.Background)
		s.Layer("box", 1, render.Rect{X: 10, Y: 10, W: 50, H: 50}, func() {
			s.Fill(render.Rect{X: 10, Y: 10, W: 50, H: 50}, render.Dark.Accent)
		})
		s.Text(label, 100, 40, f, render.Left, render.Dark.Text)
		s.Present(kept)
	}
	frame("12:00")
	if s.Drawn() != 1 {
		t.Errorf("the first frame drew %.2f of the screen, want all", s.Drawn())
	}
	frame("12:00")
	if s.Drawn() != 0 {
		t.Errorf("an unchanged frame drew %.2f of the screen", s.Drawn())
	}
	frame("12:01")
	if d := s.Drawn(); d <= 0 || d > 0.25 {
		t.Errorf("a changed clock drew %.2f of the screen", d)
	}
	s.Forget()
	frame("12:01")
	if s.Drawn() != 1 {
		t.Errorf("after Forget the frame drew %.2f of the screen, want all", s.Drawn())
	}
}

// differ counts the pixels where a and b differ by more than a rounding
// step in any channel, and returns the first. Lines drawn without
// antialiasing may differ in a pixel where the rasteriser breaks a tie
// differently under a scissor (llvmpipe does): a single pixel here and
// there, apart, is not counted, a pixel beside another is; so is every
// pixel when more than one in 10,000 differ.
func differ(a, b *ebiten.Image) (int, image.Point) {
	sz := a.Bounds().Size()
	pa, pb := make([]byte, 4*sz.X*sz.Y), make([]byte, 4*sz.X*sz.Y)
	a.ReadPixels(pa)
	b.ReadPixels(pb)
	off := make([]bool, sz.X*sz.Y)
	var all []image.Point
	for i := 0; i < len(pa); i += 4 {
		for k := range 4 {
			if abs(int(pa[i+k])-int(pb[i+k])) > 2 {
				off[i/4] = true
				all = append(all, image.Point{i / 4 % sz.X, i / 4 / sz.X})
				break
			}
		}
	}
	if len(all) == 0 {
		return 0, image.Point{}
	}
	if len(all)*10000 > sz.X*sz.Y {
		return len(all), all[0]
	}
	n, first := 0, image.Point{-1, -1}
	for _, p := range all {
		beside := false
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				q := p.Add(image.Point{dx, dy})
				if (dx != 0 || dy != 0) && q.In(image.Rectangle{Max: sz}) && off[q.Y*sz.X+q.X] {
					beside = true
				}
			}
		}
		if beside {
			if n == 0 {
				first = p
			}
			n++
		}
	}
	return n, first
}

func TestMerge(t *testing.T) {
	boxes := []image.Rectangle{
		image.Rect(0, 0, 10, 10), image.Rect(5, 5, 20, 20), // overlap: one
		image.Rect(100, 100, 110, 110), image.Rect(200, 0, 210, 10), image.Rect(0, 200, 10, 210),
		{}, // empty: dropped
	}
	got := merge(boxes, 2, always)
	if len(got) != 2 {
		t.Fatalf("merged into %d boxes, want 2: %v", len(got), got)
	}
	for _, want := range []image.Point{{1, 1}, {19, 19}, {105, 105}, {205, 5}, {5, 205}} {
		in := false
		for _, r := range got {
			in = in || want.In(r)
		}
		if !in {
			t.Errorf("%v is in no merged box %v", want, got)
		}
	}
	for i := range got {
		for j := i + 1; j < len(got); j++ {
			if got[i].Overlaps(got[j]) {
				t.Errorf("merged boxes %v and %v overlap", got[i], got[j])
			}
		}
	}
}

// TestMergeManyBoxes: the cells of a board, many small boxes, are covered
// by at most n rectangles that are not much larger than the cells' area.
func TestMergeManyBoxes(t *testing.T) {
	var boxes []image.Rectangle
	var cells []image.Point
	for i := range 500 {
		x, y := 100+(i*37)%640, 50+(i*53)%320 // spread over a 640x320 board
		boxes = append(boxes, image.Rect(x, y, x+8, y+8))
		cells = append(cells, image.Pt(x+4, y+4))
	}
	got := merge(boxes, 6, always)
	if len(got) > 6 {
		t.Fatalf("%d boxes, want at most 6", len(got))
	}
	area := 0
	for _, r := range got {
		area += r.Dx() * r.Dy()
	}
	for _, p := range cells {
		in := false
		for _, r := range got {
			in = in || p.In(r)
		}
		if !in {
			t.Fatalf("cell at %v is in no box of %v", p, got)
		}
	}
	if area > 700*400 {
		t.Errorf("boxes of %d pixels for cells within 648x328", area)
	}
}
