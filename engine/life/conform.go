package life

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Golden traces recorded from the original engine (reference/gconway):
// a scenario NAME.scenario.json gives the config or an explicit field and
// the exact lists each player sent; NAME.trace.jsonl holds one line per
// state and an end line. A conforming engine reproduces every state line
// and the kind of the end (final with its winner, error, or the script
// running out).

// Scenario is a golden scenario file.
type Scenario struct {
	Config    json.RawMessage `json:"config"`
	Field     []string        `json:"field"`
	Turns     []ScenarioTurn  `json:"turns"`
	PlayToEnd bool            `json:"playToEnd"`
}

// ScenarioTurn is what each player sent in one iteration, verbatim.
type ScenarioTurn struct {
	P1 json.RawMessage `json:"p1"`
	P2 json.RawMessage `json:"p2"`
}

// TraceLine is one line of a trace: a state line, or the end line when End
// is set.
type TraceLine struct {
	End         string          `json:"end,omitempty"`
	Iter        int             `json:"iter"`
	Field       []string        `json:"field,omitempty"`
	BankP1      int             `json:"cellsRemainingP1"`
	BankP2      int             `json:"cellsRemainingP2"`
	P1Count     int             `json:"p1Count"`
	P2Count     int             `json:"p2Count"`
	AppliedP1   []Cell          `json:"appliedP1"`
	AppliedP2   []Cell          `json:"appliedP2"`
	SubmittedP1 json.RawMessage `json:"submittedP1"`
	SubmittedP2 json.RawMessage `json:"submittedP2"`
	Winner      *int            `json:"winner,omitempty"`
	Error       string          `json:"error,omitempty"`
}

// LoadScenario reads a scenario and its config: the given one, or the
// original's defaultConfig.json; a field replaces the size and the start.
// Scenarios always play the original variant.
func LoadScenario(file string, data []byte) (*Scenario, *Config, error) {
	var sc Scenario
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, nil, fileerr.JSONError(file, data, err)
	}
	cfg := OriginalDefault()
	if len(sc.Config) > 0 {
		var err error
		if cfg, err = ParseConfig(file, sc.Config); err != nil {
			return nil, nil, err
		}
		cfg.Rules, cfg.TimerMs = VariantOriginal, [2]int{}
	}
	if sc.Field != nil {
		b, err := ParseRows(sc.Field)
		if err != nil {
			return nil, nil, fileerr.Errorf(file, data, []any{"field"}, "%v", err)
		}
		cfg.Field, cfg.Rows, cfg.Cols = sc.Field, b.Rows(), b.Cols()
	}
	return &sc, cfg, nil
}

// Run plays the scenario as the original engine did and returns the trace
// it makes.
func (sc *Scenario) Run(cfg *Config) []TraceLine {
	s := NewState(cfg, 0)
	empty := json.RawMessage("[]")
	lines := []TraceLine{stateLine(s, empty, empty)}
	for k := 0; s.ToMove() != match.Nobody; k++ {
		if k >= len(sc.Turns) && !sc.PlayToEnd {
			return append(lines, TraceLine{End: "script-exhausted"})
		}
		t := ScenarioTurn{P1: empty, P2: empty}
		if k < len(sc.Turns) {
			t = sc.Turns[k]
		}
		var acts [2]Action
		var fault []string
		for side, raw := range [2]json.RawMessage{t.P1, t.P2} {
			a, err := ParseCells(raw)
			if err == nil {
				err = s.Check(match.Side(side), a)
			}
			if err != nil {
				fault = append(fault, fmt.Sprintf("%s: %v", match.Side(side), err))
			}
			acts[side] = a
		}
		if fault != nil {
			return append(lines, TraceLine{End: "error", Iter: s.iter, Error: strings.Join(fault, "; ")})
		}
		s = s.Next(acts[0], acts[1])
		lines = append(lines, stateLine(s, t.P1, t.P2))
	}
	o := s.Outcome()
	w := int(o.Winner)
	end := stateLine(s, nil, nil)
	return append(lines, TraceLine{End: "final", Winner: &w, P1Count: end.P1Count, P2Count: end.P2Count})
}

func stateLine(s State, sub1, sub2 json.RawMessage) TraceLine {
	nonNil := func(c []Cell) []Cell {
		if c == nil {
			return []Cell{}
		}
		return c
	}
	return TraceLine{Iter: s.iter, Field: s.board.Field(), BankP1: s.bank[0], BankP2: s.bank[1],
		P1Count: s.Count(match.P1), P2Count: s.Count(match.P2),
		AppliedP1: nonNil(s.applied[0]), AppliedP2: nonNil(s.applied[1]), SubmittedP1: sub1, SubmittedP2: sub2}
}

// ReadTrace reads a trace file.
func ReadTrace(file string, data []byte) ([]TraceLine, error) {
	var lines []TraceLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l TraceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, &fileerr.FileError{File: file, Line: n, Msg: "want a trace line (JSON object): " + err.Error()}
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

// CompareTrace returns the first difference between the trace an engine
// made (got) and the golden one (want), or nil when they agree.
func CompareTrace(got, want []TraceLine) error {
	for i := range max(len(got), len(want)) {
		if i >= len(got) {
			return fmt.Errorf("line %d: the replay ended, the trace goes on with %s", i+1, describe(want[i]))
		}
		if i >= len(want) {
			return fmt.Errorf("line %d: the trace ended, the replay goes on with %s", i+1, describe(got[i]))
		}
		if err := compareLine(got[i], want[i]); err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return nil
}

func compareLine(g, w TraceLine) error {
	if g.End != "" || w.End != "" {
		switch {
		case g.End != w.End:
			return fmt.Errorf("got %s, want %s", describe(g), describe(w))
		case g.End == "error" && g.Iter != w.Iter:
			return fmt.Errorf("error at iteration %d, want at %d", g.Iter, w.Iter)
		case g.End == "final" && (*g.Winner != *w.Winner || g.P1Count != w.P1Count || g.P2Count != w.P2Count):
			return fmt.Errorf("got %s, want %s", describe(g), describe(w))
		}
		return nil
	}
	if g.Iter != w.Iter {
		return fmt.Errorf("iteration %d, want %d", g.Iter, w.Iter)
	}
	at := fmt.Sprintf("iteration %d: ", g.Iter)
	if len(g.Field) != len(w.Field) {
		return fmt.Errorf("%sfield has %d rows, want %d", at, len(g.Field), len(w.Field))
	}
	for r := range g.Field {
		if g.Field[r] != w.Field[r] {
			return fmt.Errorf("%sfield row %d is %q, want %q", at, r, g.Field[r], w.Field[r])
		}
	}
	for _, f := range []struct {
		name      string
		got, want int
	}{{"cellsRemainingP1", g.BankP1, w.BankP1}, {"cellsRemainingP2", g.BankP2, w.BankP2},
		{"p1Count", g.P1Count, w.P1Count}, {"p2Count", g.P2Count, w.P2Count}} {
		if f.got != f.want {
			return fmt.Errorf("%s%s is %d, want %d", at, f.name, f.got, f.want)
		}
	}
	if !slices.Equal(g.AppliedP1, w.AppliedP1) {
		return fmt.Errorf("%sappliedP1 is %v, want %v", at, g.AppliedP1, w.AppliedP1)
	}
	if !slices.Equal(g.AppliedP2, w.AppliedP2) {
		return fmt.Errorf("%sappliedP2 is %v, want %v", at, g.AppliedP2, w.AppliedP2)
	}
	for _, f := range []struct {
		name      string
		got, want json.RawMessage
	}{{"submittedP1", g.SubmittedP1, w.SubmittedP1}, {"submittedP2", g.SubmittedP2, w.SubmittedP2}} {
		if !sameJSON(f.got, f.want) {
			return fmt.Errorf("%s%s is %s, want %s", at, f.name, f.got, f.want)
		}
	}
	return nil
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

func describe(l TraceLine) string {
	switch l.End {
	case "":
		return fmt.Sprintf("the state of iteration %d", l.Iter)
	case "final":
		winner := "a draw"
		if *l.Winner >= 0 {
			winner = match.Side(*l.Winner).String() + " wins"
		}
		return fmt.Sprintf("the end of the game: %s, %d to %d cells", winner, l.P1Count, l.P2Count)
	case "error":
		return fmt.Sprintf("an invalid action at iteration %d", l.Iter)
	}
	return "the end of the script"
}

// Conform checks a golden scenario/trace pair. file may name either; the
// other is found beside it. It returns a summary of what was checked.
func Conform(file string, read func(string) ([]byte, error)) (string, error) {
	base, ok := strings.CutSuffix(file, ".scenario.json")
	if !ok {
		if base, ok = strings.CutSuffix(file, ".trace.jsonl"); !ok {
			return "", fmt.Errorf("%s: want a golden scenario NAME.scenario.json or trace NAME.trace.jsonl", file)
		}
	}
	scFile, trFile := base+".scenario.json", base+".trace.jsonl"
	scData, err := read(scFile)
	if err != nil {
		return "", err
	}
	trData, err := read(trFile)
	if err != nil {
		return "", fmt.Errorf("%s: its trace: %v", scFile, err)
	}
	sc, cfg, err := LoadScenario(scFile, scData)
	if err != nil {
		return "", err
	}
	want, err := ReadTrace(trFile, trData)
	if err != nil {
		return "", err
	}
	got := sc.Run(cfg)
	if err := CompareTrace(got, want); err != nil {
		return "", fmt.Errorf("%s: %v", filepath.Base(trFile), err)
	}
	return fmt.Sprintf("%d states, %s", len(got)-1, describe(got[len(got)-1])), nil
}
