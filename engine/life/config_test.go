package life

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestConfigFinalAsIs loads the competition's configFinal.json as it is
// and requires the competition settings.
func TestConfigFinalAsIs(t *testing.T) {
	data, err := os.ReadFile("testdata/configFinal.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("configFinal.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want := Competition()
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("configFinal.json = %+v\nwant %+v", cfg, want)
	}
}

// TestConfigRoundTrip writes each preset and reads it back.
func TestConfigRoundTrip(t *testing.T) {
	for _, p := range (Game{}).Presets() {
		data, err := json.Marshal(p.Config)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig(p.Name, data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", p.Name, err, data)
		}
		if !reflect.DeepEqual(back, p.Config) {
			t.Errorf("%s: round trip changed the config:\n got %+v\nwant %+v", p.Name, back, p.Config)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/configFinal.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new string
		want           string // file:line: and message
	}{
		{"missing key", `"rows": 24,`, ``, `configFinal.json:24: game: missing key "rows"`},
		{"negative size", `"cols": 24`, `"cols": -3`, `configFinal.json:26: game.cols is -3: want a whole number from 1 to 4096`},
		{"start off board", `[11, 17]`, `[11, 30]`, `configFinal.json:17: players[1].startingCells[0]: cell (11,30) is off the 24x24 board`},
		{"bad ruleset", `"ruleset":"diff"`, `"ruleset":"life"`, `configFinal.json:32: game.ruleset is "life": want "diff" or "classic"`},
		{"bad variant", `"ruleset":"diff"`, `"ruleset":"diff", "variant":"p2wins"`, `game.variant is "p2wins"`},
		{"wrong type", `"rows": 24`, `"rows": "24"`, `configFinal.json:25:17: game.rows: expected a whole number, found string`},
		{"syntax", `"game": {`, `"game": {{`, `configFinal.json:24:13: invalid JSON`},
		{"one player", `"players": [`, `"players": [ {"startingCells": []} ], "x": [`, `want exactly 2 players`},
		{"cell shape", `[11, 17]`, `[11]`, `players[1].startingCells[0]: want a cell [row, col]`},
		{"bad timer", `"maxLength" : 300`, `"maxLength" : 0`, `players[0].timer: want maxLength`},
		{"no game", `"game"`, `"gameX"`, `missing key "game"`},
		// Numbers past their limits: a timer that overflows a duration,
		// a field wider than the largest board.
		{"huge timer", `"maxLength" : 300`, `"maxLength" : 9223372036854775`, `players[0].timer: want maxLength, 1 to 3600000 milliseconds`},
		{"huge field", `"players": [`, `"field": ["` + strings.Repeat(".", MaxSide+1) + `"], "players": [`, `field: 1 rows of 4097 cells: at most 4096 of 4096`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := strings.Replace(string(good), c.old, c.new, 1)
			if data == string(good) {
				t.Fatalf("config does not contain %q", c.old)
			}
			_, err := ParseConfig("configFinal.json", []byte(data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// FuzzParseConfig: no input makes the parser panic, and a config it
// accepts writes and reads back to itself.
func FuzzParseConfig(f *testing.F) {
	for _, p := range []string{"testdata/configFinal.json", "../../assets/life/64x64.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"game":{"rows":1,"cols":1,"cellGainPerTurn":0,"maxCellCapacity":0,"startingCells":0,"maxColonisationDistance":0,"maxGameIterations":0,"ruleset":"classic"},"players":[{"startingCells":[[0,0]]},{"startingCells":[]}],"field":["#"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("fuzz.json", data)
		if err != nil {
			return
		}
		out, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig("again.json", out)
		if err != nil {
			t.Fatalf("written config does not read back: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(cfg, back) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v", cfg, back)
		}
		if cfg.Rows*cfg.Cols <= 1<<16 {
			NewState(cfg, 1) // must not panic
		}
	})
}

// A board and a length that would step past 2^36 cell-generations (hours)
// are refused by name, with what this size allows; the limit itself plays.
func TestConfigWorkLimit(t *testing.T) {
	good, err := os.ReadFile("testdata/configFinal.json")
	if err != nil {
		t.Fatal(err)
	}
	at := func(rows, cols, iters int) []byte {
		s := strings.Replace(string(good), `"rows": 24`, fmt.Sprintf(`"rows": %d`, rows), 1)
		s = strings.Replace(s, `"cols": 24`, fmt.Sprintf(`"cols": %d`, cols), 1)
		return []byte(strings.Replace(s, `"maxGameIterations": 500`, fmt.Sprintf(`"maxGameIterations": %d`, iters), 1))
	}
	if _, err := ParseConfig("c.json", at(4096, 4096, 4096)); err != nil {
		t.Errorf("the limit: %v", err)
	}
	if _, err := ParseConfig("c.json", at(24, 24, MaxIterations)); err != nil {
		t.Errorf("24x24 for a million: %v", err)
	}
	_, err = ParseConfig("c.json", at(4096, 4096, 4097))
	if err == nil || !strings.Contains(err.Error(), "a 4096x4096 board for 4097 iterations is 68736253952 cell-generations: at most 2^36") || !strings.Contains(err.Error(), "at most 4096 iterations") {
		t.Errorf("past the limit: %v", err)
	}
}
