package play

import (
	"github.com/arena-playground/arena/engine/match"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestUnmarkedKeepsAllButMarks(t *testing.T) {
	marksOnly, both := &match.Note{}, &match.Note{Depth: 3}
	for _, n := range []*match.Note{marksOnly, both} {
		n.Mark(match.AtCell(1, 2), 5, "x")
		n.Expect(match.AtNode(4))
	}
	rp := &Replay{Game: "g", Turns: []ReplayTurn{{Notes: [2]*KeptNote{Kept(marksOnly), Kept(both)}, Replaced: [2]string{"", "late"}}}}
	u := rp.Unmarked()
	if got := [2]*match.Note{u.Turns[0].Notes[0].Get(), u.Turns[0].Notes[1].Get()}; got[0] != nil || got[1] == nil || got[1].Depth != 3 || got[1].Thought() || got[1].MarksLeft != 0 {
		t.Fatalf("unmarked notes: %+v %+v", got[0], got[1])
	}
	if u.Game != "g" || u.Turns[0].Replaced[1] != "late" {
		t.Fatalf("unmarked replay lost more than marks: %+v", u)
	}
	if !marksOnly.Thought() || !both.Thought() || rp.Turns[0].Notes[0].Get() != marksOnly {
		t.Fatal("Unmarked changed the replay it copied")
	}
}

// A note's words are bounded whatever a bot writes (a go: bot once wrote
// 900 KB of text every move), with what was cut said; and a match keeps
// notes up to MaxMatchNotes bytes, then says it keeps no more.
func TestNotesAreBounded(t *testing.T) {
	n := match.Note{Text: strings.Repeat("é", 1<<20), Line: make([]string, 1000), Said: make([]string, 1000)}
	for i := range n.Said {
		n.Said[i] = strings.Repeat("x", 10000)
	}
	n.Line[0] = strings.Repeat("m", 500)
	n.Bound()
	if len(n.Text) > match.MaxNoteText || !utf8.ValidString(n.Text) || !strings.HasSuffix(n.Text, "bytes cut)") {
		t.Errorf("text of %d bytes, valid %v, ending %q", len(n.Text), utf8.ValidString(n.Text), n.Text[len(n.Text)-20:])
	}
	if len(n.Line) != match.MaxNoteLine || len(n.Line[0]) > match.MaxNoteWord {
		t.Errorf("line of %d moves, the first of %d bytes", len(n.Line), len(n.Line[0]))
	}
	if len(n.Said) != match.MaxSaidLines || n.Said[match.MaxSaidLines-1] != "… 937 more lines not kept" || len(n.Said[0]) > match.MaxSaidLine {
		t.Errorf("said %d lines, the last %q", len(n.Said), n.Said[len(n.Said)-1])
	}
	if n.Size() > 64<<10 {
		t.Errorf("a bounded note takes %d bytes", n.Size())
	}
	var r Runner
	big := &match.Note{Text: strings.Repeat("x", 1<<20)}
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
	if want := MaxMatchNotes / big.Size(); kept != want {
		t.Errorf("kept %d notes of 1 MB, want %d", kept, want)
	}
}
