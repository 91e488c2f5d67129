package play

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/jsonwire"
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
		Notes: [2]*KeptNote{Kept(fullNote()), Kept(&match.Note{})}, Replaced: [2]string{"", "timed out"}, ThinkMs: [2]float64{1.5, 0}}, ThinkUs: [2]int64{12, 3400}}
	var seeds [][]byte
	for _, m := range []Message{
		full,
		{Kind: MsgTurn, Turn: 0, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`3`), json.RawMessage(`-0`)}}},
		{Kind: MsgTurn, Turn: 3, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`[]`), json.RawMessage(`{}`)}, Notes: [2]*KeptNote{nil, Kept(&match.Note{Text: "<&>"})}}},
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
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"depth":1,"eval":2,"eval":3},null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[1,null]}`),
		[]byte(`{"kind":"turn","turn":1,"actions":[1,2],"notes":[{"depth":1,"eval":-0.5,"marks":[]},{"eval":1e400}]}`),
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
// same, but for a note, which it keeps as its JSON to be read when it is
// asked for; whatever it does not, DecodeMessage still reads as
// encoding/json.
func TestTurnWrittenIsEncodingJSON(t *testing.T) {
	var fast []int
	for i, data := range wireSeeds(t) {
		if sameAsEncodingJSON(t, data) {
			fast = append(fast, i)
		}
	}
	// json.Marshal's own three; then the turns whose notes are objects
	// json.Marshal would not write (café, invalid UTF-8, a place that is
	// none, keys twice or out of order, a number past float64's), kept as
	// their JSON; not a note that is no object.
	if want := []int{0, 1, 2, 4, 5, 9, 10, 11, 13, 14, 15}; !slices.Equal(fast, want) {
		t.Errorf("the hand reader read seeds %v, want %v", fast, want)
	}
}

// FuzzDecodeMessage holds turnWritten to encoding/json on any bytes.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range wireSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsEncodingJSON(t, data) })
}

// notesAsJSON is a message with its notes left as their JSON, as
// encoding/json reads it: what turnWritten is held to.
type notesAsJSON struct {
	Message
	Notes [2]json.RawMessage `json:"notes,omitzero"`
}

// sameAsEncodingJSON fails t where turnWritten reads data otherwise than
// encoding/json, or DecodeMessage differs from it; it reports whether the
// hand reader read it. A note turnWritten keeps is held to encoding/json's
// reading of its JSON when it is read; one encoding/json does not read
// reads as a note that says so, and the message is otherwise
// encoding/json's.
func sameAsEncodingJSON(t testing.TB, data []byte) bool {
	t.Helper()
	var want Message
	wantErr := json.Unmarshal(data, &want)
	got, err := DecodeMessage(data)
	m, ok := turnWritten(data)
	if !ok {
		if (err == nil) != (wantErr == nil) || err == nil && !sameMessage(got, want) {
			t.Fatalf("%q: DecodeMessage gave %+v (%v), encoding/json %+v (%v)", data, got, err, want, wantErr)
		}
		return false
	}
	if err != nil || !sameMessage(got, m) {
		t.Fatalf("%q: DecodeMessage gave %+v (%v), not the hand reader's %+v", data, got, err, m)
	}
	var shell notesAsJSON
	if err := json.Unmarshal(data, &shell); err != nil {
		t.Fatalf("%q: read by hand as %+v, encoding/json refuses it: %v", data, m, err)
	}
	rest := m
	rest.Notes = [2]*KeptNote{}
	if !reflect.DeepEqual(rest, shell.Message) {
		t.Fatalf("%q: read by hand as %+v, by encoding/json as %+v", data, rest, shell.Message)
	}
	for side, raw := range shell.Notes {
		var n *match.Note
		var noteErr error
		if len(raw) > 0 {
			noteErr = json.Unmarshal(raw, &n)
		}
		kept := m.Notes[side]
		switch {
		case n == nil && noteErr == nil:
			if kept != nil {
				t.Fatalf("%q: note %d is null, read by hand as %+v", data, side, kept.Get())
			}
		case noteErr != nil:
			if got := kept.Get(); got == nil || !strings.HasPrefix(got.Text, "this note could not be read: ") {
				t.Fatalf("%q: note %d does not read (%v), and the kept note says %+v", data, side, noteErr, got)
			}
		case !reflect.DeepEqual(kept.Get(), n):
			t.Fatalf("%q: note %d read by hand as %+v, by encoding/json as %+v", data, side, kept.Get(), n)
		}
		if r := jsonwire.New(raw); n != nil && noteWritten(r) != nil && r.Done() {
			// A note as json.Marshal writes one: its evaluation is read
			// ahead exactly.
			v, has := kept.Eval()
			if has != (n.Eval != nil) || has && v != *n.Eval {
				t.Fatalf("%q: note %d's evaluation read ahead as %v %v, read in full as %v", data, side, v, has, n.Eval)
			}
		}
	}
	return true
}

// sameMessage reports whether a and b are the same message, their notes
// read.
func sameMessage(a, b Message) bool {
	for side := range a.Notes {
		if !reflect.DeepEqual(a.Notes[side].Get(), b.Notes[side].Get()) {
			return false
		}
	}
	a.Notes, b.Notes = [2]*KeptNote{}, [2]*KeptNote{}
	return reflect.DeepEqual(a, b)
}

// TestTurnWrittenReadsEveryField holds the hand reader to every field of
// a turn and of a note: a turn with all of them set is read by hand, as
// encoding/json reads it.
func TestTurnWrittenReadsEveryField(t *testing.T) {
	everySet(t, reflect.ValueOf(*fullNote()), "match.Note")
	m := Message{Kind: MsgTurn, Turn: 1, ReplayTurn: ReplayTurn{Actions: [2]json.RawMessage{json.RawMessage(`1`), json.RawMessage(`2`)},
		Notes: [2]*KeptNote{Kept(fullNote()), Kept(fullNote())}, Replaced: [2]string{"a", "b"}, ThinkMs: [2]float64{1, 2}}, ThinkUs: [2]int64{3, 4}}
	everySet(t, reflect.ValueOf(m.ReplayTurn), "ReplayTurn")
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !sameAsEncodingJSON(t, data) {
		t.Fatalf("a turn with every field set was left to encoding/json: %s", data)
	}
	note, _ := json.Marshal(fullNote())
	if r := jsonwire.New(note); noteWritten(r) == nil || !r.Done() {
		t.Fatalf("a note with every field set was left to encoding/json: %s", note)
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
