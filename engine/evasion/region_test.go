package evasion

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// The scanline fill finds the same region as the cell-by-cell fill,
// cell for cell, with the same area, sums and bounding box: from random
// cells of fields that careless players walled in every way (walls that
// touch at a corner, staircases, the board's edges), free cells and
// blocked ones.
func TestFillRunsIsFillCells(t *testing.T) {
	for seed := uint64(1); seed <= 15; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		f := NewField([]int{3, 10, 40, 100, 300}[seed%5], 0)
		for tick := 0; tick < 2000; tick++ {
			h, p := randomOrders(r, &f)
			if f.Step(h, p) {
				break
			}
			if tick%251 != 0 {
				continue
			}
			for range 4 {
				from := Point{r.IntN(Size), r.IntN(Size)}
				if r.IntN(3) == 0 {
					from = f.Prey
				}
				var runs, cells Region
				runs.Fill(&f, from)
				cells.reset()
				if !f.Blocked(from.X, from.Y) {
					cells.fillCells(&f, from)
				}
				if runs.in != cells.in || runs.Area != cells.Area || runs.SumX != cells.SumX || runs.SumY != cells.SumY ||
					runs.Min != cells.Min || runs.Max != cells.Max {
					t.Fatalf("seed %d tick %d, from %v with %d walls: runs found %d cells %v-%v, cells %d %v-%v",
						seed, tick, from, len(f.Walls()), runs.Area, runs.Min, runs.Max, cells.Area, cells.Min, cells.Max)
				}
			}
		}
	}
}

// BenchmarkFill fills the prey's region of the empty board (90,000 cells)
// and of a field with 100 walls of every kind, by runs and, as the
// reference, cell by cell.
func BenchmarkFill(b *testing.B) {
	for _, bc := range []struct {
		name  string
		walls int
	}{{"empty", 0}, {"walls=100", 100}} {
		f := benchField(bc.walls)
		var r Region
		b.Run(bc.name+"/runs", func(b *testing.B) {
			for b.Loop() {
				r.Fill(&f, f.Prey)
			}
			b.ReportMetric(float64(r.Area), "cells")
		})
		b.Run(bc.name+"/cells", func(b *testing.B) {
			for b.Loop() {
				r.reset()
				r.fillCells(&f, f.Prey)
			}
			b.ReportMetric(float64(r.Area), "cells")
		})
	}
}

// The prey's look-ahead gives what the plain backward pass gives (every
// cell, every tick, each of its nine steps moved anew), for preys in the
// open, beside walls, and at the board's edges and corners, where the
// window reaches off the board.
func TestSurvivalIsThePlainPass(t *testing.T) {
	var la lookahead
	deadlies := map[string]func(f *Field) func(h, q Point) bool{
		"captures": func(f *Field) func(h, q Point) bool { return f.Captures },
		"radius":   func(*Field) func(h, q Point) bool { return func(h, q Point) bool { return dist2(h, q) <= 16 } },
	}
	edges := []Point{{0, 0}, {Size - 1, Size - 1}, {0, Size - 1}, {Size - 1, 3}, {5, 0}, {150, Size - 2}}
	for seed := uint64(1); seed <= 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		f := NewField(20, 0)
		for tick := 0; tick < 800; tick++ {
			h, p := randomOrders(r, &f)
			if f.Step(h, p) {
				break
			}
			if tick%40 != 0 {
				continue
			}
			g := f.Fork()
			g.Prey = edges[(tick/40)%len(edges)]
			if r.IntN(2) == 0 {
				g.Prey = Point{r.IntN(Size), r.IntN(Size)}
			}
			g.Hunter = Point{min(max(g.Prey.X+r.IntN(21)-10, 0), Size-1), min(max(g.Prey.Y+r.IntN(21)-10, 0), Size-1)}
			if g.Blocked(g.Prey.X, g.Prey.Y) || g.Blocked(g.Hunter.X, g.Hunter.Y) {
				continue
			}
			for name, deadly := range deadlies {
				k := []int{8, 20, 24}[tick%3]
				turn := match.NewTurn(nil, 0, r, match.Budget{})
				got := la.survival(turn, &g, k, deadly(&g))
				if want := plainSurvival(&g, k, deadly(&g)); got != want {
					t.Fatalf("seed %d tick %d, %s, k %d, prey %v, hunter %v: %v, the plain pass %v", seed, tick, name, k, g.Prey, g.Hunter, got, want)
				}
			}
		}
	}
}

// plainSurvival is survival as first written: each cell's nine steps
// moved anew every tick, deadly asked of every cell.
func plainSurvival(f *Field, k int, deadly func(h, q Point) bool) [3][3]int {
	hs := make([]Point, k+1)
	h, v := f.Hunter, f.HunterVel
	for i := 1; i <= k; i++ {
		h, v = f.Move(h, v)
		hs[i] = h
	}
	r := k/2 + 2
	side := 2*r + 1
	idx := func(q Point) int { return (q.Y-f.Prey.Y+r)*side + q.X - f.Prey.X + r }
	in := func(q Point) bool { return abs(q.X-f.Prey.X) <= r && abs(q.Y-f.Prey.Y) <= r }
	next, cur := make([]int, side*side), make([]int, side*side)
	for i := range next {
		next[i] = k
	}
	for i := k; i >= 2; i-- {
		moves := (f.Tick+i)%2 == 1
		for y := -r; y <= r; y++ {
			for x := -r; x <= r; x++ {
				q := Point{f.Prey.X + x, f.Prey.Y + y}
				c := idx(q)
				if f.Blocked(q.X, q.Y) {
					cur[c] = 0
					continue
				}
				best := 0
				if !moves {
					best = next[c]
				} else {
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							if to, _ := f.Move(q, Point{dx, dy}); in(to) {
								best = max(best, next[idx(to)])
							}
						}
					}
				}
				if deadly(hs[i], q) {
					best = i - 1
				}
				cur[c] = best
			}
		}
		next, cur = cur, next
	}
	var out [3][3]int
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			to, _ := f.Move(f.Prey, Point{dx, dy})
			if !deadly(hs[1], to) {
				out[dy+1][dx+1] = next[idx(to)]
			}
		}
	}
	return out
}
