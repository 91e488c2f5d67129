package ui

import (
	"image/color"
	"testing"

	"github.com/arena-playground/arena/render"
)

// A rounded rectangle in a translucent colour is laid once everywhere
// inside it, its pieces meeting without a seam or an overlap, and its
// corners are round: a pixel at the very corner is left as it was.
func TestRoundRectLaysItsColourOnce(t *testing.T) {
	const w, h = 120, 60
	col := color.RGBA{R: 200, G: 40, B: 0, A: 128} // half-opaque
	// The colour laid once, as a plain rectangle lays it.
	ref := render.NewImage(4, 4)
	ref.Fill(rect{W: 4, H: 4}, col)
	once, bg := ref.RGBA.RGBAAt(1, 1), render.NewImage(1, 1).RGBA.RGBAAt(0, 0)
	for _, r := range []rect{{X: 10, Y: 10, W: 100, H: 40}, {X: 10.4, Y: 9.6, W: 99.3, H: 31}} {
		for _, radius := range []float64{6, 15.5, 40} {
			m := render.NewImage(w, h)
			roundRect(m, r, radius, col)
			x0, y0, x1, y1 := int(r.X+0.5), int(r.Y+0.5), int(r.X+r.W+0.5), int(r.Y+r.H+0.5)
			rad := int(min(radius+0.5, float64((x1-x0)/2), float64((y1-y0)/2)))
			inside := once
			// The cross the three rectangles make, seams included.
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					inCross := (x >= x0+rad && x < x1-rad) || (y >= y0+rad && y < y1-rad)
					if inCross && m.RGBA.RGBAAt(x, y) != inside {
						t.Fatalf("%v radius %v: pixel %d,%d is %v, want %v, the colour laid once", r, radius, x, y, m.RGBA.RGBAAt(x, y), inside)
					}
				}
			}
			// Each corner's own pixel is outside the arc; the one at the
			// arc's centre is inside it, laid once.
			for _, p := range [][4]int{{x0, y0, x0 + rad, y0 + rad}, {x1 - 1, y0, x1 - rad - 1, y0 + rad}, {x0, y1 - 1, x0 + rad, y1 - rad - 1}, {x1 - 1, y1 - 1, x1 - rad - 1, y1 - rad - 1}} {
				if c := m.RGBA.RGBAAt(p[0], p[1]); c != bg {
					t.Errorf("%v radius %v: the corner %d,%d is %v, want it untouched", r, radius, p[0], p[1], c)
				}
				if c := m.RGBA.RGBAAt(p[2], p[3]); c != inside {
					t.Errorf("%v radius %v: %d,%d by the arc's centre is %v, want %v", r, radius, p[2], p[3], c, inside)
				}
			}
		}
	}
}
