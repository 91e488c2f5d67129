package gobot

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Request is a line from the match to the bot's process.
type Request struct {
	ID int `json:"id"`
	// Begin comes with the first request: the bot's source and the match.
	// A Begin without a match only asks whether the source compiles.
	Begin *Begin `json:"begin,omitempty"`
	// Moves are the turns played since the last request, each side's
	// action as JSON (null: the side did not move).
	Moves [][2]json.RawMessage `json:"moves,omitempty"`
	// Turn is the turn of the state the bot moves in, which the copy
	// must have reached: a check that both ends follow the same match.
	Turn    int   `json:"turn"`
	LimitMs int64 `json:"limit_ms,omitzero"` // the clock's time for the move; 0: none
}

// Begin is the bot and the match it plays.
type Begin struct {
	File   string      `json:"file"`
	Source string      `json:"source"`
	Start  *play.Start `json:"start,omitempty"`
	Side   match.Side  `json:"side"`
}

// Reply is the bot's answer: its action and note, or why it has none (it
// does not compile, it panicked, it returned an error).
type Reply struct {
	ID     int             `json:"id"`
	Action json.RawMessage `json:"action,omitempty"`
	Note   *match.Note     `json:"note,omitempty"`
	// Said is what the bot printed while it chose, when its process
	// cannot show it otherwise (the page's worker; a child process
	// prints to its standard error).
	Said  []string `json:"said,omitempty"`
	Error string   `json:"error,omitempty"`
}

// DefaultLimit is the time a bot written in Go has for a move when the
// game sets no clock (map colouring): past it, its process is ended and
// the bot loses as a bot over its clock does.
const DefaultLimit = 10 * time.Second

// Protocol is the match's end of the lines: it writes each request with
// the turns played since the last, and reads the replies. One Protocol
// serves one bot in one match.
type Protocol struct {
	file, source string
	game         match.Game
	begin        *Begin // the opening not yet sent
	opening      *Begin // the match's opening, for a process started again
	// moves are the match's turns so far; sent, how many of them the
	// bot's process has.
	moves [][2]json.RawMessage
	sent  int
	err   error
	note  *match.Note
	said  []string
}

// NewProtocol is the protocol of the bot in file, whose source is given.
func NewProtocol(g match.Game, file, source string) *Protocol {
	return &Protocol{game: g, file: file, source: source}
}

// Begin notes how the match began, for the first request.
func (p *Protocol) Begin(st play.Start, side match.Side) error {
	p.begin = &Begin{File: p.file, Source: p.source, Start: &st, Side: side}
	p.opening = p.begin
	return nil
}

// Restart makes the next lines begin the match again for a new process
// (one started after the last was ended): the opening, then every turn
// so far with the next request.
func (p *Protocol) Restart() {
	p.begin, p.sent = p.opening, 0
}

// Moved notes a turn's actions, for the next request.
func (p *Protocol) Moved(acts [2]match.Action) {
	var mv [2]json.RawMessage
	for i, a := range acts {
		if a == nil {
			mv[i] = json.RawMessage("null")
			continue
		}
		b, err := json.Marshal(a)
		if err != nil && p.err == nil {
			p.err = fmt.Errorf("turn's action cannot be written for the bot: %v", err)
		}
		mv[i] = b
	}
	p.moves = append(p.moves, mv)
}

// Opening is the line that begins the match in the bot's process before
// any move (request 0, turn -1): the bot compiles and its copy of the
// match starts, so that neither is charged to its first move's clock,
// and a bot that does not compile is refused before the match starts.
// Its reply is read with Opened.
func (p *Protocol) Opening() []byte {
	req := Request{ID: 0, Begin: p.begin, Turn: -1}
	p.begin = nil
	b, _ := json.Marshal(req)
	return append(b, '\n')
}

// Opened reads the reply to Opening: nil, or why the bot cannot play.
func (p *Protocol) Opened(line []byte) error {
	var r Reply
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Errorf("the bot's interpreter answered nonsense: %v", err)
	}
	if r.Error != "" {
		return errors.New(r.Error)
	}
	return nil
}

// OpenLimit is how long a bot's process may take to start and compile
// the bot (not charged to any clock).
const OpenLimit = 30 * time.Second

// Request writes the request for the move of side in s.
func (p *Protocol) Request(s match.State, side match.Side, id int, limit time.Duration) []byte {
	req := Request{ID: id, Begin: p.begin, Moves: p.moves[p.sent:], Turn: s.Turn(), LimitMs: limit.Milliseconds()}
	p.begin, p.sent = nil, len(p.moves)
	b, _ := json.Marshal(req)
	return append(b, '\n')
}

// Reply reads the bot's answer. A bot's own failure (a panic, an error)
// is reported in its words.
func (p *Protocol) Reply(line []byte) (match.Action, int, error) {
	var r Reply
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, -1, fmt.Errorf("not a reply: %v", err)
	}
	p.note, p.said = r.Note, WithoutPanicLines(r.Said)
	if p.err != nil {
		return nil, r.ID, p.err
	}
	if r.Error != "" {
		return nil, r.ID, match.Reported(r.Error)
	}
	if len(r.Action) == 0 {
		return nil, r.ID, errors.New("a reply with no action")
	}
	a, err := p.game.DecodeAction(r.Action)
	return a, r.ID, err
}

// Note returns what the bot reported with its last reply, and what it
// printed when its process could not show it.
func (p *Protocol) Note() (*match.Note, []string) { return p.note, p.said }

// Final is nil: the bot's process is ended with the match.
func (p *Protocol) Final(match.State, match.Side) []byte { return nil }

// ParseRequest is not for this protocol: a bot of this kind is never
// asked by a host (arena bot).
func (p *Protocol) ParseRequest([]byte) (match.State, int, time.Duration, error) {
	return nil, 0, 0, errors.New("a go: bot's requests are read by its interpreter")
}

// WriteReply is not for this protocol (see ParseRequest).
func (p *Protocol) WriteReply(match.Action, int) []byte { return nil }

// The page's bots: the page hands the match's worker the source of each
// go: player (it has no files), by the name its spec gives.
var (
	sourcesMu sync.Mutex
	sources   = map[string]string{}
)

// Provide makes source the bot named file in this process's matches.
func Provide(file, source string) {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	sources[file] = source
}

// Provided returns the source provided for file.
func Provided(file string) (string, bool) {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	s, ok := sources[file]
	return s, ok
}

// PanicLine starts the line the interpreter writes, with what the bot
// prints, when the bot panics: the function it panicked in follows. A
// panic in one of the bot's goroutines ends the interpreter, and this line
// is then all that says where (see PanicIn); a panic in Act is answered
// as an error, and the line is dropped from what the bot printed.
const PanicLine = "arena: the bot panicked in "

// PanicIn reads how a bot's interpreter died from what it wrote: the
// function a goroutine panicked in and the panic's value, when it died of
// a panic ("" otherwise), and what the bot printed before it.
func PanicIn(said []string) (why string, printed []string) {
	fn := ""
	for _, l := range said { // the interpreter's comes before the panic, a compiled bot's stack after
		if f, ok := strings.CutPrefix(l, PanicLine); ok {
			fn = f
			break
		}
	}
	for i, l := range said {
		if v, ok := strings.CutPrefix(l, "panic: "); ok {
			v = strings.TrimSuffix(v, " [recovered, repanicked]")
			v = strings.TrimSuffix(v, " [recovered]")
			where := ""
			if fn != "" {
				where = " in " + fn
			}
			return "the bot panicked" + where + ": " + v, WithoutPanicLines(said[:i])
		}
	}
	return "", WithoutPanicLines(said)
}

// FatalIn finds the Go runtime's fatal error in what a bot's interpreter
// wrote as it died (its crash report, whose stack the player kept out),
// and says it as what it was: a stack overflow (a recursion without
// end), a fault (a data race tearing a slice or a map), or another fatal
// error; printed is what the bot wrote before. Running out of memory is
// not reported here: the caps say which cap it hit.
func FatalIn(said []string) (why string, printed []string) {
	for i, l := range said {
		v, ok := strings.CutPrefix(l, "fatal error: ")
		if !ok {
			continue
		}
		switch {
		case strings.Contains(v, "out of memory"):
			return "", said
		case v == "stack overflow":
			why = "the bot overflowed its stack (a recursion without end?): fatal error: stack overflow"
		case v == "fault" || strings.HasPrefix(v, "unexpected signal") || strings.HasPrefix(v, "concurrent map"):
			why = "the bot's code faulted (a data race between its goroutines?): fatal error: " + v
		default:
			why = "the bot's interpreter died: fatal error: " + v
		}
		return why, said[:i]
	}
	return "", said
}

// WithoutPanicLines drops the interpreter's PanicLine lines.
func WithoutPanicLines(said []string) []string {
	out := said[:0:0]
	for _, l := range said {
		if !strings.HasPrefix(l, PanicLine) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// InterpreterEnv, set to 1, makes a binary that imports gobot/interp a
// bot's interpreter: the interpreter's init serves then, in its box
// (package box's launcher, whose init runs first, has made the box and
// executed the binary again). The go: kind of players starts arena's own
// binary so where no Go is installed.
const InterpreterEnv = "ARENA_GO_BOT"
