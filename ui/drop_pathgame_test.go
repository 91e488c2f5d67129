package ui

import (
	"os"
	"testing"
)

// A graph file dropped on the page (or opened in the window) plays the
// shortest-path game on it, whichever game was chosen.
func TestDroppedGraphPlaysPathgame(t *testing.T) {
	data, err := os.ReadFile("../engine/pathgame/testdata/handmade/quirks.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, preferred := range []string{"life", "mapcolor", "pathgame"} {
		game, cfg, err := LoadFile(preferred, "quirks.txt", data)
		if err != nil || game != "pathgame" || cfg == nil {
			t.Errorf("chosen %s: loaded as %q, %v", preferred, game, err)
		}
	}
}
