package ui

import (
	"fmt"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// A person plays Evasion against a bot in the playground: as the prey
// with keys (two for a diagonal), as the hunter with a wall key and a
// click on a wall, each tick sent with what the controls said.
func TestEvasionPersonPlays(t *testing.T) {
	evasionPace = pace{rate: len(evasionRates) - 1}
	t.Cleanup(func() { evasionPace = pace{rate: 2} })
	g, _ := match.Lookup("evasion")
	pb, err := newPlayback(play.Setup{Game: g, Config: evasion.Preset(10, 1), Seed: 1,
		Players: [2]play.Spec{{Name: "greedy"}, {Name: You}}}, nil, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer pb.stop()
	board := rect{W: 600, H: 600}
	sawPrey, sawHunter := false, false
	for !sawPrey || !sawHunter {
		req := awaitPending(t, pb)
		s := req.state.(evasion.State)
		h := humans["evasion"]()
		h.Start(req.state, req.side)
		f := s.Field()
		var want string
		switch {
		case s.Hunter() != req.side && f.Tick == 1 && !sawPrey:
			// Up and right in the same tick: a diagonal.
			h.Key(ebiten.KeyArrowUp)
			h.Key(ebiten.KeyD)
			want = "0 1 1 1"
			sawPrey = true
		case s.Hunter() == req.side && len(f.Walls()) == 0 && f.Timer == 0 && f.Tick > 4:
			h.Key(ebiten.Key1)
			want = fmt.Sprintf("1 %d 1", f.Tick)
		case s.Hunter() == req.side && len(f.Walls()) > 0 && f.Timer == 0 && !sawHunter:
			h.Key(ebiten.Key2)
			r, _ := h.Suggest(board) // on the first wall
			h.Click(r.X+r.W/2, r.Y+r.H/2, board)
			want = fmt.Sprintf("1 %d 2 0", f.Tick)
			sawHunter = true
		}
		if h.Done() && evasionPace.paused {
			t.Fatal("done while paused")
		}
		a, err := h.Action()
		if err != nil {
			t.Fatal(err)
		}
		if want != "" && a.(evasion.Action).String() != want {
			t.Fatalf("tick %d: sent %q, want %q (prompt %q)", f.Tick, a, want, h.Prompt())
		}
		if err := pb.play(req, a); err != nil {
			t.Fatal(err)
		}
		if pb.rec.Result != nil {
			t.Fatalf("the session ended before the person built and deleted (%v, %v)", sawPrey, sawHunter)
		}
	}
}
