//go:build !js

package players

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/untrusted"
)

// launched is a program that arena started to play over TCP (a
// "tcp:cmd:" spec), in its box with a seat: a port that only its box
// reaches, where arena listens. It is handed the seat's address and is
// expected to connect there, as a student's client connects to the
// course's server. Its box ends with its session, or on Ctrl-C.
type launched struct {
	box    *box.Box
	cmd    *exec.Cmd
	output *said    // what it wrote on stdout and stderr
	pipe   *outPipe // its way to output
	exited chan struct{}
	err    error // how it exited, once exited is closed
	forget func()
	log    io.Writer // hears of the connections refused, when set
	seat   string    // the seat's name in the log
	caps   box.Caps
	// connectWait bounds the wait for it to connect (play.Hosting).
	connectWait time.Duration
}

// refused logs a connection that was not the program's.
func (l *launched) refused(who string) {
	if l.log != nil {
		fmt.Fprintf(l.log, "%s: refused %s: only the program arena started may take this seat\n", l.seat, who)
	}
}

// launch starts command in its box, with {role} replaced by vars' and
// {host} and {port} by its seat's, in each word after the command is
// split, so that a value never changes how the command splits. All it
// writes goes to out: its moves go by the socket, accepted on the
// listener Seat gives. It runs as h says.
func launch(command string, vars map[string]string, out *said, h play.Hosting) (*launched, error) {
	args, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("tcp:cmd: give the program to start, as in tcp:cmd:python3 client.py {port}")
	}
	for i, a := range args {
		for k, v := range vars {
			a = strings.ReplaceAll(a, "{"+k+"}", v)
		}
		args[i] = a
	}
	caps := h.ProgramCaps()
	b, err := box.New(box.Spec{Args: args, Seat: true, Caps: caps})
	if err != nil {
		return nil, fmt.Errorf("cannot start %s: %v", args[0], err)
	}
	l := &launched{box: b, cmd: b.Cmd, output: out, exited: make(chan struct{}), caps: caps, connectWait: h.Connect()}
	if l.pipe, err = out.pipe(); err != nil {
		b.Close()
		return nil, fmt.Errorf("cannot start %s: %v", args[0], err)
	}
	l.cmd.Stdout, l.cmd.Stderr = l.pipe.w, l.pipe.w
	if err := b.Start(); err != nil {
		l.pipe.failed()
		b.Close()
		return nil, fmt.Errorf("cannot start %s: %v%s", args[0], err, l.said())
	}
	l.pipe.started()
	l.forget = cleanup.Add(b.Kill) // Ctrl-C does not reach the box
	go func() {
		l.err = l.cmd.Wait()
		close(l.exited)
	}()
	return l, nil
}

// said is what the program wrote, as a clause, or "".
func (l *launched) said() string {
	if tail := strings.TrimSpace(l.output.String()); tail != "" {
		return "; it wrote: " + untrusted.Line(tail)
	}
	return ""
}

// listener is where the program's connection is accepted.
func (l *launched) listener() net.Listener { return l.box.Seat() }

// stop gives the program a moment to exit by itself (it has heard that its
// session is over, and the course's clients exit then), then ends its
// box, whatever the program left running.
func (l *launched) stop(patience time.Duration) {
	select {
	case <-l.exited:
	case <-time.After(patience):
	}
	l.box.Kill()
	l.forget()
	l.pipe.settle(l.exited, 2*time.Second) // a child that escaped holds the pipe
	l.box.Close()
}

// gone says how the program ended, with the last line it wrote, once it
// has; "" while it runs.
func (l *launched) gone() string {
	select {
	case <-l.exited:
	default:
		return ""
	}
	return l.why("")
}

// why says how the program ended, when (after the status), and the last
// line it wrote.
func (l *launched) why(when string) string {
	msg := "the program exited"
	var ee *exec.ExitError
	var ps *os.ProcessState
	if errors.As(l.err, &ee) {
		msg += " (" + ee.ProcessState.String() + ")"
		ps = ee.ProcessState
	}
	if when != "" {
		msg += " " + when
	}
	l.output.drain()
	tail := strings.TrimSpace(l.output.String())
	if tail != "" {
		msg += "; it wrote: " + untrusted.Line(tail)
	}
	return msg + boxNote(l.box, l.caps, msg, tail, ps)
}

// goneWithin waits up to d for the program to end and says how it did,
// or returns "".
func (l *launched) goneWithin(d time.Duration) string {
	select {
	case <-l.exited:
	case <-time.After(d):
	}
	return l.gone()
}

// lookPath says whether a program can be started.
func lookPath(name string) error {
	_, err := exec.LookPath(name)
	return err
}
