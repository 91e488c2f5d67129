package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// noEditor is an editor that opens nothing: the start view shows its
// Write a bot… button.
type noEditor struct{}

func (noEditor) Open(string)          {}
func (noEditor) Source(string) string { return "" }

// TestStartViewKeepsItsButtons: choosing another game keeps the start
// view's buttons where they were, on a laptop's window and on a phone's,
// with Gauntlet… after them: on the desktop (no editor) it comes where a
// program is offered; in the page it is always there, for the bot written
// in it. The status names the game, players and seed the start view
// shows chosen, not the last match's.
func TestStartViewKeepsItsButtons(t *testing.T) {
	for _, size := range [][2]int{{1280, 800}, {390 * 3, 844 * 3}} {
		for _, editor := range []Editor{nil, noEditor{}} {
			var pending []ebiten.Key
			a := New(Options{Link: Link{Game: "life", P1: "strong", P2: "greedy", Seed: 7}, Editor: editor, Programs: []Program{{Game: "colosseum", Name: "mine", Spec: "served:mine", Kind: "py"}}, Gauntlets: LocalGauntlets{Dir: t.TempDir()}, Presses: func() ([]ebiten.Key, [][2]float64) {
				k := pending
				pending = nil
				return k, nil
			}})
			a.Layout(size[0], size[1])
			press := func(k ebiten.Key) {
				pending = []ebiten.Key{k}
				a.Update()
				a.Layout(size[0], size[1])
				a.Update()
			}
			a.Update()
			life := a.Status()
			if _, ok := life.Targets["gauntlet"]; ok != (editor != nil) || life.Game != "life" {
				t.Fatalf("%v, editor %v: Life shows Gauntlet… (%v) or the status names %q", size, editor != nil, ok, life.Game)
			}
			press(ebiten.Key2)
			col := a.Status()
			if col.Game != "colosseum" || col.Players != [2]string{"strong", "greedy"} || col.Seed != 7 {
				t.Errorf("%v: after choosing Colosseum the status names %q, %v, seed %d", size, col.Game, col.Players, col.Seed)
			}
			if _, ok := col.Targets["gauntlet"]; !ok {
				t.Fatalf("%v: Colosseum, where a program is offered, shows no Gauntlet…", size)
			}
			ids := []string{"start"}
			if editor != nil {
				ids = append(ids, "write", "gauntlet")
				if g, w := col.Targets["gauntlet"], col.Targets["write"]; g[1] == w[1] && g[0] < w[0]+w[2] {
					t.Errorf("%v: Gauntlet… at %v overlaps or precedes Write a bot… at %v", size, g, w)
				}
			}
			for _, id := range ids {
				if col.Targets[id] != life.Targets[id] {
					t.Errorf("%v: %s moved from %v to %v with the game", size, id, life.Targets[id], col.Targets[id])
				}
			}
		}
	}
}
