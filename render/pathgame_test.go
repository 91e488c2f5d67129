package render

import (
	"slices"
	"testing"

	"github.com/arena-playground/arena/engine/pathgame"
	"github.com/arena-playground/arena/engine/play"
)

// TestCheapestPathIsTheTurns: the board's cheapest path, found once a
// turn, is the one a fresh search finds at each turn the playhead
// visits, forward, back and in another record of the same game.
func TestCheapestPathIsTheTurns(t *testing.T) {
	a := playThinking(t, "pathgame", "", "strong:nodes=20000", "greedy")
	b := playThinking(t, "pathgame", "", "greedy", "random")
	changed := 0
	var last []pathgame.Arc
	for _, v := range []struct {
		rec  *play.Record
		turn int
	}{{a, 0}, {a, 0}, {a, 3}, {a, 4}, {a, 3}, {b, 3}, {a, 3}, {a, a.Len() - 1}, {b, b.Len() - 1}} {
		m := pathAt(v.rec, float64(v.turn))
		var fresh pathgame.Paths
		fresh.Compute(m.s.Graph(), m.round.Costs())
		want := fresh.Path(m.round.Pos)
		got := cheapestPath(v.rec, m)
		if !slices.Equal(got, want) {
			t.Errorf("turn %d: the board's path %v, a fresh search's %v", v.turn, got, want)
		}
		if !slices.Equal(got, last) {
			changed++
		}
		last = got
	}
	if changed < 3 {
		t.Errorf("the path changed %d times over the turns visited: the test shows no turn apart", changed)
	}
}
