package ui

import (
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/pathgame"
	"github.com/arena-playground/arena/engine/play"
)

// A person plays a whole pairing on the course's 300-node graph by
// clicking where Suggest points: as the player it walks the cheapest path
// to Y, as the adversary it raises edges; every click is a legal message.
func TestPathgamePersonPlays(t *testing.T) {
	g, _ := match.Lookup("pathgame")
	pb, err := newPlayback(play.Setup{Game: g, Config: &pathgame.Config{Graph: "advshort"}, Seed: 1,
		Players: [2]play.Spec{{Name: You}, {Name: "greedy"}}}, nil, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer pb.stop()
	board := rect{W: 900, H: 700}
	roles := map[pathgame.Role]int{}
	for pb.rec.Result == nil {
		req, ok := pb.pending()
		if !ok {
			if err := pb.receive(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		h := humans["pathgame"]()
		h.Start(req.state, req.side)
		if _, err := h.Action(); err == nil {
			t.Fatal("a move before any click")
		}
		r, ok := h.Suggest(board)
		if !ok {
			t.Fatalf("nothing suggested at turn %d", req.state.Turn())
		}
		h.Click(r.X+r.W/2, r.Y+r.H/2, board)
		if !h.Done() {
			t.Fatalf("turn %d: the click did not choose (%s)", req.state.Turn(), h.Prompt())
		}
		a, err := h.Action()
		if err != nil {
			t.Fatal(err)
		}
		roles[req.state.(pathgame.State).RoleOf(req.side)]++
		if err := pb.play(req, a); err != nil {
			t.Fatal(err)
		}
		awaitProgress(t, pb, req.state.Turn())
	}
	s := pb.rec.Last().(pathgame.State)
	if roles[pathgame.Player] == 0 || roles[pathgame.Adversary] == 0 || !s.End(0).Arrived {
		t.Errorf("played %v; game 1 %+v", roles, s.End(0))
	}
	t.Logf("%v: %s", roles, pb.rec.Result)
}

// awaitProgress receives until the match has moved past turn k.
func awaitProgress(t *testing.T, pb *playback, k int) {
	t.Helper()
	for len(pb.rec.Turns) <= k && pb.rec.Result == nil {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
	}
}
