//go:build !js

package players

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/build"
	"github.com/arena-playground/arena/internal/confine"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/waitline"
)

// A go: bot's file is checked before any game, in arena's own process,
// and played in a child process, so that a bot that loops for ever or
// allocates without bound ends with its process group and under the caps
// of every program. Where Go is installed the child is the bot compiled
// (gobot/build), as fast as arena's own bots; elsewhere it is arena's own
// binary, started with gobot.InterpreterEnv, interpreting the bot. The
// interpreter is package gobot/interp, which serves as the child, and
// which players/gointerp registers here (RegisterGoInterpreter): this
// package does not import it, so that the games' tests that play programs
// through it do not import the games back through the interpreter's
// tables, and the interpreter imports nothing of players. Both
// children serve the same lines (gobot/serve), and the interpreter's
// check refuses a file before either is made, so both refuse the same
// files.

// goCheck checks a bot's source in this process; nil when this binary
// cannot interpret bots.
var goCheck func(file, src string) error

// RegisterGoInterpreter makes this binary one that plays go: bots: check
// reports whether a source compiles, and the binary, started with
// gobot.InterpreterEnv, interprets one. Package players/gointerp calls it
// from its init.
func RegisterGoInterpreter(check func(file, src string) error) { goCheck = check }

// checkGoBot reads the bot's file and checks its source against the bot
// API, in this process: nothing of it runs.
func checkGoBot(_ match.Game, spec play.Spec, _ play.Hosting) error {
	_, err := goSource(spec)
	return err
}

// goSource is the checked source of a go: bot's file.
func goSource(spec play.Spec) ([]byte, error) {
	if goCheck == nil {
		return nil, fmt.Errorf("go:%s: this program cannot interpret bots written in Go (the arena command, the desktop window and the page's server can)", spec.Command)
	}
	data, err := safefile.ReadFile(spec.Command)
	if err != nil {
		return nil, err
	}
	if err := goCheck(spec.Command, string(data)); err != nil {
		return nil, err
	}
	return data, nil
}

func newGoBot(g match.Game, spec play.Spec, h play.Hosting) (match.Bot, error) {
	data, err := goSource(spec)
	if err != nil {
		return nil, err
	}
	program, env, err := goProgram(spec.Command, string(data), h)
	if err != nil {
		return nil, err
	}
	proto := gobot.NewProtocol(g, spec.Command, string(data))
	b := &goBot{proto: proto, start: func() (*processBot, error) {
		said := newSaid(2048)
		said.goRuntime = true // its crashes are told by their first line, not the runtime's stack
		p, err := startProcessSaid(proto, box.Spec{Args: []string{program}, Env: env, Alone: true, Caps: h.ProgramCaps()}, "the bot", said)
		if err == nil {
			p.clockBy(h)
		}
		return p, err
	}}
	if b.processBot, err = b.start(); err != nil {
		return nil, err
	}
	b.live = true
	return b, nil
}

// goProgram is the program a go: bot runs as, and its environment: the
// bot compiled with the machine's Go (gobot/build), or, where there is
// none or h asks, arena's own binary as its interpreter.
func goProgram(file, src string, h play.Hosting) (program string, env []string, err error) {
	env = goBotEnv()
	if !h.Interpret {
		tc, err := build.Find()
		if err == nil {
			var wait *waitline.Line
			program, err := tc.Build(context.Background(), file, src, build.Native, func() {
				wait = waitline.Start(h.NotesTo(), fmt.Sprintf("arena: compiling go:%s with %s (once for this source)", file, tc.Version))
			})
			if wait != nil {
				result := "compiled"
				if err != nil {
					result = "failed"
				}
				wait.Done(result)
			}
			if err != nil {
				return "", nil, err
			}
			if box.Contain().Seccomp {
				// The interpreter's own filter, which the built bot
				// loads before any of its code runs (internal/confine).
				filter, err := box.InterpreterProgram()
				if err != nil {
					return "", nil, fmt.Errorf("the bot's filter: %v", err)
				}
				if filter != nil {
					env = append(env, confine.Env+"="+base64.StdEncoding.EncodeToString(filter))
				}
			}
			return program, env, nil
		}
		interpretedOnce.Do(func() {
			fmt.Fprintf(h.NotesTo(), "arena: go: bots are interpreted here, several times slower than compiled: %v\n", err)
		})
	} else {
		interpretedOnce.Do(func() {
			fmt.Fprintf(h.NotesTo(), "arena: go:%s is interpreted (yaegi), as -interpret asks: several times slower than compiled\n", file)
		})
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("the bot's interpreter is arena's own binary, which cannot be found: %v", err)
	}
	return self, append(env, gobot.InterpreterEnv+"=1"), nil
}

// interpretedOnce says once a process that go: bots are interpreted for
// want of Go.
var interpretedOnce sync.Once

// goBotEnv is a go: bot's environment beside arena's: GOMAXPROCS 2 unless arena's environment sets it, so that the threads the
// Go runtime starts, whose stacks count in the memory cap, are as many on
// a 64-core node as on a laptop (MinMemory).
func goBotEnv() []string {
	var env []string
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		env = append(env, "GOMAXPROCS=2")
	}
	return env
}

// goBot is a bot interpreted in a child process, which keeps a copy of
// the match (play.Mirror). A child that does not answer within the clock
// is ended at once: the move costs what a late move costs, and the next
// move starts another child, which rebuilds the match from its start.
type goBot struct {
	*processBot
	proto *gobot.Protocol
	start func() (*processBot, error)
	live  bool // the child is running and has not been ended
}

// Begin starts the bot's copy of the match in its process, and waits for
// it: the compile and the start are charged to no clock.
func (b *goBot) Begin(st play.Start, side match.Side) error {
	b.proto.Begin(st, side)
	if err := b.open(); err != nil {
		// A bot built with Go whose package initialisation panics dies
		// before it serves: its crash says why, where the interpreter
		// would have answered with the error.
		if why := b.died(); why != "" {
			return errors.New(why)
		}
		return err
	}
	return nil
}

// died is why a bot's process died, from its last words: a panic with
// where, or the runtime's fatal error; "" when they say neither.
func (b *goBot) died() string {
	said := b.said.take()
	why, _ := gobot.PanicIn(said)
	if why == "" {
		why, _ = gobot.FatalIn(said)
	}
	return why
}

// open sends the opening and waits for the child to have begun.
func (b *goBot) open() error {
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

func (b *goBot) Moved(acts [2]match.Action) { b.proto.Moved(acts) }

// Connect is the process's, but for a child that ended: Act starts
// another, so the ended one's error is not this move's.
func (b *goBot) Connect(ctx context.Context, s match.State, side match.Side, left time.Duration) error {
	if !b.live {
		return nil
	}
	return b.processBot.Connect(ctx, s, side, left)
}

func (b *goBot) Act(t *match.Turn) (match.Action, error) {
	if !b.live {
		p, err := b.start()
		if err != nil {
			return nil, fmt.Errorf("the bot's interpreter could not start again: %v", err)
		}
		b.processBot, b.live = p, true
		b.proto.Restart()
		if err := b.open(); err != nil {
			b.Close()
			why, printed := gobot.PanicIn(b.said.take())
			if why == "" {
				why, printed = gobot.FatalIn(printed)
			}
			if why != "" {
				t.Note.Said = printed
				return nil, errors.New(why)
			}
			return nil, err
		}
	}
	if t.Clock == 0 {
		t.Clock = gobot.DefaultLimit
	}
	a, err := b.processBot.Act(t)
	if note, _ := b.proto.Note(); note != nil && err == nil {
		said := t.Note.Said
		t.Note = *note
		t.Note.Said = said
	}
	why, printed := gobot.PanicIn(t.Note.Said)
	if why == "" {
		why, printed = gobot.FatalIn(printed)
	}
	t.Note.Said = printed
	switch {
	case err != nil && why != "" && b.dead != nil:
		// A goroutine of the bot's panicked and took the interpreter with
		// it: the runtime's stack names only the interpreter's code.
		b.Close()
		return nil, errors.New(why)
	case err != nil && outOfMemory(t.Note.Said):
		// The runtime's own stacks follow its last words: they say
		// nothing of the bot's code, only that it allocated.
		t.Note.Said = t.Note.Said[:1]
		b.Close()
		over := b.caps.Over("", "out of memory")
		if over == "" {
			over = "with no cap set, over what the machine gave"
		}
		return nil, fmt.Errorf("the bot ran out of memory, %s", over)
	case errors.As(err, new(lateError)):
		b.Close()
		return nil, match.Late(fmt.Sprintf("the bot did not answer within %s at turn %d and was stopped", t.Clock, t.State.Turn()))
	case err != nil && b.dead != nil:
		b.Close() // it ended; the next move starts another
	}
	return a, err
}

// Close ends the child, once.
func (b *goBot) Close() error {
	if !b.live {
		return nil
	}
	b.live = false
	return b.processBot.Close()
}

// outOfMemory reports whether a bot's interpreter died for want of
// memory, which its runtime says first as it dies: "fatal error: runtime:
// out of memory" when the kernel refuses to map more heap, "runtime: out
// of memory: cannot allocate ..." when the heap cannot grow, "runtime:
// failed to create new OS thread (... errno=12)" when a thread's stack
// cannot be mapped (the collector starts threads as the heap grows).
func outOfMemory(said []string) bool {
	for _, l := range said {
		if !strings.HasPrefix(l, "fatal error:") && !strings.HasPrefix(l, "runtime:") {
			continue
		}
		if strings.Contains(l, "out of memory") || strings.Contains(l, "failed to create new OS thread") || strings.Contains(strings.ToLower(l), "cannot allocate memory") {
			return true
		}
	}
	return false
}
