package play

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// fullNote is a note with every field set: a field added to match.Note
// and not to noteWritten fails TestTurnWrittenReadsEveryField.
func fullNote() *match.Note {
	eval := -2.5
	return &match.Note{Depth: 7, Nodes: 123456, Eval: &eval, Line: []string{"a1", "b2"}, Text: "région 140",
		Said: []string{"thinking…", "x=3"}, Marks: []match.Mark{{At: match.AtMove(194, 222, 8), Value: 1e21, Label: "N"}, {At: match.AtEdge(3, 9), Value: -0.125}},
		MarksLeft: 4, Expects: []match.Place{match.AtCell(3, 4), match.AtNode(7), match.AtState(2)}}
}

// wireSeeds are turn messages as the page receives them, and forms of
// them json.Marshal does not write.
func wireSeeds(t testing.TB) [][]byte {
	full := Message{Kind: MsgTurn, Turn: 12, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`{"a":[1,2.5e3,"x\"y"],"b":null,"c":true}`), json.RawMessage(`null`)},
		Notes: [2]*match.Note{fullNote(), {}}, Replaced: [2]string{"", "timed out"}, ThinkMs: [2]float64{1.5, 0}}, ThinkUs: [2]int64{12, 3400}}
	var seeds [][]byte
	for _, m := range []Message{
		full,
		{Kind: MsgTurn, Turn: 0, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`3`), json.RawMessage(`-0`)}}},
		{Kind: MsgTurn, Turn: 3, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`[]`), json.RawMessage(`{}`)}, Notes: [2]*match.Note{nil, {Text: "<&>"}}}},
		{Kind: MsgEnd, Turn: 4, Result: &Result{Turns: 4}},
	} {
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	return append(seeds,
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"text":"caf\u00e9"},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"text":"`+"\xff"+`"},null]}`),
		[]byte(`{"kind":"turn","turn":01,"actions":[1,2]}`),
		[]byte(`{"kind":"turn","turn":1.0,"actions":[1,2]}`),
		[]byte(`{"kind":"turn", "turn":1,"actions":[1,2]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"marks":[{"at":"cell  3 4","v":1}]},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"marks":[{"at":"move 1 2 9","v":1}]},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"eval":1,"depth":2},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"depth":2,"depth":3},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"extra":1}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2]}x`),
		[]byte(`{"kind":"turn","turn":1,"actions":[[1,],2]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":["\u12G4",2]}`),
		[]byte(`{"kind":"turn","turn":99999999999999999999,"actions":[1,2]}`),
	)
}

// TestTurnWrittenIsEncodingJSON holds the hand reading of a turn to
// encoding/json's: whatever turnWritten reads, encoding/json reads the
// same; whatever it does not, DecodeMessage still reads as encoding/json.
func TestTurnWrittenIsEncodingJSON(t *testing.T) {
	fast := 0
	for _, data := range wireSeeds(t) {
		if sameAsEncodingJSON(t, data) {
			fast++
		}
	}
	// The first three are json.Marshal's own turns, and café is plain UTF-8 once decoded.
	if fast != 3 {
		t.Errorf("the hand reader read %d of the seeds, want the 3 json.Marshal wrote", fast)
	}
}

// FuzzDecodeMessage holds turnWritten to encoding/json on any bytes.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range wireSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsEncodingJSON(t, data) })
}

// sameAsEncodingJSON fails t where turnWritten reads data otherwise than
// encoding/json, or DecodeMessage differs from it; it reports whether the
// hand reader read it.
func sameAsEncodingJSON(t testing.TB, data []byte) bool {
	t.Helper()
	var want Message
	wantErr := json.Unmarshal(data, &want)
	m, ok := turnWritten(data)
	if ok && (wantErr != nil || !reflect.DeepEqual(m, want)) {
		t.Fatalf("%q: read by hand as %+v, by encoding/json as %+v (%v)", data, m, want, wantErr)
	}
	got, err := DecodeMessage(data)
	if (err == nil) != (wantErr == nil) || err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: DecodeMessage gave %+v (%v), encoding/json %+v (%v)", data, got, err, want, wantErr)
	}
	return ok
}

// TestTurnWrittenReadsEveryField holds the hand reader to every field of
// a turn and of a note: a turn with all of them set is read by hand, as
// encoding/json reads it.
func TestTurnWrittenReadsEveryField(t *testing.T) {
	everySet(t, reflect.ValueOf(*fullNote()), "match.Note")
	m := Message{Kind: MsgTurn, Turn: 1, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`1`), json.RawMessage(`2`)},
		Notes: [2]*match.Note{fullNote(), fullNote()}, Replaced: [2]string{"a", "b"}, ThinkMs: [2]float64{1, 2}}, ThinkUs: [2]int64{3, 4}}
	everySet(t, reflect.ValueOf(m.ReplayTurn), "ReplayTurn")
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !sameAsEncodingJSON(t, data) {
		t.Fatalf("a turn with every field set was left to encoding/json: %s", data)
	}
}

// everySet fails t for a field of v left zero.
func everySet(t *testing.T, v reflect.Value, name string) {
	t.Helper()
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("%s.%s is not set here: set it, and read it in wire.go", name, v.Type().Field(i).Name)
		}
	}
}
