package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// arena analyse: the same command gives the same analysis (its figures
// are reproducible), K best options with lines, the rest refuted; a
// turn past the replay's end, a game nothing analyses yet and a -game
// that is not the replay's are refused by name.
func TestAnalyse(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "game.json")
	var out bytes.Buffer
	if code := run([]string{"play", "-game", "colosseum", "-preset", "6", "-p1", "strong", "-p2", "greedy", "-seed", "3", "-replay", replay}, &out, &out); code != 0 {
		t.Fatalf("arena play: %s", out.String())
	}
	analyse := func(args ...string) (string, int) {
		var b bytes.Buffer
		code := run(append([]string{"analyse", "-replay", replay}, args...), &b, &b)
		return b.String(), code
	}
	first, code := analyse("-turn", "4", "-nodes", "30000", "-k", "4", "-json")
	again, _ := analyse("-turn", "4", "-nodes", "30000", "-k", "4", "-json")
	if code != 0 || first != again {
		t.Fatalf("arena analyse twice: exit %d, the same output %v:\n%s", code, first == again, first)
	}
	var an match.Analysis
	if err := json.Unmarshal([]byte(first), &an); err != nil {
		t.Fatalf("arena analyse -json: %v\n%s", err, first)
	}
	if an.Turn != 4 || an.Side != match.P1 || len(an.Best) != 4 || len(an.Others) == 0 || an.Depth < 2 || an.Nodes > 30000 {
		t.Errorf("the analysis: turn %d, side %v, %d best, %d others, depth %d, %d nodes", an.Turn, an.Side, len(an.Best), len(an.Others), an.Depth, an.Nodes)
	}
	for i, v := range an.Best {
		if len(v.Line) == 0 || i > 0 && v.Value > an.Best[i-1].Value {
			t.Errorf("best option %d: %+v, not in order or without its line", i, v)
		}
	}
	text, _ := analyse("-turn", "4", "-depth", "2")
	for _, want := range []string{"colosseum, turn 4, P1 to move: 2 plies", "best\n  1. ", "refuted (worth at most)", "≤ ", "by P2 "} {
		if !strings.Contains(text, want) {
			t.Errorf("arena analyse's text has no %q:\n%s", want, text)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-turn", "999"}, "-turn 999: " + replay + " has positions with a move to make at turns 0 to"},
		{[]string{"-game", "life"}, "-game life: " + replay + " is a replay of colosseum"},
		{[]string{"-k", "0"}, "-k 0: want 1 to 64 options"},
	} {
		if said, code := analyse(c.args...); code == 0 || !strings.Contains(said, c.want) {
			t.Errorf("arena analyse %v: exit %d, %q; want %q", c.args, code, said, c.want)
		}
	}
	path := filepath.Join(dir, "pathgame.json")
	if code := run([]string{"play", "-game", "pathgame", "-p1", "random", "-p2", "random", "-seed", "1", "-replay", path}, &out, &out); code != 0 {
		t.Fatalf("arena play pathgame: %s", out.String())
	}
	var b bytes.Buffer
	if code := run([]string{"analyse", "-replay", path, "-turn", "1", "-depth", "3"}, &b, &b); code != 0 || !strings.Contains(b.String(), "pathgame, turn 1, P2 to move: 3 plies") {
		t.Errorf("arena analyse of a shortest-path replay: exit %d, %q", code, b.String())
	}
}
