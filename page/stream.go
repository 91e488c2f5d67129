package page

import (
	"bufio"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// lineStream sends values to the page as lines of JSON on a response
// that stays open (a match's messages, a gauntlet's standings). Lines are
// flushed to the socket at most every flushEvery, or at once when the
// page waits for one (a person's turn, the end): an Evasion session is
// 30,000 turns, and a write to the socket for each cost the page's path
// a seventh of the session. The lines wait in a buffer of their own:
// the response's (4 KB) sent a chunk every 20 or 30 Evasion turns, each a
// task for the browser's network service and the page's worker to read.
type lineStream struct {
	mu    sync.Mutex
	w     *bufio.Writer // the response's body, sent by flush
	rc    *http.ResponseController
	dirty bool
	err   error
	stop  chan struct{}
	done  chan struct{}
}

// flushEvery is how long a line may wait to be flushed: a frame.
const flushEvery = 16 * time.Millisecond

// streamBuffer is the most a stream holds before it is sent: a frame of
// an Evasion session's turns (some 75 of 140 bytes) fits several times.
const streamBuffer = 64 << 10

// newLineStream starts the response: its headers are sent at once, so
// that the page learns the stream is open.
func newLineStream(w http.ResponseWriter) *lineStream {
	s := &lineStream{w: bufio.NewWriterSize(w, streamBuffer), rc: http.NewResponseController(w), stop: make(chan struct{}), done: make(chan struct{})}
	// The server's read bound is for the request, which is read: past
	// it, the stream must not be taken for a dead connection.
	s.rc.SetReadDeadline(time.Time{})
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	s.flush()
	go s.flusher()
	return s
}

func (s *lineStream) flusher() {
	defer close(s.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.mu.Lock()
			if s.dirty {
				s.flush()
			}
			s.mu.Unlock()
		case <-s.stop:
			return
		}
	}
}

// flush writes what is buffered. The caller holds s.mu, or owns s.
func (s *lineStream) flush() {
	if s.err != nil {
		return
	}
	// A stream may last longer than the server's write bound: each
	// flush has its own.
	s.rc.SetWriteDeadline(time.Now().Add(time.Minute))
	if s.err = s.w.Flush(); s.err == nil {
		s.err = s.rc.Flush()
	}
	s.dirty = false
}

// send writes v as a line, flushed at once when urgent. It returns the
// error that ended the stream (the page went), if one did.
func (s *lineStream) send(v any, urgent bool) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.rc.SetWriteDeadline(time.Now().Add(time.Minute))
	if _, err := s.w.Write(append(data, '\n')); err != nil {
		s.err = err
		return err
	}
	s.dirty = true
	if urgent {
		s.flush()
	}
	return s.err
}

// close flushes what is left and stops the flusher.
func (s *lineStream) close() {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirty {
		s.flush()
	}
}
