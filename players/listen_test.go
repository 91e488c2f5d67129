package players_test

import (
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/pathgame"
	"github.com/arena-playground/arena/engine/play"
	_ "github.com/arena-playground/arena/players"
)

// The games whose seats are tested.
var _, _ = evasion.Game{}, pathgame.Game{}

// TestSeatListensOnLoopback: a seat given without a host listens on this
// machine's loopback only, for the Evasion line seat and the shortest
// path's session seat alike; one that names an interface listens there.
func TestSeatListensOnLoopback(t *testing.T) {
	for _, c := range []struct{ game, spec, host string }{
		{"evasion", "tcp::0", "127.0.0.1:"},
		{"pathgame", "tcp::0", "127.0.0.1:"},
		{"evasion", "tcp:0.0.0.0:0", ""}, // every interface: Go names it [::] or 0.0.0.0
	} {
		g, _ := match.Lookup(c.game)
		sp, err := play.ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _, _, err := play.NewBot(g, sp, play.Hosting{})
		if err != nil {
			t.Fatalf("%s %s: %v", c.game, c.spec, err)
		}
		addr := ""
		switch l := b.(type) {
		case interface{ Addr() string }:
			addr = l.Addr()
		case play.Listener:
			addr = l.Listening()
		}
		if cl, ok := b.(play.Closer); ok {
			cl.Close()
		}
		if c.host == "" && (strings.HasPrefix(addr, "127.") || addr == "") || !strings.HasPrefix(addr, c.host) {
			t.Errorf("%s %s listens on %q; want %s…", c.game, c.spec, addr, c.host)
		}
	}
}
