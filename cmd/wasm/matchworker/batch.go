package matchworker

import (
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/play"
)

// holdFor is how long a message may be held for the ones after it: a
// frame of the page's.
const holdFor = 16 * time.Millisecond

// batchBytes bounds what is held: past it, the messages go at once.
const batchBytes = 64 << 10

// batcher posts a match's messages to the page a run at a time, lines of
// JSON ended by newlines (the page splits what it takes on newlines): each
// post is a task on the page's thread, which draws, and an Evasion session
// of fast bots is 30,000 turns. A turn is held only while Serve expects
// the next message within a millisecond (Message.Soon) and for holdFor
// at most; any other message goes at once with what is held, as does
// what is held when holdFor has passed and the worker's program waits (a
// bot in a worker of its own thinking; a bot thinking in this worker
// holds its turn's predecessors until it moves).
type batcher struct {
	post func([]byte) // hands a run of lines to the page, not kept
	// The clock and the timer, the tests' own in the tests.
	now       func() time.Time
	afterFunc func(time.Duration, func()) *time.Timer

	mu    sync.Mutex
	buf   []byte
	since time.Time // when the first message held was added
	timer *time.Timer
}

func newBatcher(post func([]byte)) *batcher {
	return &batcher{post: post, now: time.Now, afterFunc: time.AfterFunc}
}

// add takes the next message, as JSON.
func (b *batcher) add(m play.Message, data []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf)+len(data) >= batchBytes {
		b.flush()
	}
	if len(b.buf) == 0 {
		b.since = b.now()
	}
	b.buf = append(append(b.buf, data...), '\n')
	if m.Kind == play.MsgTurn && m.Soon && len(b.buf) < batchBytes && b.now().Sub(b.since) < holdFor {
		if b.timer == nil {
			b.timer = b.afterFunc(holdFor, b.due)
		}
		return
	}
	b.flush()
}

// due posts what is held once holdFor has passed.
func (b *batcher) due() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timer = nil
	b.flush()
}

// flush posts what is held. The caller holds b.mu.
func (b *batcher) flush() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buf) == 0 {
		return
	}
	b.post(b.buf[:len(b.buf)-1]) // a run of one is the message as it was
	b.buf = b.buf[:0]
}
