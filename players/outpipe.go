//go:build !js

package players

import (
	"io"
	"os"
	"sync"
	"time"
)

// A program's answers and what it writes for people come by different
// pipes (or by a socket and a pipe), and nothing orders what arena reads
// of the two: an answer can be read before the lines printed ahead of it,
// which then land in the next move's note, or in none once the game is
// over. An outPipe carries a program's output to its said and can be
// drained: once the answer is in, every line printed before it is in the
// pipe already, so reading the pipe to empty before the note is taken
// puts each line with the move it was printed in.
//
// The copier reads and hands on under mu, so a drain that holds mu knows
// nothing read is still on its way, and reads the rest itself
// (outpipe_unix.go; on Windows, whose pipes the poller does not hold, a
// drain does nothing and a line can still come a move late).
type outPipe struct {
	r, w   *os.File
	to     io.Writer
	mu     sync.Mutex
	fd     int    // r's descriptor, for a drain's reads
	closed bool   // r is closed: fd is no longer r's
	buf    []byte // the copier's and a drain's, under mu
	done   chan struct{}
}

func newOutPipe(to io.Writer) (*outPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &outPipe{r: r, w: w, to: to, fd: -1, buf: make([]byte, 32<<10), done: make(chan struct{})}
	p.init()
	return p, nil
}

// started is told once the program holds the write end: arena's copy is
// closed, so that the pipe ends with the program, and copying starts.
func (p *outPipe) started() {
	p.w.Close()
	go func() {
		defer close(p.done)
		defer p.close()
		p.copy()
	}()
}

// failed is told when the program did not start, or was ended as it
// started: what it wrote is read, for the error to quote, and the pipe
// is closed.
func (p *outPipe) failed() {
	p.started()
	ended := make(chan struct{})
	close(ended)
	p.settle(ended, time.Second)
}

// settle waits, at most patience in all, for exited to close and for
// the pipe to end with the program, so that its last words (a crash's
// report) are in; then it closes the read end: a process that escaped
// its box and holds the write end costs no goroutine and no wait.
func (p *outPipe) settle(exited <-chan struct{}, patience time.Duration) {
	t := time.NewTimer(patience)
	defer t.Stop()
	defer p.close()
	select {
	case <-exited:
	case <-t.C:
		return
	}
	select {
	case <-p.done:
	case <-t.C:
	}
}

// close closes the read end, once.
func (p *outPipe) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		p.r.Close()
	}
}
