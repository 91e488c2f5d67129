package play

import (
	"bytes"
	"github.com/arena-playground/arena/engine/match"
	"strings"
	"testing"
)

func replayBytes(t *testing.T, rec *Record) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := SaveReplay(&b, rec); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReplayRoundTrip: a replay rebuilds the same states and writes the
// same bytes again; the same setup writes the same bytes twice.
func TestReplayRoundTrip(t *testing.T) {
	for _, cfg := range []*tallyConfig{{Turns: 9}, {Turns: 6, Simultaneous: true}} {
		rec := play(t, cfg, "random", "counter")
		data := replayBytes(t, rec)
		if again := replayBytes(t, play(t, cfg, "random", "counter")); !bytes.Equal(data, again) {
			t.Fatalf("same setup, different replays:\n%s\n%s", data, again)
		}
		back, err := LoadReplay("r.json", data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if back.Len() != rec.Len() {
			t.Fatalf("rebuilt %d states, want %d", back.Len(), rec.Len())
		}
		for k := range rec.Len() {
			if b, r := back.State(k).(tallyState), rec.State(k).(tallyState); b.sum != r.sum || b.turn != r.turn {
				t.Errorf("state %d: rebuilt %+v, want %+v", k, back.State(k), rec.State(k))
			}
		}
		if out := replayBytes(t, back); !bytes.Equal(out, data) {
			t.Errorf("rewritten replay differs:\n%s\n%s", out, data)
		}
	}
}

func TestReplayOfForfeitLoads(t *testing.T) {
	rec := play(t, &tallyConfig{Turns: 6}, "one", "eleven")
	back, err := LoadReplay("f.json", replayBytes(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	if back.Result.Winner != match.P1 || back.Result.Forfeits[0].Side != match.P2 || string(back.Result.Forfeits[0].Action) != "11" {
		t.Errorf("forfeit replay: %+v", back.Result)
	}
}

// TestDamagedReplays: each damage gets an error naming the file, the line
// and what is wrong.
func TestDamagedReplays(t *testing.T) {
	data := string(replayBytes(t, play(t, &tallyConfig{Turns: 5}, "nine", "one")))
	cases := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"truncated", func(s string) string { return s[:len(s)/2] }, "r.json:"},
		{"not a replay", func(s string) string { return strings.Replace(s, `"arena-replay"`, `"other"`, 1) }, `r.json:2: not an arena replay`},
		{"version", func(s string) string { return strings.Replace(s, `"version": 1`, `"version": 2`, 1) }, "r.json:3: replay version 2: this arena reads version 1"},
		{"game", func(s string) string { return strings.Replace(s, `"game": "tally"`, `"game": "chess"`, 1) }, `r.json:4: unknown game "chess"`},
		{"variant", func(s string) string { return strings.Replace(s, `"variant": "standard"`, `"variant": "other"`, 1) }, `r.json:5: variant "other"`},
		{"illegal action", func(s string) string { return strings.Replace(s, `"actions":[null,1]`, `"actions":[null,12]`, 1) }, "r.json:11: turn 1: P2 action is not legal: 12 is not a digit"},
		{"out of turn", func(s string) string { return strings.Replace(s, `"actions":[null,1]`, `"actions":[3,1]`, 1) }, "r.json:11: turn 1: P1 acted out of turn"},
		{"bad action", func(s string) string { return strings.Replace(s, `"actions":[null,1]`, `"actions":[null,"x"]`, 1) }, "r.json:11: turn 1: P2 action"},
		{"result", func(s string) string { return strings.Replace(s, `"winner":"P1"`, `"winner":"P2"`, 1) }, "r.json:16: recorded result"},
		{"missing turn", func(s string) string { return strings.Replace(s, ",\n    {\"actions\":[9,null]}\n  ]", "\n  ]", 1) }, "r.json:15: the turns end at 4 before the game is over, and no forfeit is recorded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edited := c.edit(data)
			if edited == data {
				t.Fatalf("edit did nothing to\n%s", data)
			}
			_, err := LoadReplay("r.json", []byte(edited))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q\n%s", err, c.want, edited)
			}
		})
	}
}
