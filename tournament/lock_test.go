//go:build unix

package tournament

import (
	"strings"
	"testing"
)

// A second run started into a directory while a first plays there is
// refused at once, naming the directory; the first plays on and its
// journal stays whole. The lock goes with the run: a third run, after
// the first, resumes (here: finds every game played).
func TestSecondRunIntoOneDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, RoundRobin, 2, "random", "greedy")
	var second error
	tried := false
	first, err := Run(t.Context(), p, Options{Dir: dir, Jobs: 1, Progress: func(Entry, *Standings, int) {
		if !tried {
			tried = true
			_, second = Run(t.Context(), plan(t, RoundRobin, 2, "random", "greedy"), Options{Dir: dir})
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if second == nil || !strings.Contains(second.Error(), dir+": another run is playing this tournament (pid ") {
		t.Errorf("the second run: %v", second)
	}
	again, err := Run(t.Context(), p, Options{Dir: dir})
	if err != nil || again.Played != first.Played || first.Played != p.Games() {
		t.Errorf("after the first run: %v, %d games played, the first %d of %d", err, again.Played, first.Played, p.Games())
	}
}
