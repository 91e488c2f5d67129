package play

import (
	"context"
	"sync"
	"testing"
)

// A record past its budget keeps snapshots and rebuilds the rest: every
// state reads as played, in any order, from copies taken as the match
// went on and from other goroutines, and no more states are kept than
// the budget holds.
func TestRecordThinsToItsBudget(t *testing.T) {
	cfg := &tallyConfig{Turns: 1000}
	full := play(t, cfg, "random", "random")
	r, err := NewRunner(Setup{Game: tally{}, Config: cfg, Seed: 7, Players: [2]Spec{spec(t, "random"), spec(t, "random")},
		StateBudget: 10 * defaultStateSize})
	if err != nil {
		t.Fatal(err)
	}
	var copies []*Record
	for !r.Done() {
		if err := r.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(copies) < 50 {
			copies = append(copies, r.Record())
		}
	}
	rec := r.Record()
	kept := 0
	for _, s := range rec.states {
		if s != nil {
			kept++
		}
	}
	if kept > 10 || rec.keep.stride < 100 {
		t.Errorf("%d states kept (stride %d): the budget holds 10", kept, rec.keep.stride)
	}
	if rec.Len() != full.Len() || rec.Last() != full.Last() {
		t.Fatalf("%d states, last %v; want %d, %v", rec.Len(), rec.Last(), full.Len(), full.Last())
	}
	var wg sync.WaitGroup
	for _, c := range append(copies, rec) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := c.Len() - 1; k >= 0; k -= 7 { // backwards, skipping
				if got, want := c.State(k), full.State(k); got != want {
					t.Errorf("state %d of a copy of %d: %v, want %v", k, c.Len(), got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	for k, s := range rec.All() {
		if s != full.State(k) || rec.Standing(k) != full.Standing(k) {
			t.Fatalf("state %d: %v, want %v", k, s, full.State(k))
		}
	}
}
