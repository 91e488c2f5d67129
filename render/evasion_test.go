package render

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/play"
)

// evasionRecord plays a short session: the 2-1 preset, strong vs greedy.
func evasionRecord(t *testing.T) *play.Record {
	t.Helper()
	rec, err := play.Play(context.Background(), play.Setup{Game: evasion.Game{}, Config: evasion.Preset(2, 1), Seed: 2,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// When turns go faster than frames, frames skip turns at even steps of
// the paced playback, and the tick that ends a game, held longer, still
// gets its frames.
func TestFramesSkipTurns(t *testing.T) {
	rec := evasionRecord(t)
	o := GIFOptions{FPS: 30, TurnsPerSecond: 300}
	times := o.frameTimes(rec)
	paced := 0.0
	var held []int // turns that end a game
	for k := range len(rec.Turns) {
		paced += Pace(rec, k)
		if Pace(rec, k) > 1 {
			held = append(held, k)
		}
	}
	if want := int(paced/10) + 1; len(times) < want-1 || len(times) > want+1 {
		t.Errorf("%d frames for %v paced turns at 10 a frame, want about %d", len(times), paced, want)
	}
	for i := 1; i < len(times); i++ {
		if times[i] <= times[i-1] {
			t.Fatalf("frame %d at %v after %v", i, times[i], times[i-1])
		}
	}
	if len(held) != 2 {
		t.Fatalf("%d turns end a game, want 2", len(held))
	}
	for _, k := range held {
		n := 0
		for _, tm := range times {
			if tm >= float64(k) && tm < float64(k+1) {
				n++
			}
		}
		if n < int(evasionEndPace/10)-1 {
			t.Errorf("the tick ending a game (turn %d) shows in %d frames", k, n)
		}
	}
	if times[len(times)-1] != Span(rec) {
		t.Errorf("the last frame is at %v, not the end %v", times[len(times)-1], Span(rec))
	}
}

// Every moment of a session draws: the field, the ends of both games and
// the session's end, with the software canvas.
func TestEvasionFrames(t *testing.T) {
	rec := evasionRecord(t)
	img := NewImage(240, 240)
	for _, tm := range []float64{0, 0.5, 10.3, Span(rec) / 2, Span(rec) - 0.5, Span(rec)} {
		if err := Frame(img, Rect{0, 0, 240, 240}, rec, tm, Dark); err != nil {
			t.Fatalf("t=%v: %v", tm, err)
		}
	}
}

// A session's events name each wall built and each tick walls were
// deleted, as the walls before and after the tick say, whether the two
// states share their list of walls or not.
func TestEvasionEventsFollowTheWalls(t *testing.T) {
	rec := evasionRecord(t)
	var built, deleted int
	for _, e := range Events(rec, 0) {
		switch {
		case strings.HasSuffix(e.Label, "wall built"):
			built++
		case e.Label == "walls deleted":
			deleted++
		}
	}
	var wantBuilt, wantDeleted int
	for k := 1; k < rec.Len(); k++ {
		before, after := rec.State(k-1).(evasion.State), rec.State(k).(evasion.State)
		if before.GameNum() != after.GameNum() {
			continue
		}
		fb, fa := before.Field(), after.Field()
		wb, wa := slices.Clone(fb.Walls()), slices.Clone(fa.Walls()) // compared by content
		if slices.ContainsFunc(wb, func(w evasion.Wall) bool { return !slices.Contains(wa, w) }) {
			wantDeleted++
		}
		if n := len(wa); n > 0 && !slices.Contains(wb, wa[n-1]) {
			wantBuilt++
		}
	}
	if wantBuilt == 0 || wantDeleted == 0 {
		t.Fatalf("the session built %d walls and deleted walls %d times: it tests nothing", wantBuilt, wantDeleted)
	}
	if built != wantBuilt || deleted != wantDeleted {
		t.Errorf("events: %d walls built, walls deleted %d times; the walls say %d and %d", built, deleted, wantBuilt, wantDeleted)
	}
}
