package symbols

import (
	"slices"
	"strings"
	"testing"
)

// TestReviewed: what a bot can reach through the tables is exactly what
// reviewed.txt lists, each under a reason. A new exported method or field
// of a type a bot can hold, or a new name handed to bots, fails here
// until someone reviews it.
func TestReviewed(t *testing.T) {
	r, err := Reviewed()
	if err != nil {
		t.Fatal(err)
	}
	reached := Reach(Symbols)
	for _, name := range reached {
		if _, ok := r[name]; !ok {
			t.Errorf("a bot can reach %s, which reviewed.txt does not list: say there why it is safe, or keep it from bots", name)
		}
	}
	for name := range r {
		if !slices.Contains(reached, name) {
			t.Errorf("reviewed.txt lists %s, which a bot cannot reach: take it out", name)
		}
	}
	t.Logf("a bot reaches %d names, methods and fields", len(reached))
}

// TestNothingOutside: no name a bot reaches belongs to a package that
// touches the world outside the process, and none of the names that open
// files, run programs or make players is among them.
func TestNothingOutside(t *testing.T) {
	outside := []string{"os.", "os/", "net.", "net/", "syscall.", "reflect.", "unsafe.", "io/fs.", "plugin.", "runtime.",
		"github.com/arena-playground/arena/players", "github.com/arena-playground/arena/tournament", "github.com/arena-playground/arena/gobot", "play."}
	named := []string{"match.LookupBot", "match.Lookup", "match.Games", "match.Register", "match.BotInfo", "match.Game",
		"colosseum.Game", "evasion.Game", "life.Game", "mapcolor.Game", "pathgame.Game", "mapcolor.Game.CourseInput",
		"colosseum.Conform", "life.LoadScenario", "fmt.Scan", "fmt.Scanln", "fmt.Scanf", "time.LoadLocation", "math/rand/v2.IntN"}
	for _, name := range Reach(Symbols) {
		for _, o := range outside {
			if strings.HasPrefix(name, o) {
				t.Errorf("a bot reaches %s", name)
			}
		}
		if slices.Contains(named, name) {
			t.Errorf("a bot reaches %s", name)
		}
	}
}

// TestRefused: the names kept from bots are refused with their reason;
// the names handed to them and the names a package lacks are not.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ path, name, want string }{
		{"github.com/arena-playground/arena/engine/match", "Lookup", "not a bot's to reach"},
		{"github.com/arena-playground/arena/engine/match", "LookupBot", "makes players"},
		{"github.com/arena-playground/arena/engine/match", "Register", "not part of the bot API"},
		{"github.com/arena-playground/arena/engine/colosseum", "Game", "not part of the bot API"},
		{"fmt", "Scanln", "standard input"},
		{"math/rand/v2", "IntN", "t.Rand.IntN"},
		{"github.com/arena-playground/arena/engine/match", "Turn", ""},
		{"math/rand/v2", "New", ""},
		{"strings", "NoSuchName", ""},
	} {
		got := Refused(c.path, c.name)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("Refused(%s, %s) = %q, want %q", c.path, c.name, got, c.want)
		}
	}
}
