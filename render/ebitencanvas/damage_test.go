package ebitencanvas

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/render"
)

// joinNaive is joinOverlapping as first written: every pair, again after
// each join. The boxes that overlap must end in one union whatever the
// order of the joins, so the two agree as sets.
func joinNaive(boxes []image.Rectangle) []image.Rectangle {
	for joined := true; joined; {
		joined = false
		for i := 0; i < len(boxes); i++ {
			for j := i + 1; j < len(boxes); j++ {
				if boxes[i].Overlaps(boxes[j]) {
					boxes[i] = boxes[i].Union(boxes[j])
					boxes = slices.Delete(boxes, j, j+1)
					joined = true
					j = i
				}
			}
		}
	}
	return boxes
}

func TestJoinOverlappingAgreesWithEveryPair(t *testing.T) {
	less := func(a, b image.Rectangle) int {
		for _, d := range []int{a.Min.X - b.Min.X, a.Min.Y - b.Min.Y, a.Max.X - b.Max.X, a.Max.Y - b.Max.Y} {
			if d != 0 {
				return d
			}
		}
		return 0
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var boxes []image.Rectangle
		for range r.IntN(120) {
			x, y := r.IntN(600), r.IntN(400)
			// Small cells, some duplicated, and now and then a wide band
			// that joins many.
			w, h := 4+r.IntN(30), 4+r.IntN(30)
			if r.IntN(20) == 0 {
				w = 200 + r.IntN(400)
			}
			boxes = append(boxes, image.Rect(x, y, x+w, y+h))
			if r.IntN(5) == 0 {
				boxes = append(boxes, boxes[len(boxes)-1])
			}
		}
		got := joinOverlapping(slices.Clone(boxes), always)
		want := joinNaive(slices.Clone(boxes))
		slices.SortFunc(got, less)
		slices.SortFunc(want, less)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: joined %d boxes into %v, want %v", round, len(boxes), got, want)
		}
	}
}

// TestIndexFindsWhatAScanFinds: the operations the index returns for a
// region are those a pass over the whole frame finds, in drawing order.
func TestIndexFindsWhatAScanFinds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	size := image.Pt(1280, 800)
	var x opIndex
	for round := range 50 {
		ops := make([]op, r.IntN(2000))
		for i := range ops {
			p := image.Pt(r.IntN(size.X), r.IntN(size.Y))
			w, h := r.IntN(40), r.IntN(40)
			if r.IntN(50) == 0 {
				w, h = r.IntN(size.X), r.IntN(size.Y)
			}
			ops[i].box = image.Rectangle{p, p.Add(image.Pt(w, h))}.Intersect(image.Rectangle{Max: size})
		}
		x.build(ops, size)
		for range 200 {
			p := image.Pt(r.IntN(size.X), r.IntN(size.Y))
			d := image.Rectangle{p, p.Add(image.Pt(1+r.IntN(300), 1+r.IntN(200)))}.Intersect(image.Rectangle{Max: size})
			var want []int32
			for i := range ops {
				if ops[i].box.Overlaps(d) {
					want = append(want, int32(i))
				}
			}
			if got := x.over(d, ops); !slices.Equal(got, want) {
				t.Fatalf("round %d: over %v the index found %v, a scan %v", round, d, got, want)
			}
		}
	}
}

// TestChangedCellsAreRedrawnAlone: when scattered cells of a board change
// colour, the screen redraws about the cells' own pixels, not rectangles
// around groups of them, and the pixels are those of a whole frame.
func TestChangedCellsAreRedrawnAlone(t *testing.T) {
	const w, h, n, side = 320, 240, 20, 9
	board := render.Rect{X: 20, Y: 10, W: n * 10, H: n * 10}
	frame := func(c render.Canvas, changed map[int]bool) {
		c.Fill(render.Rect{W: w, H: h}, render.Dark.Background)
		c.Fill(board, render.Dark.Board)
		for i := range n * n {
			col := render.Dark.Player[i%2]
			if changed[i] {
				col = render.Dark.Player[1-i%2]
			}
			if i%3 != 0 {
				c.Fill(render.Rect{X: board.X + float64(i%n*10), Y: board.Y + float64(i/n*10), W: side, H: side}, col)
			}
		}
		c.Text("turn", 270, 20, render.Face{Size: 12}, render.Left, render.Dark.Text)
	}
	kept := ebiten.NewImage(w, h)
	s := NewScreen(New())
	s.Begin(w, h)
	frame(s, nil)
	s.Present(kept)
	changed := map[int]bool{}
	for i := 1; i < n*n; i += 4 {
		if i%3 != 0 {
			changed[i] = true
		}
	}
	s.Begin(w, h)
	frame(s, changed)
	s.Present(kept)
	cells := float64(len(changed)*side*side) / (w * h)
	if d := s.Drawn(); d < cells || d > 1.5*cells {
		t.Errorf("%d changed cells, %.4f of the screen, were redrawn as %.4f of it", len(changed), cells, d)
	}
	matchesWholeFrame(t, kept, func(c render.Canvas) { frame(c, changed) })
}

// TestJoinsOnlyWhatSaves: boxes are joined where their union is no larger
// than the two, and every pixel of the boxes stays in one of the result.
func TestJoinsOnlyWhatSaves(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		var boxes []image.Rectangle
		for range r.IntN(100) {
			x, y := r.IntN(300), r.IntN(200)
			boxes = append(boxes, image.Rect(x, y, x+4+r.IntN(40), y+4+r.IntN(40)))
		}
		got := joinOverlapping(slices.Clone(boxes), worthJoining)
		for i := range got {
			for j := i + 1; j < len(got); j++ {
				if got[i].Overlaps(got[j]) && worthJoining(got[i], got[j]) {
					t.Fatalf("round %d: %v and %v were left apart", round, got[i], got[j])
				}
			}
		}
		for _, b := range boxes {
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					if !slices.ContainsFunc(got, func(g image.Rectangle) bool { return image.Pt(x, y).In(g) }) {
						t.Fatalf("round %d: (%d, %d) of %v is in no joined box", round, x, y, b)
					}
				}
			}
		}
	}
}

// TestSlantingLineDamagesItsPixels: a long slanting line that appears
// costs about the pixels along it, not its box, and what is drawn is what
// a whole frame draws, the lines it crosses included.
func TestSlantingLineDamagesItsPixels(t *testing.T) {
	const w, h = 400, 300
	frame := func(c render.Canvas, raised bool) {
		c.Fill(render.Rect{W: w, H: h}, render.Dark.Background)
		for i := range 12 {
			y := 10 + float64(i)*24
			c.Line(render.Point{X: 5, Y: y}, render.Point{X: 395, Y: 300 - y}, 2, render.Alpha(render.Dark.TextDim, 0.55))
		}
		if raised {
			c.Line(render.Point{X: 20, Y: 20}, render.Point{X: 380, Y: 280}, 4, render.Dark.Player[1])
		}
	}
	kept := ebiten.NewImage(w, h)
	s := NewScreen(New())
	for _, raised := range []bool{false, true} {
		s.Begin(w, h)
		frame(s, raised)
		s.Present(kept)
	}
	if d := s.Drawn(); d > 0.15 {
		t.Errorf("a line across the screen redrew %.2f of it", d)
	}
	matchesWholeFrame(t, kept, func(c render.Canvas) { frame(c, true) })
}

// matchesWholeFrame fails the test if the kept screen differs from what
// draw draws whole on a fresh image.
func matchesWholeFrame(t *testing.T, kept *ebiten.Image, draw func(render.Canvas)) {
	t.Helper()
	whole := New()
	fresh := ebiten.NewImage(kept.Bounds().Dx(), kept.Bounds().Dy())
	whole.SetTarget(fresh)
	draw(whole)
	whole.Flush()
	if k, at := differ(kept, fresh); k > 0 {
		t.Fatalf("%d pixels differ from the whole frame's, the first at %v", k, at)
	}
}
