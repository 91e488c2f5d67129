package gobot_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// TestStrongsSearchAsAGoFile plays internal/makeunmake, strong's search
// written against the bot API, built with Go, against strong with the
// same node budget, and strong against that strong: the go: file plays
// strong's moves, and searches as many nodes a move. The benchmark that
// sets their speeds side by side (BenchmarkSearchNodes) counts the same
// searches.
func TestStrongsSearchAsAGoFile(t *testing.T) {
	g, _ := match.Lookup("colosseum")
	port, _ := play.ParseSpec("go:" + filepath.Join("internal", "makeunmake", "bot.go"))
	strong, _ := play.ParseSpec("strong:nodes=20000")
	play := func(p1 play.Spec) ([]string, []int64) {
		rec, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 7, Players: [2]play.Spec{p1, strong}})
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		var nodes []int64
		for _, tn := range rec.Turns {
			b, _ := json.Marshal(tn.Actions)
			moves = append(moves, string(b))
			if n := tn.Notes[0].Get(); n != nil && tn.Actions[0] != nil {
				nodes = append(nodes, n.Nodes)
			}
			if tn.Replaced[0] != "" {
				t.Fatalf("turn: P1's move was replaced: %s", tn.Replaced[0])
			}
		}
		return moves, nodes
	}
	got, gotNodes := play(port)
	want, wantNodes := play(strong)
	if a, b := strings.Join(got, "\n"), strings.Join(want, "\n"); a != b {
		t.Errorf("the go: file's moves part from strong's %s", firstDiff(a, b))
	}
	if !slices.Equal(gotNodes, wantNodes) {
		t.Errorf("nodes a move: the go: file %v, strong %v", gotNodes, wantNodes)
	}
}
