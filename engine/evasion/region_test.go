package evasion

import (
	"math/rand/v2"
	"testing"
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
