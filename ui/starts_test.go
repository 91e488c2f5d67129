//go:build !js

package ui

import (
	"testing"

	"github.com/arena-playground/arena/engine/play/playtest"
)

// TestTheWindowStartsAProgramOnceAMatch: the window checks a link's or
// the start view's players without making them, and the match makes
// each once.
func TestTheWindowStartsAProgramOnceAMatch(t *testing.T) {
	a := New(Options{Link: Link{Game: "colosseum", P1: "counted:window", P2: "random", Preset: "6", Seed: 3, Start: true}})
	a.Layout(1280, 800)
	for !a.Status().Done && a.Status().Failed == "" {
		a.Update()
	}
	made, checked := playtest.Counted.Of("window")
	if a.Status().Failed != "" {
		t.Fatal(a.Status().Failed)
	}
	if made != 1 || checked == 0 {
		t.Errorf("one match: the player was made %d times and checked %d", made, checked)
	}
}
