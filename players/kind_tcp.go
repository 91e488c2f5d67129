package players

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The "tcp" kind: a network player, as the course servers had students'
// clients connect. "tcp:HOST:PORT" listens there for a client the person
// starts; "tcp:cmd:COMMAND" starts the client itself, on a free loopback
// port, for each game. Options come first, ending in a colon:
// "tcp:pace=off::9000".
func init() {
	play.RegisterKind(play.Kind{
		Name:        Network,
		Example:     "tcp::9000",
		Description: "a client that connects to arena's port (tcp:cmd:PROGRAM {port}: one that arena starts)",
		Parse:       parseTCPSpec,
		Format:      formatTCPSpec,
		New:         newNetworkPlayer,
		Check:       checkNetworkPlayer,
	})
}

// parseTCPSpec reads what follows "tcp:" in spec s: options ending in a
// colon when the first segment holds an "=", then "cmd:" and the program
// to start, or the address to listen on.
func parseTCPSpec(s, rest string) (play.Spec, error) {
	sp := play.Spec{Name: Network}
	if i := strings.IndexByte(rest, ':'); i > 0 && strings.Contains(rest[:i], "=") {
		var err error
		if sp.Options, err = play.ParseOptionList(s, rest[:i]); err != nil {
			return play.Spec{}, err
		}
		rest = rest[i+1:]
		if _, err := PaceOf(sp); err != nil {
			return play.Spec{}, fmt.Errorf("bot spec %q: %v", s, err)
		}
	}
	if cmd, ok := strings.CutPrefix(rest, "cmd:"); ok {
		c, err := commandSpec(Network, "the program to start, as in tcp:cmd:python3 client.py {port}")(s, cmd)
		sp.Command = c.Command
		return sp, err
	}
	// The port is what follows the last colon (not net.SplitHostPort: the
	// page's build must not carry the net package for this).
	i := strings.LastIndexByte(rest, ':')
	n, err := strconv.Atoi(rest[i+1:])
	host := rest[:max(i, 0)]
	bracketed := strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]")
	if i < 0 || err != nil || n < 0 || n > 65535 || (strings.Contains(host, ":") && !bracketed) {
		return play.Spec{}, fmt.Errorf("bot spec %q: give the address to listen on, HOST:PORT with a port from 0 to 65535, as in tcp::9000, or the program to start, as in tcp:cmd:python3 client.py {port}", s)
	}
	sp.Addr = rest
	return sp, nil
}

// formatTCPSpec writes a tcp spec back as parseTCPSpec reads it.
func formatTCPSpec(s play.Spec) string {
	w := "tcp:"
	if opts := s.OptionText(); opts != "" {
		w += opts + ":"
	}
	if s.Command != "" {
		return w + "cmd:" + s.Command
	}
	return w + s.Addr
}

// newNetworkPlayer makes the player of a tcp spec: a session of the
// shortest-path server's kind, or a line-protocol client.
func newNetworkPlayer(g match.Game, spec play.Spec, h play.Hosting) (match.Bot, error) {
	pace, err := PaceOf(spec)
	if err != nil {
		return nil, err
	}
	if sp, ok := g.(SessionProtocol); ok {
		return newSessionBot(sp, spec, pace, h)
	}
	if proto, ok := g.(Protocol); ok {
		return newTCPBot(proto, spec, h)
	}
	return nil, fmt.Errorf("%s has no line protocol for network players", g.Info().Name)
}

// checkNetworkPlayer finds the program a tcp:cmd: spec starts. The
// address of one that awaits a client is not opened to check it: a
// listener opened and closed again takes connections that clients
// waiting for the match would lose. The match opens it, and says if the
// port is taken.
func checkNetworkPlayer(g match.Game, spec play.Spec, _ play.Hosting) error {
	_, sessions := g.(SessionProtocol)
	_, lines := g.(Protocol)
	if !sessions && !lines {
		return fmt.Errorf("%s has no line protocol for network players", g.Info().Name)
	}
	if spec.Command == "" {
		return nil
	}
	if err := FindProgram(spec.Command); err != nil {
		return fmt.Errorf("%s: %w", spec, err)
	}
	return nil
}

// Pace is how arena spaces what a network player hears (see pacer): after
// a game's opening message, Opening of silence; between later messages,
// Gap. The zero Pace writes each message as soon as it is due, still in a
// write of its own.
type Pace struct {
	Opening, Gap time.Duration
}

// DefaultPace keeps the course library's reads apart: its half second of
// silence after the game, with a margin, and a gap that a client blocked
// in recv() has long returned from. Each counts from when the client has
// read the message before, where the kernel says (pacer.awaitRead).
var DefaultPace = Pace{Opening: 750 * time.Millisecond, Gap: 50 * time.Millisecond}

// PaceOf is how a "tcp" player's messages are spaced: DefaultPace unless
// the spec says pace=off (each message as soon as it is due) or gives the
// gap between messages (pace=100ms).
func PaceOf(s play.Spec) (Pace, error) {
	p := DefaultPace
	for _, kv := range s.Options {
		switch {
		case kv[0] != "pace":
			return p, fmt.Errorf("unknown option %q of a network player (valid: pace)", kv[0])
		case kv[1] == "off":
			p = Pace{}
		case kv[1] == "on":
			p = DefaultPace
		default:
			d, err := time.ParseDuration(kv[1])
			if err != nil || d < 0 || d > 10*time.Second {
				return p, fmt.Errorf("pace=%s: want on, off or the gap between messages, as 100ms (at most 10s)", kv[1])
			}
			p.Gap = d
		}
	}
	return p, nil
}
