package colosseum

import "testing"

// The reference outputs of MT19937 (mt19937ar.c, init_genrand(5489)).
func TestMT19937Reference(t *testing.T) {
	r := NewNumPy(5489)
	for i, want := range []uint32{3499211612, 581869302, 3890346734, 3586334585, 545404204} {
		if got := r.Uint32(); got != want {
			t.Fatalf("output %d: %d, want %d", i, got, want)
		}
	}
	for range 2000 { // past several twists
		r.Uint32()
	}
}

func TestRandintRange(t *testing.T) {
	r := NewNumPy(1)
	seen := map[int]bool{}
	for range 1000 {
		v := r.Randint(6, 12)
		if v < 6 || v >= 12 {
			t.Fatalf("Randint(6, 12) = %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 6 {
		t.Errorf("Randint(6, 12) gave %v", seen)
	}
	before := *r
	if r.Randint(3, 4) != 3 || r.mt != before.mt || r.idx != before.idx {
		t.Error("a one-value range must not draw")
	}
}
