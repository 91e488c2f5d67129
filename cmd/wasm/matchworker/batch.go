package matchworker

import (
	"sync"
	"time"
)

// batch joins the messages a match's worker posts in a burst into one
// post, their lines joined by newlines (JSON escapes them inside its
// strings, and the page splits what it takes at them). An Evasion
// session is 30,000 turns in a few seconds: one post each was as many
// message events on the thread that draws.
//
// A message goes at once, with every one kept before it, when it must
// (a person's turn, the end, an error: urgent), or when it comes a
// burstGap or more after the one before: a match whose turns take time
// (a bot thinking) sees each turn as soon as before. Within a burst the
// messages wait for flushEvery at most (a timer, for a burst that ends
// with the worker waiting), or until maxBatch bytes are kept. A bot that
// thinks long right after a burst holds the burst's last messages until
// it is done: Go's WebAssembly runs one goroutine until it waits, so no
// timer fires meanwhile; bursts are of quick turns, and a turn that
// takes long right after one is rare and shows late by its own time.
type batch struct {
	mu    sync.Mutex
	buf   []byte
	last  time.Time // when the last message came
	first time.Time // when the oldest kept one came
	timer *time.Timer
	send  func(string)
	now   func() time.Time
}

const (
	burstGap   = time.Millisecond
	flushEvery = 8 * time.Millisecond
	maxBatch   = 256 << 10
)

func newBatch(send func(string)) *batch {
	return &batch{send: send, now: time.Now}
}

// add posts line, or keeps it for the burst's post.
func (b *batch) add(line []byte, urgent bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	burst := !b.last.IsZero() && now.Sub(b.last) < burstGap
	b.last = now
	if len(b.buf)+len(line)+1 > maxBatch {
		b.flushLocked()
	}
	if len(b.buf) == 0 {
		b.first = now
	} else {
		b.buf = append(b.buf, '\n')
	}
	b.buf = append(b.buf, line...)
	switch {
	case urgent || !burst || len(b.buf) >= maxBatch || now.Sub(b.first) >= flushEvery:
		b.flushLocked()
	case b.timer == nil:
		b.timer = time.AfterFunc(flushEvery, b.flush)
	}
}

// flush posts what is kept.
func (b *batch) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *batch) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buf) == 0 {
		return
	}
	b.send(string(b.buf))
	b.buf = b.buf[:0]
}
