package main

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// starts counts, by spec, the players of the "counted" kind made and
// checked: a stand-in for a student's program, whose every start shows.
var starts = struct {
	sync.Mutex
	made, checked map[string]int
}{made: map[string]int{}, checked: map[string]int{}}

func init() {
	play.RegisterKind(play.Kind{Name: "counted", Example: "counted:a", Description: "greedy, counted as it is made (tests)",
		New: func(g match.Game, spec play.Spec, _ play.Hosting) (match.Bot, error) {
			starts.Lock()
			starts.made[spec.Command]++
			starts.Unlock()
			_, b, err := builtIn(g, "greedy")
			return b, err
		},
		Check: func(g match.Game, spec play.Spec, _ play.Hosting) error {
			starts.Lock()
			starts.checked[spec.Command]++
			starts.Unlock()
			return nil
		}})
}

func builtIn(g match.Game, name string) (match.BotInfo, match.Bot, error) {
	info, err := match.LookupBot(g, name)
	if err != nil {
		return info, nil, err
	}
	b, err := info.New(match.Options{})
	return info, b, err
}

// TestAProgramStartsOnceAMatch: each front end checks its players before
// a match and makes each once for it: a student's program that writes a
// log as it starts writes one line a match, not one more for the check.
func TestAProgramStartsOnceAMatch(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		args    []string
		matches int
	}{
		{"play", []string{"play", "-game", "colosseum", "-preset", "6", "-p1", "counted:play", "-p2", "random"}, 1},
		{"autoplay", []string{"autoplay", "-game", "colosseum", "-preset", "6", "-p1", "counted:autoplay", "-p2", "random", "-n", "3"}, 3},
		{"tournament", []string{"tournament", "-game", "colosseum", "-preset", "6", "-o", filepath.Join(dir, "t"), "-j", "1", "-containment", "weak", "a=counted:tournament", "b=random"}, 2},
		{"record", []string{"record", "-game", "colosseum", "-preset", "6", "-p1", "counted:record", "-p2", "random", "-o", filepath.Join(dir, "m.gif")}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, stderr := arena(t, c.args...); code != 0 {
				t.Fatalf("%v: exit %d\n%s", c.args, code, stderr)
			}
			starts.Lock()
			made, checked := starts.made[c.name], starts.checked[c.name]
			starts.Unlock()
			if made != c.matches {
				t.Errorf("%s: the player was made %d times for %d matches", c.name, made, c.matches)
			}
			if checked == 0 {
				t.Errorf("%s: the player was not checked before its matches", c.name)
			}
		})
	}
}
