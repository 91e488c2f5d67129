package analysis

import (
	"context"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// TestEveryGameNamesItsMoves: each game says what kind of move each of a
// report's decisions is, and a game of greedy against random plays more
// than one kind (a classifier that names every move alike groups
// nothing).
func TestEveryGameNamesItsMoves(t *testing.T) {
	for _, g := range match.Games() {
		name := g.Info().Name
		t.Run(name, func(t *testing.T) {
			if _, ok := g.(MoveKinds); !ok {
				t.Fatalf("%s does not name its moves (analysis.MoveKinds)", name)
			}
			preset := map[string]string{"colosseum": "6", "mapcolor": "usa"}[name]
			setup, err := play.NewSetup(name, preset, 2, "greedy", "random")
			if err != nil {
				t.Fatal(err)
			}
			rec, err := play.Play(context.Background(), setup)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Make(context.Background(), rec, Options{Depth: 1, Every: max(1, len(rec.Turns)/40)})
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]int{}
			for _, d := range r.Decisions {
				if d.Kind == "" {
					t.Fatalf("turn %d, %s: %s has no kind", d.Turn, d.Side, d.Move)
				}
				kinds[d.Kind]++
			}
			if len(kinds) < 2 {
				t.Errorf("%d decisions, all of one kind: %v", len(r.Decisions), kinds)
			}
			t.Logf("%d decisions: %v", len(r.Decisions), kinds)
		})
	}
}
