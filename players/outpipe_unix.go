//go:build !js && !windows

package players

import (
	"io"
	"syscall"
)

// maxDrain bounds one drain's reading: the most a Linux pipe holds
// (pipe-max-size), so a program that writes without pause cannot keep a
// drain reading.
const maxDrain = 1 << 20

// init notes r's descriptor without making it blocking (as Fd would).
func (p *outPipe) init() {
	if rc, err := p.r.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { p.fd = int(fd) })
	}
}

// copy hands on what comes until the pipe ends: it waits in the poller
// without holding mu, and reads and hands on holding it.
func (p *outPipe) copy() {
	rc, err := p.r.SyscallConn()
	if err != nil {
		return
	}
	ended := false
	for !ended {
		err := rc.Read(func(fd uintptr) bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			n, err := p.readReady(int(fd), len(p.buf))
			switch {
			case n > 0:
				return true
			case err == syscall.EAGAIN:
				return false // nothing yet: wait
			default:
				ended = true // the end, or an error
				return true
			}
		})
		if err != nil {
			return
		}
	}
}

// readReady reads what fd holds, up to limit bytes, and hands it on,
// without waiting; mu is held. It returns what it read and the error of
// the read that stopped it.
func (p *outPipe) readReady(fd int, limit int) (int, error) {
	buf := p.buf
	total := 0
	for total < limit {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 {
			if err == nil {
				err = io.EOF
			}
			return total, err
		}
		p.to.Write(buf[:n])
		total += n
	}
	return total, nil
}

// drain returns once what the program wrote before the call has reached
// to: whatever the copier read is handed on (it holds mu until it is),
// and the pipe is read to empty here.
func (p *outPipe) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.fd < 0 {
		return
	}
	p.readReady(p.fd, maxDrain)
}
