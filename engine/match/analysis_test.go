package match

import "testing"

// An analysis is valued in full only where every other option has its
// value: a search that gives some others exact values (the move played,
// one that beat its window) and bounds the rest is not.
func TestValuedInFull(t *testing.T) {
	exact, bound := Refutation{Move: "a", Exact: true}, Refutation{Move: "b"}
	for _, c := range []struct {
		others []Refutation
		want   bool
	}{
		{nil, false},
		{[]Refutation{exact}, true},
		{[]Refutation{exact, exact}, true},
		{[]Refutation{exact, bound}, false},
		{[]Refutation{bound, exact}, false},
		{[]Refutation{bound}, false},
	} {
		if got := (&Analysis{Others: c.others}).ValuedInFull(); got != c.want {
			t.Errorf("others %+v: valued in full %v, want %v", c.others, got, c.want)
		}
	}
}
