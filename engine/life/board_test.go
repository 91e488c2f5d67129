package life

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// randomBoard fills a board with P1 and P2 cells at the given densities.
func randomBoard(r *rand.Rand, rows, cols int, density float64) Board {
	b := NewBoard(rows, cols)
	for i := range rows {
		for j := range cols {
			if r.Float64() < density {
				b.Set(i, j, Owner(1+r.IntN(2)))
			}
		}
	}
	return b
}

// bandedBoard is a board dead but for a few bands of rows (wrapping past
// the last row), each one to three rows high and half alive: the rows a
// step skips (liveRows) next to the rows it computes.
func bandedBoard(r *rand.Rand, rows, cols int) Board {
	b := NewBoard(rows, cols)
	for range 1 + r.IntN(3) {
		at, high := r.IntN(rows), 1+r.IntN(3)
		for i := range high {
			for j := range cols {
				if r.IntN(2) == 0 {
					b.Set((at+i)%rows, j, Owner(1+r.IntN(2)))
				}
			}
		}
	}
	return b
}

// sizes covers one-word and multi-word rows, full and partial last words,
// and the degenerate tori where neighbour offsets alias.
var sizes = [][2]int{
	{1, 1}, {1, 6}, {2, 5}, {3, 3}, {3, 8}, {2, 2}, {1, 64}, {5, 1}, {7, 13}, {12, 5}, {24, 24},
	{16, 63}, {9, 64}, {9, 65}, {4, 127}, {6, 128}, {5, 129}, {3, 200}, {64, 64}, {33, 190},
}

// TestStepMatchesReference steps random boards of every size with the
// fast and the reference step, under both rulesets, for several
// generations, and requires identical boards. Density 0 stands for a
// banded board (bandedBoard), mostly dead rows; the fast step writes
// into the board of two generations before, so a dead row it skips
// must be cleared, and Stepped into a new one, which it must not need.
func TestStepMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sz := range sizes {
		for _, rules := range []Ruleset{Diff, Classic} {
			for _, density := range []float64{0, 0.1, 0.35, 0.6, 0.9} {
				name := fmt.Sprintf("%dx%d/rules%d/%.2f", sz[0], sz[1], rules, density)
				fast := randomBoard(r, sz[0], sz[1], density)
				if density == 0 {
					fast = bandedBoard(r, sz[0], sz[1])
				}
				ref := fast.Grid()
				nf, nr := NewBoard(sz[0], sz[1]), fast.Grid()
				for gen := range 6 {
					fast.Step(&nf, rules)
					ref.StepReference(nr, rules)
					if rb := nr.Board(); nf.String() != rb.String() {
						t.Fatalf("%s generation %d:\nfast\n%s\nreference\n%s", name, gen+1, nf.String(), rb.String())
					}
					if s := fast.Stepped(rules); s.String() != nf.String() {
						t.Fatalf("%s generation %d: into a new board\n%s\ninto the board before\n%s", name, gen+1, s.String(), nf.String())
					}
					checkPadding(t, &nf)
					fast, nf = nf, fast
					ref, nr = nr, ref
				}
			}
		}
	}
}

// checkPadding requires the bits past the last column to stay zero.
func checkPadding(t *testing.T, b *Board) {
	t.Helper()
	mask := b.lastMask()
	for side := range 2 {
		for r := range b.rows {
			if w := b.plane[side][r*b.words+b.words-1]; w&^mask != 0 {
				t.Fatalf("%dx%d: row %d of plane %d has bits past the last column: %x", b.rows, b.cols, r, side, w&^mask)
			}
		}
	}
}

// TestNextOwnerTable checks the rule table of the spec (§6.4) cell by
// cell, since the reference is itself the oracle of the fast step.
func TestNextOwnerTable(t *testing.T) {
	for p1 := 0; p1 <= 8; p1++ {
		for p2 := 0; p1+p2 <= 8; p2++ {
			d := p1 - p2
			wantDead, wantP1, wantP2 := Dead, Dead, Dead
			if d == 3 {
				wantDead = P1
			}
			if d == -3 {
				wantDead = P2
			}
			if d == 2 || d == 3 {
				wantP1 = P1
			}
			if d == -2 || d == -3 {
				wantP2 = P2
			}
			for _, c := range []struct{ from, want Owner }{{Dead, wantDead}, {P1, wantP1}, {P2, wantP2}} {
				if got := nextOwner(c.from, p1, p2, Diff); got != c.want {
					t.Errorf("diff: cell %d with %d P1 and %d P2 neighbours becomes %d, want %d", c.from, p1, p2, got, c.want)
				}
			}
		}
	}
	if nextOwner(Dead, 3, 1, Classic) != Dead || nextOwner(Dead, 3, 0, Classic) != P1 || nextOwner(P2, 4, 2, Classic) != P2 {
		t.Error("classic: births need 3 of one colour and none of the other; survival ignores enemies")
	}
}

// TestReach compares the bit-parallel reach with the per-cell distance
// test that Check uses.
func TestReach(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sz := range sizes {
		for d := range 4 {
			cfg := &Config{Rows: sz[0], Cols: sz[1], Distance: d, Iterations: 1}
			s := State{cfg: cfg, board: randomBoard(r, sz[0], sz[1], 0.05)}
			for _, side := range match.Sides {
				reach := s.board.Reach(side, d, nil)
				in := NewBoard(sz[0], sz[1])
				copy(in.plane[0], reach)
				for i := range sz[0] {
					for j := range sz[1] {
						if got, want := in.At(i, j) == P1, s.near(side, Cell{i, j}); got != want {
							t.Fatalf("%dx%d d=%d %s: reach of (%d,%d) is %v, want %v", sz[0], sz[1], d, side, i, j, got, want)
						}
					}
				}
			}
		}
	}
}

// BenchmarkStep steps random boards a third alive, and the 4096x4096
// board the page's stream benchmark plays (BenchmarkPageFrames's
// stream-life-4096: 24 still lifes a side, the rest dead), against the
// reference step.
func BenchmarkStep(b *testing.B) {
	big, err := ParseConfig("life-4096.json", []byte(`{"players": [{"name": "P1", "startingCells": []}, {"name": "P2", "startingCells": []}],
"game": {"rows": 4096, "cols": 4096, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": 16, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`))
	if err != nil {
		b.Fatal(err)
	}
	start, err := Game{}.Start(big, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		board Board
	}{
		{"24x24", randomBoard(rand.New(rand.NewPCG(5, 6)), 24, 24, 0.35)},
		{"1024x1024", randomBoard(rand.New(rand.NewPCG(5, 6)), 1024, 1024, 0.35)},
		{"4096x4096-start", start.(State).board},
	} {
		board, n := c.board, c.board.rows*c.board.cols
		next := NewBoard(board.rows, board.cols)
		b.Run(c.name+"/fast", func(b *testing.B) {
			for b.Loop() {
				board.Step(&next, Diff)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gcells/s")
		})
		if n > 1<<20 {
			continue // the reference takes seconds a step
		}
		grid, gnext := board.Grid(), next.Grid()
		b.Run(c.name+"/reference", func(b *testing.B) {
			for b.Loop() {
				grid.StepReference(gnext, Diff)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gcells/s")
		})
	}
}
