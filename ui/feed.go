package ui

import (
	"encoding/json"
	"sync"

	"github.com/arena-playground/arena/engine/play"
)

// Host computes matches away from the thread that draws: on a goroutine on
// the desktop, in a Web Worker in the browser, where Go has one thread and
// a thinking bot would take the page's frames.
type Host interface {
	// Compute starts computing the match st describes.
	Compute(st play.Start) Feed
}

// Feed is one match being computed: its messages (JSON-encoded
// match.Messages) come in, a person's moves go out.
type Feed interface {
	// Poll returns the messages that arrived since the last call, in
	// order, without waiting.
	Poll() [][]byte
	// Act sends a person's move.
	Act(a play.Act)
	// Stop ends the computation; no message arrives after it.
	Stop()
}

// Inbox holds a feed's messages as they arrive, from any goroutine or
// callback, until Poll takes them; once closed it drops what comes.
type Inbox struct {
	mu     sync.Mutex
	msgs   [][]byte
	closed bool
}

// Push adds a message.
func (b *Inbox) Push(data []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.msgs = append(b.msgs, data)
	}
}

// PushError adds a MsgError message saying why.
func (b *Inbox) PushError(why string) {
	data, _ := json.Marshal(play.Message{Kind: play.MsgError, Error: why})
	b.Push(data)
}

// Poll takes the messages that arrived, in order.
func (b *Inbox) Poll() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.msgs
	b.msgs = nil
	return m
}

// Close drops what is waiting and what comes after.
func (b *Inbox) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed, b.msgs = true, nil
}

// ask asks the host to compute a request on setup with moves played (the
// analysis of a position, the game's report, a drill); fill says what is
// asked.
func (v *matchView) ask(setup play.Setup, moves [][2]json.RawMessage, fill func(*play.Start)) (Feed, error) {
	st, err := play.NewStart(setup, moves)
	if err != nil {
		return nil, err
	}
	fill(&st)
	return v.app.host.Compute(st), nil
}

// messages decodes the messages f has this frame, in order; bad is told
// why of each that does not decode.
func messages(f Feed, bad func(error)) []play.Message {
	var out []play.Message
	for _, data := range f.Poll() {
		var m play.Message
		if err := json.Unmarshal(data, &m); err != nil {
			bad(err)
			continue
		}
		out = append(out, m)
	}
	return out
}
