package ui

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/hajimehoshi/ebiten/v2"
)

// TestVariationOnTheBoard: a second click on a picked option plays it in
// a variation kept apart from the game; the board rests on the position
// it leaves and analyses it (the answer and its value from there, the
// analysis arena analyse makes of that position); a move the person
// makes there is analysed in turn; back to the game, the game is as it
// was, analysed at the turn it was left at.
func TestVariationOnTheBoard(t *testing.T) {
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "colosseum", P1: "strong:nodes=5000", P2: "greedy", Seed: 3, Preset: "6", Start: true, Turn: 4}, Presses: in.take})
	game := a.match.pb
	turns := len(game.rec.Turns)
	game.tick(60)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	screen := ebiten.NewImage(1280, 800)
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, screen, what, ok, func() string {
			return fmt.Sprintf("turn %v, variation %q, analysis %+v", a.Status().Turn, a.Status().Variation, a.Status().Analysis)
		})
	}
	analysedAt := func(turn int) func(Status) bool {
		return func(s Status) bool { return s.Analysis != nil && s.Analysis.Turn == turn && s.Analysed }
	}
	s := await("turn 4 analysed", analysedAt(4))
	tried := s.Analysis.Others[len(s.Analysis.Others)-1] // the worst: not the game's move
	at := s.Targets["option:"+tried.Move]
	for range 2 {
		in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
		a.Update()
	}
	s = await("the variation's position analysed", analysedAt(5))
	if s.Variation == "" || s.Targets["back"] == [4]float64{} {
		t.Fatalf("no variation shown: %q", s.Variation)
	}
	g := mustGame(t, "colosseum")
	raw, _ := json.Marshal(tried.Action)
	act, err := g.DecodeAction(raw)
	if err != nil {
		t.Fatal(err)
	}
	before := game.rec.State(4)
	var acts [2]match.Action
	acts[before.ToMove().Side()] = act
	after := before.Apply(acts)
	want, err := match.Analyse(g, match.NewTurn(after, after.ToMove().Side(), nil, match.Budget{}), match.Query{K: analysis.BoardK})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range s.Analysis.Best {
		if b.Move != want.Best[i].Move || b.Value != want.Best[i].Value {
			t.Errorf("after %s, best %d: the board says %s %v, arena analyse %s %v", tried.Move, i, b.Move, b.Value, want.Best[i].Move, want.Best[i].Value)
		}
	}
	// The person plays the answer the board gives; the board analyses
	// the position it leaves.
	req, ok := a.match.pb.pending()
	if !ok || req.state.Turn() != 5 {
		t.Fatalf("the variation does not wait for the person at turn 5: %v %v", ok, req.state)
	}
	raw, _ = json.Marshal(s.Analysis.Best[0].Action)
	answer, err := g.DecodeAction(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.match.pb.play(req, answer); err != nil {
		t.Fatal(err)
	}
	a.match.pb.hold, a.match.pb.playing = 6, true
	await("the person's move analysed", analysedAt(6))
	if len(game.rec.Turns) != turns || a.match.variation.game != game {
		t.Fatalf("the game changed under the variation: %d turns, was %d", len(game.rec.Turns), turns)
	}
	back := a.Status().Targets["back"]
	in.clicks = [][2]float64{{back[0] + back[2]/2, back[1] + back[3]/2}}
	a.Update()
	s = await("the game analysed again", analysedAt(4))
	if s.Variation != "" || a.match.pb != game {
		t.Errorf("back to the game: variation %q, the game's playback back %v", s.Variation, a.match.pb == game)
	}
}

// TestVariationWhereBothSidesMove: in Life both sides move at once; the
// option tried is played against the reply the analysis foresaw, and
// the board analyses the position they leave.
func TestVariationWhereBothSidesMove(t *testing.T) {
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "life", P1: "strong:nodes=3000", P2: "greedy", Seed: 3, Start: true, Turn: 6}, Presses: in.take})
	a.match.pb.tick(60)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	screen := ebiten.NewImage(1280, 800)
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, screen, what, ok, func() string { return fmt.Sprintf("analysis %+v", a.Status().Analysis) })
	}
	s := await("turn 6 analysed", func(s Status) bool { return s.Analysis != nil && s.Analysis.Turn == 6 && s.Analysed })
	tried := s.Analysis.Best[1]
	a.match.analysis.picked = tried.Move
	in.keys = []ebiten.Key{ebiten.KeyV}
	a.Update()
	await("turn 7 analysed", func(s Status) bool {
		return s.Variation != "" && s.Analysis != nil && s.Analysis.Turn == 7 && s.Analysed
	})
	played := a.match.pb.rec.Turns[6].Actions
	for side, want := range []match.Action{tried.Action, tried.Line[1].Action} {
		got, _ := json.Marshal(played[side])
		w, _ := json.Marshal(want)
		if string(got) != string(w) {
			t.Errorf("%s played %s in the variation, want %s", match.Side(side), got, w)
		}
	}
}
