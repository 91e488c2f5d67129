package match

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestMarksAreBounded(t *testing.T) {
	var n Note
	for i := range MaxMarks + 10 {
		n.Mark(AtCell(i, 0), float64(i), "a long label")
	}
	if len(n.Marks) != MaxMarks || n.MarksLeft != 10 {
		t.Fatalf("kept %d marks and counted %d, want %d and 10", len(n.Marks), n.MarksLeft, MaxMarks)
	}
	if n.Marks[MaxMarks-1].At != AtCell(MaxMarks-1, 0) {
		t.Fatalf("the last kept is %v: the first marked must be kept", n.Marks[MaxMarks-1].At)
	}
	if l := n.Marks[0].Label; l != "a long l" {
		t.Fatalf("label kept as %q, want its first %d characters", l, MaxMarkLabel)
	}
	for i := range MaxExpect + 3 {
		n.Expect(AtNode(i))
	}
	if len(n.Expects) != MaxExpect {
		t.Fatalf("kept %d places of the line, want %d", len(n.Expects), MaxExpect)
	}
}

// TestBoundTrimsWhatABotSetItself: a bot (one interpreted in the page,
// whose note arrives as JSON) can fill the slices without Mark; the match
// keeps the same bounds.
func TestBoundTrimsWhatABotSetItself(t *testing.T) {
	n := Note{Marks: make([]Mark, MaxMarks+7), Expects: make([]Place, MaxExpect+3)}
	for i := range n.Marks {
		n.Marks[i].At = AtNode(i)
	}
	for i := range n.Expects {
		n.Expects[i] = AtNode(i)
	}
	n.Marks[0] = Mark{At: AtCell(1, 1), Value: math.Inf(1), Label: "ünïcödé label"}
	n.Marks[1].Value = math.NaN()
	n.Marks[2].At, n.Marks[3].At, n.Expects[0] = Place{}, Place{Kind: 9}, Place{} // no kind: dropped
	n.Bound()
	if len(n.Marks) != MaxMarks || n.MarksLeft != 5 || len(n.Expects) != MaxExpect || n.Expects[0] != AtNode(1) {
		t.Fatalf("bound kept %d marks (%d counted) and %d places", len(n.Marks), n.MarksLeft, len(n.Expects))
	}
	if n.Marks[0].Value != 1e9 || n.Marks[1].Value != 0 || n.Marks[0].Label != "ünïcödé " {
		t.Fatalf("bound left %+v and %+v", n.Marks[0], n.Marks[1])
	}
	if _, err := json.Marshal(&n); err != nil {
		t.Fatalf("a bounded note must write as JSON: %v", err)
	}
}

func TestPlacesRoundTrip(t *testing.T) {
	for _, p := range []Place{AtCell(3, 4), AtMove(0, 11, 3), AtMove(5, 5, 8), AtNode(7), AtEdge(7, 9), AtState(0)} {
		b, err := json.Marshal(Mark{At: p, Value: -2.5, Label: "x"})
		if err != nil {
			t.Fatal(err)
		}
		var m Mark
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if m.At != p || m.Value != -2.5 || m.Label != "x" {
			t.Fatalf("%s read back as %+v", b, m)
		}
	}
	if b, _ := json.Marshal(AtMove(1, 2, 3)); string(b) != `"move 1 2 3"` {
		t.Fatalf("a move writes as %s", b)
	}
}

func TestBadPlacesAreRefusedByName(t *testing.T) {
	for in, want := range map[string]string{
		`"square 1 2"`:     "want cell R C",
		`"cell 1"`:         "cell takes 2 numbers",
		`"cell -1 2"`:      "not a count from 0",
		`"move 1 2 9"`:     "a side is 0 to 8",
		`"node 99999999"`:  "not a count from 0",
		`"edge 1 two"`:     `"two" is not a count`,
		`""`:               "want cell R C",
		`"state 1 2 3 4"`:  "state takes 1 numbers",
		`"node 1e3"`:       "not a count from 0",
		`"cell 0x1 0"`:     "not a count from 0",
		`"edge 1 2 extra"`: "edge takes 2 numbers",
	} {
		var p Place
		err := json.Unmarshal([]byte(in), &p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want it to say %q", in, err, want)
		}
	}
	if _, err := json.Marshal(Place{}); err == nil {
		t.Error("a place of no kind must not be written")
	}
}

// TestNotesWithoutMarksLoad: a replay written before marks existed reads
// as a note without them, and a note with only marks is not empty.
func TestNotesWithoutMarksLoad(t *testing.T) {
	var n Note
	if err := json.Unmarshal([]byte(`{"depth":3,"eval":1.5,"line":["a"]}`), &n); err != nil {
		t.Fatal(err)
	}
	if n.Marks != nil || n.Expects != nil || n.Thought() {
		t.Fatalf("read %+v", n)
	}
	if b, _ := json.Marshal(&n); strings.Contains(string(b), "marks") || strings.Contains(string(b), "expects") {
		t.Fatalf("a note without marks writes %s", b)
	}
	m := Note{}
	m.Mark(AtState(2), 1, "")
	if m.Empty() || !m.Thought() {
		t.Fatal("a note with a mark is empty")
	}
	o := m
	o.Marks = []Mark{{At: AtState(2), Value: 2}}
	if m.Equal(&o) {
		t.Fatal("notes with different marks are the same")
	}
}
