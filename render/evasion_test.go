package render

import (
	"context"
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
