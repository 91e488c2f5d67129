//go:build !js

package players

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/serve"
	"github.com/arena-playground/arena/internal/untrusted"
)

// Students debug with print. What a program writes for people (its
// standard error; a py: agent's prints, which the runner sends there; all
// of a tcp:cmd: client's output, since its moves go by the socket) is
// kept three ways by a said: its tail, quoted in the reason when the
// program dies; each line as it comes, to the person running the match,
// prefixed by the seat, as many a move as the note keeps (then how many
// more there were); and the lines of the move being played, which the
// player hands to the move's note, so that the page shows them beside
// the move and the replay keeps them.
type said struct {
	mu      sync.Mutex
	tail    bytes.Buffer
	max     int    // bytes of tail kept
	partial []byte // a line not ended yet
	move    []string
	more    int // lines of this move past MaxSaidLines
	live    io.Writer
	seat    string
	// goRuntime: the program is Go (a go: bot's interpreter), whose
	// runtime ends a crash with its stack, paths of arena's build machine
	// and all: once its crash report starts, only the report's own
	// lines (panic:, fatal error:) are kept and shown, never the stack.
	goRuntime bool
	crashed   bool
	// botFrame is the compiled bot's innermost function in a crash's
	// stack ("Act.func1"), until its line is read; framed, once said.
	botFrame string
	framed   bool
	// pipes carry the programs' output here (outPipe): a take drains
	// them first.
	pipes []*outPipe
}

// The bounds of what a move's note keeps of what a program wrote: the
// first lines of the move, each clipped. A program that prints a million
// lines a move costs the record one line saying how many it dropped.
const (
	MaxSaidLines = 24
	MaxSaidBytes = 240
)

func newSaid(max int) *said { return &said{max: max} }

// crashStarts are the lines that start a Go runtime's crash report.
var crashStarts = []string{"panic: ", "fatal error: ", "unexpected fault address ", "runtime: goroutine stack exceeds",
	"runtime: out of memory", "runtime: failed to create new OS thread", "SIGSEGV: ", "SIGBUS: "}

// crashKept are the lines of a crash report that say what it was.
var crashKept = []string{"panic: ", "fatal error: ", "runtime: out of memory", "runtime: failed to create new OS thread", gobot.PanicLine}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// tellTo has each line shown to w as it comes, after the seat's name.
func (s *said) tellTo(w io.Writer, seat string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live, s.seat = w, seat
}

func (s *said) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	if !s.goRuntime {
		s.keep([]byte(p))
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			// A line is cut at MaxSaidBytes: what follows is dropped
			// until its end, so a line without end costs nothing.
			if room := MaxSaidBytes + 1 - len(s.partial); room > 0 {
				s.partial = append(s.partial, p[:min(room, len(p))]...)
			}
			break
		}
		if room := MaxSaidBytes + 1 - len(s.partial); room > 0 {
			s.partial = append(s.partial, p[:min(room, i)]...)
		}
		s.line(s.partial)
		s.partial, p = s.partial[:0], p[i+1:]
	}
	return n, nil
}

// keep adds to the tail.
func (s *said) keep(p []byte) {
	s.tail.Write(p)
	if extra := s.tail.Len() - s.max; extra > 0 {
		s.tail.Next(extra)
	}
}

// line takes one whole line.
func (s *said) line(b []byte) {
	text := strings.TrimRight(string(b), "\r")
	if s.goRuntime {
		if hasAnyPrefix(text, crashStarts) {
			s.crashed = true
		}
		if s.crashed && !hasAnyPrefix(text, crashKept) {
			where, ok := s.frame(text)
			if !ok {
				return // the runtime's stack: the interpreter's, not the bot's
			}
			text = gobot.PanicLine + where
		}
		s.keep([]byte(text + "\n"))
	}
	if len(text) > MaxSaidBytes {
		text = strings.ToValidUTF8(text[:MaxSaidBytes-3], "") + "..."
	}
	text = untrusted.Text(text)
	if len(s.move) >= MaxSaidLines {
		s.more++ // neither kept nor shown: a flood costs the terminal one line
		return
	}
	if s.live != nil {
		fmt.Fprintf(s.live, "%s| %s\n", s.seat, text)
	}
	s.move = append(s.move, text)
}

// frame reads a compiled bot's crash stack for the bot's innermost
// function and its line: the stack itself is never shown, but where the
// bot's own goroutine panicked is said as the interpreter says it
// (gobot.PanicLine), "bot.Act.func1, line 14".
func (s *said) frame(text string) (string, bool) {
	switch {
	case s.framed:
	case s.botFrame == "" && strings.HasPrefix(text, serve.BotPackage+"."):
		fn := strings.TrimPrefix(text, serve.BotPackage+".")
		if i := strings.IndexByte(fn, '('); i > 0 {
			fn = fn[:i]
		}
		s.botFrame = fn
	case s.botFrame != "":
		m := botLine.FindStringSubmatch(text)
		if m == nil {
			s.botFrame = ""
			break
		}
		s.framed = true
		return fmt.Sprintf("bot.%s, line %s", s.botFrame, m[1]), true
	}
	return "", false
}

// botLine is the place of a compiled bot's frame in a stack ("\t
// arenabot/bot/bot.go:14 +0x1d").
var botLine = regexp.MustCompile(`^\s*` + regexp.QuoteMeta(serve.BotPackage) + `/bot\.go:(\d+)`)

// String is the tail of what was written.
func (s *said) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tail.String()
}

// pipe is a new pipe for a program's output to come here by.
func (s *said) pipe() (*outPipe, error) {
	p, err := newOutPipe(s)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	live := s.pipes[:0]
	for _, q := range s.pipes {
		select {
		case <-q.done:
		default:
			live = append(live, q)
		}
	}
	s.pipes = append(live, p)
	return p, nil
}

// drain returns once what the programs wrote before it has come here
// (outPipe.drain).
func (s *said) drain() {
	s.mu.Lock()
	pipes := append([]*outPipe(nil), s.pipes...)
	s.mu.Unlock()
	for _, p := range pipes {
		p.drain()
	}
}

// take returns the lines written since the last take (once the pipes are
// drained: with the move they were printed in), with a last line
// counting those dropped, and starts the next move's.
func (s *said) take() []string {
	s.drain()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.move
	if s.more > 0 {
		more := fmt.Sprintf("(%d more lines)", s.more)
		out = append(out, more)
		if s.live != nil {
			fmt.Fprintf(s.live, "%s| %s\n", s.seat, more)
		}
	}
	s.move, s.more = nil, 0
	return out
}
