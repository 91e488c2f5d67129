package render

import (
	"context"
	"slices"
	"strings"
	"testing"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// thinkingMatches are short matches of each game between bots that mark.
var thinkingMatches = []struct{ game, preset, p1, p2 string }{
	{"colosseum", "8", "strong:nodes=20000", "greedy"},
	{"life", "", "strong:nodes=3000", "greedy"},
	{"evasion", "", "greedy", "strong"},
	{"pathgame", "", "strong:nodes=200000", "greedy"},
	{"mapcolor", "usa", "strong:nodes=20000", "greedy"},
}

func playThinking(t *testing.T, game, preset, p1, p2 string) *play.Record {
	t.Helper()
	s, err := play.NewSetup(game, preset, 3, p1, p2)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestThinkingIsDrawnInEveryGame plays a match of each game and looks at
// the first turn whose notes mark the board: every mark and expected
// place the built-in bots give is on the board; the frame with thinking
// shows the scale's colours where the frame without has none of them;
// the panel's lines name the places in the game's terms.
func TestThinkingIsDrawnInEveryGame(t *testing.T) {
	for _, m := range thinkingMatches {
		t.Run(m.game, func(t *testing.T) {
			t.Parallel()
			rec := playThinking(t, m.game, m.preset, m.p1, m.p2)
			k, marked := firstThought(rec)
			if k < 0 {
				t.Fatalf("no turn of %s vs %s has marks", m.p1, m.p2)
			}
			board := Rect{0, 0, 480, 480}
			if got := Placed(rec, k, board); got != marked {
				t.Fatalf("turn %d: %d of %d marks and places are on the board", k, got, marked)
			}
			plain, err := Still(rec, float64(k), 480, Dark, FrameOptions{})
			if err != nil {
				t.Fatal(err)
			}
			thought, err := Still(rec, float64(k), 480, Dark, FrameOptions{Thinking: true})
			if err != nil {
				t.Fatal(err)
			}
			if p, q := Dark.ScaleShare(plain, 0), Dark.ScaleShare(thought, 0); q <= p || q < 0.0005 {
				t.Fatalf("turn %d: the scale's colours cover %.4f of the frame with thinking, %.4f without", k, q, p)
			}
			var lines []string
			for _, side := range match.Sides {
				lines = append(lines, ThinkingLines(rec, k, side, 5)...)
			}
			if len(lines) == 0 || !strings.Contains(lines[0], "weighed") {
				t.Fatalf("turn %d: the panel lists %q", k, lines)
			}
			t.Logf("turn %d: %d marks and places; %s", k, marked, strings.Join(lines, " | "))
		})
	}
}

// firstThought is the first turn whose notes mark the board, and how
// many marks and expected places they hold; -1 when none does.
func firstThought(rec *play.Record) (int, int) {
	for k, tn := range rec.Turns {
		n := 0
		for _, note := range tn.Notes {
			if note := note.Get(); note != nil {
				n += len(note.Marks) + len(note.Expects)
			}
		}
		if n > 0 {
			return k, n
		}
	}
	return -1, 0
}

// TestMarksOffTheBoardAreLeftOut: a bot may mark any place (a page's bot
// is anyone's); places the board does not have are not drawn, and the
// panel still names them.
func TestMarksOffTheBoardAreLeftOut(t *testing.T) {
	rec := scripted(t)
	n := &match.Note{}
	n.Mark(match.AtCell(2, 2), 5, "")
	n.Mark(match.AtCell(99, 2), 9, "") // the board is 10x10
	n.Mark(match.AtNode(2), 1, "")     // Life has no nodes
	n.Expect(match.AtCell(1000, 1000))
	rec.Turns[0].Notes[0] = play.Kept(n)
	if got := Placed(rec, 0, Rect{0, 0, 480, 480}); got != 1 {
		t.Fatalf("%d places drawn, want the one on the board", got)
	}
	if _, err := Still(rec, 0, 480, Dark, FrameOptions{Thinking: true}); err != nil {
		t.Fatal(err)
	}
	if l := ThinkingLines(rec, 0, match.P1, 5); len(l) != 2 || !strings.Contains(l[0], "99,2 +9") {
		t.Fatalf("the panel lists %q", l)
	}
}

func TestValueText(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 5: "+5", -12: "-12", 0.5: "+0.5", -0.25: "-0.25", 12.4: "+12", 1234: "+1.2k",
		-56789: "-57k", 3e6: "+3M", 1e9: "+1000M", 1000: "+1k"} {
		if got := ValueText(v); got != want {
			t.Errorf("ValueText(%v) = %q, want %q", v, got, want)
		}
	}
	for m, want := range map[match.Mark]string{{Value: 3, Label: "≤"}: "+3≤", {Value: 36, Label: "win"}: "win", {Value: 2, Label: "red"}: "+2 red"} {
		if got := MarkText(m); got != want {
			t.Errorf("MarkText(%+v) = %q, want %q", m, got, want)
		}
	}
}

func TestMarkSteps(t *testing.T) {
	ms := []match.Mark{{Value: 73}, {Value: -81, Label: "loss"}, {Value: 80}, {Value: 75}, {Value: 75}, {Value: 79}, {Value: 1e9}}
	got := markSteps(ms)
	want := []int{0, 0, 4, 1, 1, 3, 4} // 73 to 80 in proportion; the lost and the won game apart
	if !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v: in proportion to 73..80, decided games at the ends", got, want)
	}
	if lo, hi, ok := MarkRange(ms); !ok || lo != 73 || hi != 80 {
		t.Fatalf("range %v to %v (%v), want 73 to 80", lo, hi, ok)
	}
	if got := markSteps([]match.Mark{{Value: 2}, {Value: 2}}); got[0] != ScaleSteps/2 || got[1] != ScaleSteps/2 {
		t.Fatalf("equal values drawn at %v", got)
	}
	if got := markSteps([]match.Mark{{Value: 0}, {Value: 0}, {Value: 0}, {Value: -2}}); !slices.Equal(got, []int{4, 4, 4, 0}) {
		t.Fatalf("the best shared by many drawn at %v, want the brightest", got)
	}
}

// Evasion's bots decide at their decision ticks only: between two of a
// side's decisions the layer holds the last, where another game's shows
// nothing for a turn its bot did not mark; the panel says the same.
func TestEvasionHoldsItsLastDecision(t *testing.T) {
	rec := playThinking(t, "evasion", "", "greedy", "strong")
	board := Rect{0, 0, 480, 480}
	held := 0
	for k := 1; k < len(rec.Turns) && held < 3; k++ {
		if Placed(rec, k, board) == 0 || rec.Turns[k].Notes[match.P1].Get().Thought() || rec.Turns[k].Notes[match.P2].Get().Thought() {
			continue
		}
		// No note of turn k marks: what is drawn is an earlier decision's.
		n, at := heldThought(rec, k, match.P1)
		if n == nil {
			n, at = heldThought(rec, k, match.P2)
		}
		if n == nil || at >= k {
			t.Fatalf("turn %d: something is placed, but no earlier decision is held", k)
		}
		if lines := append(ThinkingLines(rec, k, match.P1, 5), ThinkingLines(rec, k, match.P2, 5)...); len(lines) == 0 {
			t.Errorf("turn %d: the board holds turn %d's decision, the panel lists nothing", k, at)
		}
		held++
	}
	if held == 0 {
		t.Fatal("no turn between decisions held one")
	}
	col := playThinking(t, "colosseum", "6", "strong:nodes=3000", "greedy")
	for k := range col.Turns {
		for _, side := range match.Sides {
			if n, at := heldThought(col, k, side); n != nil && at != k {
				t.Fatalf("Colosseum turn %d holds %v's note of turn %d", k, side, at)
			}
		}
	}
}
