//go:build !js

package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// maxWait bounds the wait for a program's answer when the game sets no
// clock, so that a hanging program never hangs arena.
const maxWait = 60 * time.Second

// processBot is a program playing through a Protocol. It is given the
// clock's time for each answer (and a little more for the pipes); a
// program that crashes, hangs or answers nonsense makes Act fail, and the
// game's rules decide what that costs (Colosseum: the random walk).
type processBot struct {
	proto   Protocol
	command string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string
	stderr  *tailBuffer
	id      int
	dead    error
	waited  chan struct{} // closed once the program has exited
	waitErr error
	quit    chan struct{} // closed by Close: stop passing lines on
}

// grace is the time allowed beyond the clock for the pipes and the
// process scheduler.
const grace = 250 * time.Millisecond

// newProcessBot starts the program of a "cmd:" spec.
func newProcessBot(proto Protocol, command string) (*processBot, error) {
	args, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("cmd: give the program to run, as in cmd:python3 my_agent.py")
	}
	p := &processBot{proto: proto, command: command, lines: make(chan string, 16), stderr: &tailBuffer{max: 2048},
		waited: make(chan struct{}), quit: make(chan struct{})}
	p.cmd = exec.Command(args[0], args[1:]...)
	p.cmd.Stderr = p.stderr
	newGroup(p.cmd)
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cmd:%s: %v", command, err)
	}
	// One goroutine reads the answers to the end, then waits for the
	// program: Wait must not run before the reads are done.
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-p.quit: // nobody reads any more: drain to the end
			}
		}
		io.Copy(io.Discard, out)
		close(p.lines)
		p.waitErr = p.cmd.Wait()
		close(p.waited)
	}()
	return p, nil
}

// Act sends the request and waits for an answer to it.
func (p *processBot) Act(t *Turn) (Action, error) {
	if p.dead != nil {
		return nil, p.dead
	}
	// Answers that came too late for earlier requests are not for this one.
	for drained := false; !drained; {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return nil, p.exited()
			}
		default:
			drained = true
		}
	}
	p.id++
	if _, err := p.stdin.Write(p.proto.Request(t.State, p.id, t.Clock)); err != nil {
		return nil, p.exited()
	}
	wait := maxWait
	if t.Clock > 0 {
		wait = t.Clock + grace
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return nil, p.exited()
			}
			a, id, err := p.proto.Reply([]byte(line))
			if id >= 0 && id < p.id {
				continue // an answer to an earlier request
			}
			if err != nil {
				return nil, fmt.Errorf("the program answered nonsense: %v", err)
			}
			return a, nil
		case <-timer.C:
			return nil, fmt.Errorf("the program did not answer within %s", wait.Round(time.Millisecond))
		case <-t.Context().Done():
			return nil, t.Context().Err()
		}
	}
}

// exited records that the program is gone and says why.
func (p *processBot) exited() error {
	if p.dead == nil {
		msg := "the program ended"
		select {
		case <-p.waited:
			if p.waitErr != nil {
				msg += ": " + p.waitErr.Error()
			}
		case <-time.After(time.Second):
			msg = "the program closed its output"
		}
		if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
			msg += "; it wrote: " + lastLine(tail)
		}
		p.dead = errors.New(msg)
	}
	return p.dead
}

// End tells the program the game is over.
func (p *processBot) End(s State, side Side) {
	if line := p.proto.Final(s, side); line != nil && p.dead == nil {
		p.stdin.Write(line)
	}
}

// Close closes the program's input and gives it a moment to exit, then
// ends its whole process group: the program if it is still there, and
// whatever it started, which may hold its output open. It waits for the
// output to close for a bounded time only: a process that left the group
// (setsid) and holds the pipe is not waited for.
func (p *processBot) Close() error {
	close(p.quit)
	p.stdin.Close()
	select {
	case <-p.waited:
	case <-time.After(time.Second):
	}
	killGroup(p.cmd)
	select {
	case <-p.waited:
	case <-time.After(2 * time.Second):
	}
	return nil
}

// Timed reports true: programs answer to the game's clock.
func (p *processBot) Timed() bool { return true }
