//go:build !js

package players

import (
	"context"
	"net"
	"sync"
	"time"
)

// pacer writes a connection's messages in order, each in a write of its
// own and no sooner than the quiet its predecessor asks for. The 2017
// shortest-path course's client library has no framing: it reads the game
// until half a second of silence, then each update with one recv(1024),
// so two messages that reach it in one read kill it ("Extra data"). On
// the original server its opponent was another student's Python program,
// slow enough to keep messages apart; arena's bots answer within a
// millisecond, so arena keeps them apart itself. A quiet lasts until the
// client speaks: a client that sends a message has read what came before
// it (the course's clients read every update before they move), so what
// follows cannot join it in a read. The pacer writes from a goroutine of
// its own: a match waits for it only to know that a side has heard
// everything before its clock starts (flush), so the pauses are charged to
// no one.
type pacer struct {
	c       net.Conn
	mu      sync.Mutex
	queue   []pacedMsg
	wake    chan struct{} // a message was queued, or the end asked
	drained chan struct{} // closed once the queue is written; nil when it is
	closing bool
	spoke   bool          // the client sent a message since the last write
	done    chan struct{} // closed when the writer has closed the connection
	// eof, when set, is closed once the client has closed its side (its
	// reader read to the end): the last close waits for it.
	eof <-chan struct{}
}

type pacedMsg struct {
	b     []byte
	quiet time.Duration // no other message before this much time after it
}

func newPacer(c net.Conn, eof <-chan struct{}) *pacer {
	p := &pacer{c: c, wake: make(chan struct{}, 1), done: make(chan struct{}), eof: eof}
	go p.run()
	return p
}

// send queues a message, to be followed by quiet.
func (p *pacer) send(b []byte, quiet time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return
	}
	p.queue = append(p.queue, pacedMsg{b, quiet})
	if p.drained == nil {
		p.drained = make(chan struct{})
	}
	p.poke()
}

func (p *pacer) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// heard notes that the client sent a message: the quiet is over.
func (p *pacer) heard() {
	p.mu.Lock()
	p.spoke = true
	p.mu.Unlock()
	p.poke()
}

// flush waits until every message queued has been written.
func (p *pacer) flush(ctx context.Context) error {
	p.mu.Lock()
	d := p.drained
	p.mu.Unlock()
	if d == nil {
		return nil
	}
	select {
	case <-d:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeWhenSent closes the connection once the queue is written.
func (p *pacer) closeWhenSent() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closing = true
	p.poke()
}

// closeNow drops what is queued and closes the connection.
func (p *pacer) closeNow() {
	p.mu.Lock()
	p.queue, p.closing = nil, true
	p.mu.Unlock()
	p.c.Close()
	p.poke()
}

// linger bounds the wait, after the last message, for a client to close
// its side.
const linger = 2 * time.Second

// shut closes the connection after its last message: its writing side
// first, so that the client reads the last message and then the end,
// and the socket once the client has closed its side too (or linger has
// passed). A socket closed while the client's last words are unread
// answers them with a reset, and a reset can discard the last message
// before the client reads it (seen once, in a make test run beside two
// CPU burners: an arena bot client of the docs' shortest-path session
// ended "connection reset by peer" after the host's result).
func (p *pacer) shut() {
	if cw, ok := p.c.(interface{ CloseWrite() error }); ok && p.eof != nil && cw.CloseWrite() == nil {
		select {
		case <-p.eof:
		case <-time.After(linger):
		}
	}
	p.c.Close()
}

func (p *pacer) run() {
	defer close(p.done)
	var next time.Time
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			if p.drained != nil {
				close(p.drained)
				p.drained = nil
			}
			closing := p.closing
			p.mu.Unlock()
			if closing {
				p.shut()
				return
			}
			<-p.wake
			continue
		}
		spoke := p.spoke
		p.mu.Unlock()
		if wait := time.Until(next); wait > 0 && !spoke {
			select {
			case <-time.After(wait):
			case <-p.wake: // the client spoke, or the end came: look again
			}
			continue
		}
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.mu.Unlock()
			continue
		}
		m := p.queue[0]
		p.queue, p.spoke = p.queue[1:], false
		p.mu.Unlock()
		if writeBounded(p.c, m.b) != nil {
			p.closeNow() // the client is gone: its reads will say so
			continue
		}
		if m.quiet > 0 {
			p.awaitRead()
		}
		next = time.Now().Add(m.quiet)
	}
}

// maxUnread bounds the wait for a client to read a message before its
// quiet starts: a client that reads nothing more is on its clock.
const maxUnread = 2 * time.Second

// awaitRead waits, up to maxUnread, until the client has read all that
// was written to it, where the kernel says (peerUnread), or has spoken.
// The course library's half second of silence starts when it reads the
// game: a student's program on a busy machine (a make test, a ladder's
// node) read it more than the opening's margin after arena wrote it, and
// the first update joined the game in its read.
func (p *pacer) awaitRead() {
	for start := time.Now(); time.Since(start) < maxUnread; {
		if n, ok := peerUnread(p.c); !ok || n == 0 {
			return
		}
		p.mu.Lock()
		spoke, closing := p.spoke, p.closing
		p.mu.Unlock()
		if spoke || closing {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
