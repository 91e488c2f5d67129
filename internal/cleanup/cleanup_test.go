package cleanup

import "testing"

// Run runs what is registered, once; what was unregistered does not run.
func TestRunRunsWhatIsPending(t *testing.T) {
	ran := map[string]int{}
	a := Add(func() { ran["a"]++ })
	done := Add(func() { ran["b"]++ })
	done()
	if Pending() != 1 {
		t.Fatalf("%d pending, want 1", Pending())
	}
	Run()
	Run()
	a() // unregistering after the run is harmless
	if ran["a"] != 1 || ran["b"] != 0 || Pending() != 0 {
		t.Errorf("ran %v, %d pending; want a once, b never, none pending", ran, Pending())
	}
}
