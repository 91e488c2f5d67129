package ui

import (
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// While a long match streams in, the playhead follows the newest turn
// only once the viewer went to the end (⏭): a viewer who went back stays
// where they went, paused or playing at its pace, and is never pulled to
// the end; the end of the match ends the following.
func TestPlaybackFollowsOnlyAtTheEnd(t *testing.T) {
	g, _ := match.Lookup("evasion")
	pb, err := newPlayback(play.Setup{Game: g, Config: evasion.Preset(2, 1), Seed: 3,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}}, nil, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer pb.stop()
	// more waits until the stream has brought more turns than span.
	more := func(span float64) {
		t.Helper()
		for pb.span() <= span {
			if err := pb.receive(); err != nil {
				t.Fatal(err)
			}
			if pb.rec.Result != nil {
				t.Fatalf("the match ended at %v turns", pb.span())
			}
			time.Sleep(time.Millisecond)
		}
	}
	more(100)
	pb.end()
	if !pb.live || pb.t != pb.span() {
		t.Fatalf("after ⏭: live %v, playhead %v of %v", pb.live, pb.t, pb.span())
	}
	before := pb.span()
	more(before)
	pb.tick(1.0 / 60)
	if pb.t != pb.span() || pb.t <= before {
		t.Fatalf("live: the playhead at %v, the newest turn %v (was %v)", pb.t, pb.span(), before)
	}
	pb.seek(40) // the viewer goes back, playing
	pb.playing = true
	if pb.live {
		t.Fatal("still live after a seek")
	}
	more(pb.span())
	pb.tick(1.0 / 60)
	if pb.t < 40 || pb.t > 41 {
		t.Fatalf("a viewer gone back to 40 is at %v a frame later (the newest turn %v)", pb.t, pb.span())
	}
	pb.playing = false
	pb.seek(55)
	more(pb.span())
	pb.tick(1)
	if pb.t != 55 {
		t.Fatalf("paused at 55, the playhead moved to %v", pb.t)
	}
	pb.end()
	for pb.rec.Result == nil {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
		pb.tick(1.0 / 60)
		time.Sleep(time.Millisecond)
	}
	pb.tick(1.0 / 60)
	if pb.live || pb.t != pb.span() {
		t.Fatalf("at the match's end: live %v, playhead %v of %v", pb.live, pb.t, pb.span())
	}
}

// TestTurnLabelFitsItsRoom: the turn label takes the longest form that
// fits left of the timeline, so that a long live match's numbers never
// run into the speed's buttons, and says "live" while there is room.
func TestTurnLabelFitsItsRoom(t *testing.T) {
	c := render.NewImage(10, 10)
	f := render.Face{Size: 14}
	width := func(s string) float64 { return c.TextWidth(s, f) }
	for _, tc := range []struct {
		live bool
		room float64
		want string
	}{
		{false, 1000, "turn 12407 / 30269"},
		{true, 1000, "live · turn 12407 / 30269"},
		{true, width("live · turn 12407 / 30269") - 1, "live · 12407 / 30269"},
		{true, width("live · 12407 / 30269") - 1, "12407 / 30269"},
		{false, width("turn 12407 / 30269") - 1, "12407 / 30269"},
		{true, 1, "12407 / 30269"}, // no room at all: the shortest
	} {
		got := turnLabel(c, f, 12407, 30269, tc.live, tc.room)
		if got != tc.want {
			t.Errorf("live %v, room %.0f: %q, want %q", tc.live, tc.room, got, tc.want)
		}
		if w := width(got); w > tc.room && got != "12407 / 30269" {
			t.Errorf("live %v: %q is %.0f wide in a room of %.0f", tc.live, got, w, tc.room)
		}
	}
}

// A frame's budget for following turns: a budget already spent follows
// one message and keeps the rest for the next frames, in order; no budget
// follows them all. Between readings of the clock, quick messages are
// followed clockEvery at a time, slow ones one at a time.
func TestReceiveForReadsTheClockAsOftenAsItMust(t *testing.T) {
	for _, c := range []struct {
		spent, budget time.Duration
		n, want       int
	}{
		{10 * time.Microsecond, 8 * time.Millisecond, 1, clockEvery}, // an Evasion tick
		{40 * time.Millisecond, 80 * time.Millisecond, 1, 1},         // a 4096x4096 Life generation
		{time.Millisecond, 8 * time.Millisecond, 1, 1},               // 16 more would overrun
		{time.Millisecond, 8 * time.Millisecond, 16, clockEvery},     // 16 more at 1/16 ms fit
	} {
		if got := clockStride(c.spent, c.budget, c.n); got != c.want {
			t.Errorf("%v spent of %v on %d messages: read the clock after %d more, want %d", c.spent, c.budget, c.n, got, c.want)
		}
	}
	g, _ := match.Lookup("evasion")
	setup := play.Setup{Game: g, Config: evasion.Preset(2, 1), Seed: 3,
		Players: [2]play.Spec{{Name: "greedy"}, {Name: "greedy"}}}
	var msgs [][]byte
	rec, err := newPlayback(setup, nil, recordingHost{Host: localHost{}, msgs: &msgs})
	if err != nil {
		t.Fatal(err)
	}
	for len(msgs) < 5*clockEvery {
		if err := rec.receive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	rec.stop()
	msgs = msgs[:5*clockEvery]
	pb, err := newPlayback(setup, nil, streamedHost{msgs: msgs, perFrame: len(msgs), every: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := pb.receiveFor(time.Nanosecond); err != nil {
		t.Fatal(err)
	}
	if got := len(pb.rec.Turns); got != 1 || len(pb.queued) != len(msgs)-1 {
		t.Fatalf("a spent budget followed %d turns and kept %d messages; want 1 and %d", got, len(pb.queued), len(msgs)-1)
	}
	if err := pb.receiveFor(0); err != nil {
		t.Fatal(err)
	}
	if got := len(pb.rec.Turns); got != len(msgs) || len(pb.queued) != 0 {
		t.Fatalf("no budget followed %d turns of %d and kept %d", got, len(msgs), len(pb.queued))
	}
}
