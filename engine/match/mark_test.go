package match

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
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
	n.bound()
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
	if m.empty() || !m.Thought() {
		t.Fatal("a note with a mark is empty")
	}
	o := m
	o.Marks = []Mark{{At: AtState(2), Value: 2}}
	if m.same(&o) {
		t.Fatal("notes with different marks are the same")
	}
}

func TestUnmarkedKeepsAllButMarks(t *testing.T) {
	marksOnly, both := &Note{}, &Note{Depth: 3}
	for _, n := range []*Note{marksOnly, both} {
		n.Mark(AtCell(1, 2), 5, "x")
		n.Expect(AtNode(4))
	}
	rp := &Replay{Game: "g", Turns: []ReplayTurn{{Notes: [2]*Note{marksOnly, both}, Replaced: [2]string{"", "late"}}}}
	u := rp.Unmarked()
	if got := u.Turns[0].Notes; got[0] != nil || got[1] == nil || got[1].Depth != 3 || got[1].Thought() || got[1].MarksLeft != 0 {
		t.Fatalf("unmarked notes: %+v %+v", got[0], got[1])
	}
	if u.Game != "g" || u.Turns[0].Replaced[1] != "late" {
		t.Fatalf("unmarked replay lost more than marks: %+v", u)
	}
	if !marksOnly.Thought() || !both.Thought() || rp.Turns[0].Notes[0] != marksOnly {
		t.Fatal("Unmarked changed the replay it copied")
	}
}

// A note's words are bounded whatever a bot writes (a go: bot once wrote
// 900 KB of text every move), with what was cut said; and a match keeps
// notes up to MaxMatchNotes bytes, then says it keeps no more.
func TestNotesAreBounded(t *testing.T) {
	n := Note{Text: strings.Repeat("é", 1<<20), Line: make([]string, 1000), Said: make([]string, 1000)}
	for i := range n.Said {
		n.Said[i] = strings.Repeat("x", 10000)
	}
	n.Line[0] = strings.Repeat("m", 500)
	n.bound()
	if len(n.Text) > MaxNoteText || !utf8.ValidString(n.Text) || !strings.HasSuffix(n.Text, "bytes cut)") {
		t.Errorf("text of %d bytes, valid %v, ending %q", len(n.Text), utf8.ValidString(n.Text), n.Text[len(n.Text)-20:])
	}
	if len(n.Line) != MaxNoteLine || len(n.Line[0]) > MaxNoteWord {
		t.Errorf("line of %d moves, the first of %d bytes", len(n.Line), len(n.Line[0]))
	}
	if len(n.Said) != MaxSaidLines || n.Said[MaxSaidLines-1] != "… 937 more lines not kept" || len(n.Said[0]) > MaxSaidLine {
		t.Errorf("said %d lines, the last %q", len(n.Said), n.Said[len(n.Said)-1])
	}
	if n.size() > 64<<10 {
		t.Errorf("a bounded note takes %d bytes", n.size())
	}
	var r Runner
	big := &Note{Text: strings.Repeat("x", 1<<20)}
	kept := 0
	for range 200 {
		if got := r.keep(big); got == big {
			kept++
		} else if got != nil {
			if !strings.Contains(got.Text, "not kept") {
				t.Errorf("the note past the bound says %q", got.Text)
			}
		}
	}
	if want := MaxMatchNotes / big.size(); kept != want {
		t.Errorf("kept %d notes of 1 MB, want %d", kept, want)
	}
}
