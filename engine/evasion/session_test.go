package evasion

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// A session replays identically: the same setup plays the same session,
// and its replay file loads back to the same states, tick for tick.
func TestSessionReplays(t *testing.T) {
	setup := play.Setup{Game: Game{}, Config: Preset(10, 10), Seed: 4,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}}
	a, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	b, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := play.SaveReplay(&file, a); err != nil {
		t.Fatal(err)
	}
	c, err := play.LoadReplay("s.json", file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != b.Len() || a.Len() != c.Len() {
		t.Fatalf("%d, %d and %d states", a.Len(), b.Len(), c.Len())
	}
	for k := range a.Len() {
		sa, sb, sc := a.State(k).(State), b.State(k).(State), c.State(k).(State)
		if sa.Message() != sb.Message() || sa.Message() != sc.Message() || sa.GameNum() != sc.GameNum() {
			t.Fatalf("state %d: %q, again %q, from the replay %q", k, sa.Message(), sb.Message(), sc.Message())
		}
	}
	if a.Result.String() != c.Result.String() {
		t.Errorf("result %q, from the replay %q", a.Result, c.Result)
	}
	// Both games ended, and the second started afresh.
	last := a.State(a.Len() - 1).(State)
	if last.End(0) == nil || last.End(1) == nil || last.ToMove() != match.Nobody {
		t.Fatalf("the session did not end with two games: %+v", last)
	}

	// A damaged replay is refused with the turn and what was wrong.
	for _, tc := range []struct{ from, to, want string }{
		{`{"actions":[`, `{"actions":[{"x": 1},`, "want the reply's numbers"},
		{`{"actions":[`, `{"actions":[[0],`, "fewer than 2 numbers"},
	} {
		bad := strings.Replace(file.String(), tc.from, tc.to, 1)
		if bad == file.String() {
			t.Fatalf("no %q in the replay", tc.from)
		}
		if _, err := play.LoadReplay("bad.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.json:") {
			t.Errorf("%s: %v, want %q", tc.to, err, tc.want)
		}
	}
}
