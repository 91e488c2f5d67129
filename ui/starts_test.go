//go:build !js

package ui

import (
	"sync"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// made and checked count the players of the "counted" kind, by spec: a
// stand-in for a student's program, whose every start shows.
var counted = struct {
	sync.Mutex
	made, checked map[string]int
}{made: map[string]int{}, checked: map[string]int{}}

func init() {
	play.RegisterKind(play.Kind{Name: "counted", Example: "counted:a", Description: "greedy, counted as it is made (tests)",
		New: func(g match.Game, spec play.Spec, _ play.Hosting) (match.Bot, error) {
			counted.Lock()
			counted.made[spec.Command]++
			counted.Unlock()
			info, err := match.LookupBot(g, "greedy")
			if err != nil {
				return nil, err
			}
			return info.New(match.Options{})
		},
		Check: func(g match.Game, spec play.Spec, _ play.Hosting) error {
			counted.Lock()
			counted.checked[spec.Command]++
			counted.Unlock()
			return nil
		}})
}

// TestTheWindowStartsAProgramOnceAMatch: the window checks a link's or
// the start view's players without making them, and the match makes
// each once.
func TestTheWindowStartsAProgramOnceAMatch(t *testing.T) {
	a := New(Options{Link: Link{Game: "colosseum", P1: "counted:window", P2: "random", Preset: "6", Seed: 3, Start: true}})
	a.Layout(1280, 800)
	for !a.Status().Done && a.Status().Failed == "" {
		a.Update()
	}
	counted.Lock()
	made, checked := counted.made["window"], counted.checked["window"]
	counted.Unlock()
	if a.Status().Failed != "" {
		t.Fatal(a.Status().Failed)
	}
	if made != 1 || checked == 0 {
		t.Errorf("one match: the player was made %d times and checked %d", made, checked)
	}
}
