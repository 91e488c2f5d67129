package main

import (
	"path/filepath"
	"testing"

	"github.com/arena-playground/arena/engine/play/playtest"
)

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
			made, checked := playtest.Counted.Of(c.name)
			if made != c.matches {
				t.Errorf("%s: the player was made %d times for %d matches", c.name, made, c.matches)
			}
			if checked == 0 {
				t.Errorf("%s: the player was not checked before its matches", c.name)
			}
		})
	}
}
