package life

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// TestGolden replays every golden scenario recorded from the original
// engine and compares every state line and the end line.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 33 {
		t.Fatalf("found %d golden scenarios, want 33", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".scenario.json"), func(t *testing.T) {
			if _, err := Conform(f, os.ReadFile); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestGoldenDetectsDifferences checks that conformance is not vacuous:
// a trace with one changed cell, bank, applied list or end fails, naming
// the difference.
func TestGoldenDetectsDifferences(t *testing.T) {
	scFile := "testdata/golden/q01_collision_p2_keeps_cell.scenario.json"
	trFile := strings.Replace(scFile, ".scenario.json", ".trace.jsonl", 1)
	trace, err := os.ReadFile(trFile)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new, want string
	}{
		{"field", `"...#......","..#.#.OOO."`, `"...#......","..#.#.OO.."`, "field row 3"},
		{"bank", `"cellsRemainingP1":7`, `"cellsRemainingP1":8`, "cellsRemainingP1 is 7, want 8"},
		{"applied", `"appliedP2":[[3,5],[5,9]]`, `"appliedP2":[[5,9]]`, "appliedP2"},
		{"end", `{"end":"script-exhausted"}`, `{"end":"final","winner":0,"p1Count":5,"p2Count":7}`, "end of the script"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(string(trace), c.old, c.new, 1)
			if changed == string(trace) {
				t.Fatalf("the trace does not contain %s", c.old)
			}
			read := func(name string) ([]byte, error) {
				if name == trFile {
					return []byte(changed), nil
				}
				return os.ReadFile(name)
			}
			_, err := Conform(scFile, read)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Conform with a changed %s = %v, want an error mentioning %q", c.name, err, c.want)
			}
		})
	}
}

// TestArenaVariantCancelsCollisions plays the q01 collision under the
// playground's default rules: the contested cell stays dead and both pay.
func TestArenaVariantCancelsCollisions(t *testing.T) {
	data, err := os.ReadFile("testdata/golden/q01_collision_p2_keeps_cell.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, cfg, err := LoadScenario("q01", data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rules = VariantArena
	lines := sc.Run(cfg)
	got := lines[1]
	if len(got.AppliedP1) != 1 || len(got.AppliedP2) != 1 {
		t.Fatalf("applied %v / %v, want the contested (3,5) dropped from both", got.AppliedP1, got.AppliedP2)
	}
	if got.BankP1 != 4 || got.BankP2 != 4 {
		t.Errorf("banks %d/%d, want both 4 (both paid 2)", got.BankP1, got.BankP2)
	}
	s := NewState(cfg, 0).Next(Action{{3, 5}, {2, 2}}, Action{{3, 5}, {5, 9}})
	if s.Collided()[0] != (Cell{3, 5}) {
		t.Errorf("collided %v, want [(3,5)]", s.Collided())
	}
}

// TestMessageMatchesRecorded compares the lines Message writes with the
// lines the original server sent to its players, in a 6-iteration game
// where both players sent nothing. Only timeLeftForMove depends on how
// long the players took; it is checked against the bucket rule.
func TestMessageMatchesRecorded(t *testing.T) {
	data, err := os.ReadFile("testdata/configFinal.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("configFinal.json", data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Iterations = 6
	for _, side := range match.Sides {
		file := "testdata/recorded/server-to-p" + string('1'+byte(side)) + ".normal.jsonl"
		rec, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s := NewState(cfg, 0)
		sc := bufio.NewScanner(bytes.NewReader(rec))
		sc.Buffer(nil, 1<<20)
		for n := 0; sc.Scan(); n++ {
			var want map[string]any
			if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			left := int(want["timeLeftForMove"].(float64))
			if left > 1500 || left <= 0 {
				t.Errorf("%s line %d: timeLeftForMove %d outside the bucket", file, n+1, left)
			}
			got := Message(s, side, left)
			if !bytes.Equal(bytes.TrimSpace(got), sc.Bytes()) {
				t.Errorf("%s line %d:\n got %s\nwant %s", file, n+1, got, sc.Bytes())
			}
			s = s.Next(Action{}, Action{})
		}
	}
}

func TestParseReplyLenient(t *testing.T) {
	cases := []struct {
		in   string
		want Action
		bad  bool
	}{
		{`{"cells":[]}`, Action{}, false},
		{`{"cells":[[2.9,"2"],[2,0,99]]}`, Action{{2, 2}, {2, 0}}, false},
		{`{"cells":[[-2.9,1e1]],"extra":true}`, Action{{-2, 10}}, false},
		{`{"cells":[[[3],4]]}`, Action{{3, 4}}, false},
		{`{"cells":[[4294967298,1]]}`, Action{{2, 1}}, false}, // Java's (int) of a long
		{`{"cells":[[1]]}`, nil, true},
		{`{"cells":[["2.5",1]]}`, nil, true},
		{`{"cells":[[true,1]]}`, nil, true},
		{`{"cells":3}`, nil, true},
		{`{"cell":[]}`, nil, true},
		{`[1,2]`, nil, true},
		{`not json`, nil, true},
	}
	for _, c := range cases {
		got, err := ParseReply([]byte(c.in))
		if c.bad {
			if err == nil {
				t.Errorf("ParseReply(%s) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !equalActions(got, c.want) {
			t.Errorf("ParseReply(%s) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func equalActions(a, b Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
