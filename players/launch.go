//go:build !js

package players

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/untrusted"
)

// launched is a program that arena started to play over TCP (a
// "tcp:cmd:" spec): it was handed the address arena listens on and is
// expected to connect there, as a student's client connects to the
// course's server. It runs in a process group of its own, which ends with
// its session, or on Ctrl-C.
type launched struct {
	cmd    *exec.Cmd
	output *said // what it wrote on stdout and stderr
	exited chan struct{}
	err    error // how it exited, once exited is closed
	forget func()
	log    io.Writer // hears of the connections refused, when set
	seat   string    // the seat's name in the log
}

// refused logs a connection that was not the program's.
func (l *launched) refused(who string) {
	if l.log != nil {
		fmt.Fprintf(l.log, "%s: refused %s: only the program arena started may take this seat\n", l.seat, who)
	}
}

// launch starts command with {host}, {port} and {role} replaced by the
// values given, in each word after the command is split, so that a value
// never changes how the command splits.
// All it writes goes to out: its moves go by the socket.
func launch(command string, vars map[string]string, out *said) (*launched, error) {
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
	l := &launched{output: out, exited: make(chan struct{})}
	l.cmd = exec.Command(args[0], args[1:]...)
	l.cmd.Stdout, l.cmd.Stderr = l.output, l.output
	newGroup(l.cmd)
	if err := l.cmd.Start(); err != nil {
		killGroup(l.cmd) // what newGroup opened for it
		return nil, fmt.Errorf("cannot start %s: %v", args[0], err)
	}
	started(l.cmd)
	l.forget = cleanup.Add(func() { killGroup(l.cmd) }) // Ctrl-C does not reach the group
	go func() {
		l.err = l.cmd.Wait()
		close(l.exited)
	}()
	return l, nil
}

// stop gives the program a moment to exit by itself (it has heard that its
// session is over, and the course's clients exit then), then ends its
// whole process group, whatever the program left running.
func (l *launched) stop(patience time.Duration) {
	select {
	case <-l.exited:
	case <-time.After(patience):
	}
	killGroup(l.cmd)
	l.forget()
	select {
	case <-l.exited:
	case <-time.After(2 * time.Second): // a child that left the group holds the pipes
	}
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
	tail := strings.TrimSpace(l.output.String())
	if tail != "" {
		msg += "; it wrote: " + untrusted.Line(tail)
	}
	return msg + capNote(msg, tail, ps)
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
