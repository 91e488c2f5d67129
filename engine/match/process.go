//go:build !js

package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/arena-playground/arena/internal/cleanup"
)

// maxWait bounds the wait for a player's answer when the game sets no
// clock, so that a hanging program never hangs arena.
const maxWait = 60 * time.Second

// maxLine bounds one line from a program or a network player.
const maxLine = 1 << 20

// grace is the time allowed beyond the clock for the pipes and the
// process scheduler.
const grace = 250 * time.Millisecond

// linePlayer is a player at the other end of a line protocol: a program
// on its standard input and output, or a client on a TCP connection. It
// is given the clock's time for each answer (and a little more for the
// pipes); one that crashes, hangs, disconnects or answers nonsense makes
// Act fail, and the game's rules decide what that costs.
type linePlayer struct {
	proto Protocol
	what  string // "the program", "the client"
	// open connects the player (a TCP player is awaited), once, before
	// its first move: the wait is not charged to its clock.
	open  func(ctx context.Context) error
	out   io.Writer
	lines chan string
	id    int
	owed  int // answers still due to requests that timed out
	dead  error
	name  string // what the player called itself (Greeter games)
	// ended says why the lines stopped, once they have.
	ended     func() error
	quit      chan struct{} // closed by Close: stop passing lines on
	connected bool
	// tooLong is set when the player wrote a line over maxLine.
	tooLong bool
}

func newLinePlayer(proto Protocol, what string) *linePlayer {
	return &linePlayer{proto: proto, what: what, lines: make(chan string, 16), quit: make(chan struct{})}
}

// read passes r's lines to Act until r ends, then calls done.
func (p *linePlayer) read(r io.Reader, done func()) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		select {
		case p.lines <- sc.Text():
		case <-p.quit: // nobody reads any more: drain to the end
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		p.tooLong = true
	}
	io.Copy(io.Discard, r)
	close(p.lines)
	done()
}

// Act sends the request and waits for an answer to it.
func (p *linePlayer) Act(t *Turn) (Action, error) {
	if p.dead != nil {
		return nil, p.dead
	}
	if err := p.Connect(t.Context(), t.State, t.Side); err != nil {
		return nil, err
	}
	// Answers that came too late for earlier requests are not for this one.
	for drained := false; !drained; {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return nil, p.gone()
			}
			p.owed = max(0, p.owed-1)
		default:
			drained = true
		}
	}
	p.id++
	if _, err := p.out.Write(p.proto.Request(t.State, t.Side, p.id, t.Clock)); err != nil {
		return nil, p.gone()
	}
	wait := maxWait
	if t.Clock > 0 {
		wait = t.Clock + grace
	}
	line, err := p.next(t.Context(), wait)
	for err == nil {
		a, id, rerr := p.proto.Reply([]byte(line))
		if id >= 0 && id < p.id {
			line, err = p.next(t.Context(), wait) // an answer to an earlier request
			continue
		}
		if rerr != nil {
			return nil, fmt.Errorf("%s answered nonsense: %v", p.what, rerr)
		}
		return a, nil
	}
	if errors.Is(err, errLate) {
		p.owed++ // its answer, when it comes, is for this request
	}
	return nil, err
}

var errLate = errors.New("late")

// next returns the next line that answers the current request: lines
// owed to earlier, timed-out requests are read and dropped first, as the
// original servers paired each request with one line.
func (p *linePlayer) next(ctx context.Context, wait time.Duration) (string, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", p.gone()
			}
			if p.owed > 0 {
				p.owed--
				continue
			}
			return line, nil
		case <-timer.C:
			return "", fmt.Errorf("%w: %s did not answer within %s", errLate, p.what, wait.Round(time.Millisecond))
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Connect opens the player and asks its name when the protocol's host
// does (Evasion's "sendname"), before its first move.
func (p *linePlayer) Connect(ctx context.Context, _ State, _ Side) error {
	if p.dead != nil || p.connected {
		return p.dead
	}
	p.connected = true
	if p.open != nil {
		if err := p.open(ctx); err != nil {
			p.dead = err
			return err
		}
	}
	g, ok := p.proto.(Greeter)
	if !ok {
		return nil
	}
	if _, err := p.out.Write(g.Greeting()); err != nil {
		return p.gone()
	}
	line, err := p.next(ctx, maxWait)
	if err != nil {
		p.dead = fmt.Errorf("no name: %v", err)
		return p.dead
	}
	p.name = strings.TrimSpace(line)
	if len(p.name) > 64 {
		p.name = p.name[:64]
	}
	return nil
}

// Name is what the player called itself, if the protocol asks.
func (p *linePlayer) Name() string { return p.name }

// gone records that the player's lines ended and says why.
func (p *linePlayer) gone() error {
	if p.dead == nil {
		p.dead = p.ended()
	}
	return p.dead
}

// End tells the player the game is over.
func (p *linePlayer) End(s State, side Side) {
	if p.dead != nil || !p.connected {
		return
	}
	if line := p.proto.Final(s, side); line != nil {
		p.out.Write(line)
	}
}

// Timed reports true: programs and network players answer to the game's
// clock.
func (p *linePlayer) Timed() bool { return true }

// processBot is a program playing through a Protocol on its standard
// input and output, in its own process group.
type processBot struct {
	*linePlayer
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  *tailBuffer
	waited  chan struct{} // closed once the program has exited
	forget  func()        // unregisters the group from cleanup
	waitErr error
}

// newProcessBot starts the program of a "cmd:" spec.
func newProcessBot(proto Protocol, command string) (Bot, error) {
	args, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("cmd: give the program to run, as in cmd:python3 my_agent.py")
	}
	p := &processBot{linePlayer: newLinePlayer(proto, "the program"), stderr: &tailBuffer{max: 2048}, waited: make(chan struct{})}
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
	p.forget = cleanup.Add(func() { killGroup(p.cmd) }) // Ctrl-C does not reach the group
	p.out, p.ended = p.stdin, p.exited
	// One goroutine reads the answers to the end, then waits for the
	// program: Wait must not run before the reads are done.
	go p.read(out, func() {
		p.waitErr = p.cmd.Wait()
		close(p.waited)
	})
	return p, nil
}

// exited says why the program's output ended.
func (p *processBot) exited() error {
	msg := "the program ended"
	select {
	case <-p.waited:
		if p.waitErr != nil {
			msg += ": " + p.waitErr.Error()
		}
	case <-time.After(time.Second):
		msg = "the program closed its output"
	}
	if p.tooLong {
		msg = fmt.Sprintf("the program wrote a line longer than %d bytes", maxLine)
	}
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		msg += "; it wrote: " + lastLine(tail)
	}
	return errors.New(msg)
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
	p.forget()
	select {
	case <-p.waited:
	case <-time.After(2 * time.Second):
	}
	return nil
}
