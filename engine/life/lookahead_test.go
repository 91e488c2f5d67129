package life

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// TestWindowedValueIsExact compares the windowed score of random pieces
// with the whole-board simulation, on boards large enough for windows,
// with and without a predicted reply, for several horizons.
func TestWindowedValueIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, sz := range [][2]int{{24, 24}, {30, 41}, {64, 64}, {70, 130}} {
		for _, h := range []int{1, 2, 4, 6} {
			for _, variant := range []string{VariantArena, VariantOriginal} {
				board := randomBoard(r, sz[0], sz[1], 0.3)
				side := match.Side(r.IntN(2))
				var reply Action
				for range 5 {
					reply = append(reply, Cell{r.IntN(sz[0]), r.IntN(sz[1])})
				}
				l := newLookahead(&board, Diff, variant, side, h, reply, nil)
				if !l.windowed() {
					if n := pieceSpan + 2*l.radius(); n < sz[0] && n < sz[1] {
						t.Fatalf("%v h=%d: a %d window should be used", sz, h, n)
					}
					continue
				}
				for k := range 40 {
					anchor := Cell{r.IntN(sz[0]), r.IntN(sz[1])}
					var piece []Cell
					for _, d := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
						if r.IntN(2) == 0 || k%5 == 0 {
							piece = append(piece, Cell{(anchor.Row + d[0]) % sz[0], (anchor.Col + d[1]) % sz[1]})
						}
					}
					if k%7 == 0 && len(reply) > 0 { // collide with the reply
						piece = append(piece, reply[0])
						anchor = reply[0]
						piece = piece[len(piece)-1:]
					}
					got, want := l.value(piece, anchor), l.eval(piece)-l.baseScore
					if got != want {
						t.Fatalf("%v h=%d %s piece %v: windowed value %d, whole board %d", sz, h, variant, piece, got, want)
					}
				}
			}
		}
	}
}

func TestExtract(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, cols := range []int{5, 64, 65, 130, 200} {
		b := randomBoard(r, 3, cols, 0.5)
		for c0 := -70; c0 < cols+70; c0 += 7 {
			for _, n := range []int{1, 13, 64} {
				if n > cols {
					continue
				}
				got := b.extract(match.P1, 1, c0, n)
				for i := range n {
					want := b.At(1, floorMod(c0+i, cols)) == P1
					if (got>>i&1 == 1) != want {
						t.Fatalf("cols %d c0 %d n %d: bit %d is %v", cols, c0, n, i, !want)
					}
				}
				if n < 64 && got>>n != 0 {
					t.Fatalf("bits past n: %x", got)
				}
			}
		}
	}
}
