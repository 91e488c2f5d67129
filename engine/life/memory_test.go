package life

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// A small replay may ask for the largest board for many turns: 400 turns
// of 4096x4096 are 1.6 GB of states. The record keeps them within its
// budget (snapshots, the rest rebuilt), and the last state is the one
// the turns lead to.
func TestHugeReplayStaysInBudget(t *testing.T) {
	const turns = 400
	var b strings.Builder
	fmt.Fprintf(&b, `{"format": "arena-replay", "version": 1, "game": "life", "variant": "arena", "seed": 1,
"players": ["random", "random"],
"config": {"players": [{"name": "a", "startingCells": [[100, 100], [100, 101], [101, 100], [101, 101]]},
  {"name": "b", "startingCells": [[3000, 3000], [3000, 3001], [3001, 3000], [3001, 3001]]}],
  "game": {"rows": %d, "cols": %d, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3,
  "maxColonisationDistance": 2, "maxGameIterations": %d, "ruleset": "diff", "variant": "arena"}},
"turns": [`, MaxSide, MaxSide, turns+1)
	for k := range turns {
		if k > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"actions": [[], []]}`)
	}
	b.WriteString("]}")
	rec, err := play.LoadReplay("huge.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("replay of %d bytes: %d turns of %dx%d, heap %d MB", b.Len(), turns, MaxSide, MaxSide, m.HeapAlloc>>20)
	if limit := uint64(play.StateBudget + 64<<20); m.HeapAlloc > limit {
		t.Errorf("heap %d MB after loading: the budget is %d MB", m.HeapAlloc>>20, play.StateBudget>>20)
	}
	last := rec.Last().(State)
	// Blocks stay blocks.
	if n1, n2 := last.Count(match.P1), last.Count(match.P2); n1 != 4 || n2 != 4 || rec.Len() != turns+1 {
		t.Errorf("after %d turns: %d states, cells %d and %d, want %d, 4 and 4", turns, rec.Len(), n1, n2, turns+1)
	}
	if got := rec.State(turns / 3).(State).Count(match.P1); got != 4 {
		t.Errorf("a rebuilt state has %d cells of P1", got)
	}
}
