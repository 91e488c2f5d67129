//go:build !js

package players

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/interp"
	"github.com/arena-playground/arena/internal/safefile"
)

// The "go" kind: a bot written in Go in a file of its own (see package
// gobot), checked before any game and interpreted in a child process:
// arena's own binary, started with goBotEnv, so that a bot that loops
// for ever or allocates without bound ends with its process group and
// under the caps of every program.
func init() {
	match.RegisterKind(match.Kind{
		Name:        "go",
		Example:     "go:mybot.go",
		Description: "a bot written in Go against arena's bot API (arena template -game GAME prints one), interpreted",
		Needs:       "the bot's .go file",
		New:         newGoBot,
	})
	if os.Getenv(goBotEnv) == "1" && os.Getenv(capsEnv) == "" {
		// This process is a bot's interpreter (the caps launcher, when
		// set, runs first and starts this binary again).
		os.Unsetenv(goBotEnv)
		if err := interp.Serve(os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "arena: the bot's interpreter:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// goBotEnv, set to 1, makes arena's binary a bot's interpreter.
const goBotEnv = "ARENA_GO_BOT"

func newGoBot(g match.Game, spec match.Spec) (match.Bot, error) {
	data, err := safefile.ReadFile(spec.Command)
	if err != nil {
		return nil, err
	}
	if err := interp.Check(spec.Command, string(data)); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("the bot's interpreter is arena's own binary, which cannot be found: %v", err)
	}
	proto := gobot.NewProtocol(g, spec.Command, string(data))
	p, err := startProcessEnv(proto, []string{self}, []string{goBotEnv + "=1"}, "the bot")
	if err != nil {
		return nil, err
	}
	return &goBot{processBot: p, proto: proto}, nil
}

// outOfMemory reports whether a bot's interpreter died of its runtime's
// "out of memory": the first line it wrote as it died.
func outOfMemory(said []string) bool {
	for _, l := range said {
		if strings.Contains(l, "fatal error: runtime: out of memory") {
			return true
		}
	}
	return false
}

// goBot is a bot interpreted in a child process. The child keeps a copy
// of the match (match.Mirror); one that does not answer within the clock
// is ended at once, and the bot's later moves fail as a crashed
// program's do.
type goBot struct {
	*processBot
	proto *gobot.Protocol
	// stopped says why the child was ended, once it was.
	stopped error
	closed  bool
}

// Close ends the child, once.
func (b *goBot) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	return b.processBot.Close()
}

// Begin starts the bot's copy of the match in its process, and waits for
// it: the compile and the start are charged to no clock.
func (b *goBot) Begin(st match.Start, side match.Side) error {
	b.proto.Begin(st, side)
	if _, err := b.out.Write(b.proto.Opening()); err != nil {
		return b.gone()
	}
	select {
	case line, ok := <-b.lines:
		if !ok {
			return b.gone()
		}
		return b.proto.Opened([]byte(line))
	case <-time.After(gobot.OpenLimit):
		return fmt.Errorf("the bot's interpreter did not start within %s", gobot.OpenLimit)
	}
}

func (b *goBot) Moved(acts [2]match.Action)                  { b.proto.Moved(acts) }

func (b *goBot) Act(t *match.Turn) (match.Action, error) {
	if b.stopped != nil {
		return nil, b.stopped
	}
	if t.Clock == 0 {
		t.Clock = gobot.DefaultLimit
	}
	a, err := b.processBot.Act(t)
	if note, _ := b.proto.Note(); note != nil {
		said := t.Note.Said
		t.Note = *note
		t.Note.Said = said
	}
	if err != nil && outOfMemory(t.Note.Said) {
		// The runtime's own stacks follow its last words: they say
		// nothing of the bot's code, only that it allocated.
		t.Note.Said = t.Note.Said[:1]
		over := ProgramCaps.overCap("", "out of memory")
		if over == "" {
			over = "with no cap set, over what the machine gave"
		}
		return nil, fmt.Errorf("the bot ran out of memory, %s", over)
	}
	if errors.As(err, new(lateError)) {
		b.Close()
		b.stopped = fmt.Errorf("the bot did not answer within %s at turn %d and was stopped", t.Clock, t.State.Turn())
		return nil, b.stopped
	}
	return a, err
}
