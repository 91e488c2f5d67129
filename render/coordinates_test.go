package render

import (
	"strconv"
	"testing"

	"github.com/arena-playground/arena/engine/play"
)

// floored is a canvas that keeps what is written on it and has a
// smallest text, as a phone's screen has.
type floored struct {
	texts
	min float64
}

func (f *floored) MinTextSize() float64 { return f.min }

// A board the size of a start card's still, on a phone (33-pixel text at
// the least), writes no coordinates: they covered its corner and ran past
// the still. The same board at the match view's size writes them.
func TestCoordinatesOnlyWhereTheyFit(t *testing.T) {
	for _, game := range []string{"life", "colosseum", "evasion"} {
		s, err := play.NewSetup(game, "", 1, "greedy", "greedy")
		if err != nil {
			t.Fatal(err)
		}
		f, err := play.NewFollower(s)
		if err != nil {
			t.Fatal(err)
		}
		rec := f.Record()
		d, err := DrawerFor(game)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			side  int
			wants bool
		}{{84, false}, {900, true}} {
			cv := &floored{texts: texts{Image: NewImage(c.side, c.side)}, min: 33}
			d.Board(cv, Rect{W: float64(c.side), H: float64(c.side)}, rec, 0, Dark)
			numbers := 0
			for _, s := range cv.got {
				if _, err := strconv.Atoi(s); err == nil {
					numbers++
				}
			}
			if got := numbers > 0; got != c.wants {
				t.Errorf("%s on a board of %d pixels: wrote %q, want coordinates %v", game, c.side, cv.got, c.wants)
			}
		}
	}
}
