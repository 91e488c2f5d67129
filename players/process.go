//go:build !js

package players

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/untrusted"
)

// maxWait bounds the wait for a player's answer when the game sets no
// clock, so that a hanging program never hangs arena.
const maxWait = 60 * time.Second

// maxLine bounds one line from a program or a network player.
const maxLine = 1 << 20

// grace is the time allowed beyond the clock for the pipes and the
// process scheduler.
const grace = 250 * time.Millisecond

// cpuPoll is how often a move on a CPU clock reads its program's CPU
// time while it thinks: a program past its clock is stopped within it.
const cpuPoll = 20 * time.Millisecond

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
	// said, for a program arena started, is what it wrote for people.
	said *said
	// charged is the time the player spent before its move that its
	// clock pays (its name), not yet charged.
	charged time.Duration
	// herald, when the protocol has one: the game whose role line the
	// player heard, when, and whether the pause after it is over; when the
	// last game ended (Watch), for the pause after each game.
	heardGame int
	heardAt   time.Time
	paused    bool
	lastGame  int
	gameEnded time.Time
	// meter, for a program on a CPU clock (play.Hosting.CPUClock), reads
	// its tree's CPU time and stops it between its moves; spent is the
	// last move's, metered whether it was read.
	meter   meter
	spent   time.Duration
	metered bool
}

// meter is what a CPU clock needs of a program's box.
type meter interface {
	CPU() (time.Duration, bool)
	Pause()
	Resume()
}

func newLinePlayer(proto Protocol, what string) *linePlayer {
	return &linePlayer{proto: proto, what: what, lines: make(chan string, 16), quit: make(chan struct{}), heardGame: -1}
}

// read passes r's lines to Act until r ends, then calls done.
func (p *linePlayer) read(r io.Reader, done func()) {
	sc := messages(r, bufio.ScanLines)
	for sc.Scan() {
		select {
		case p.lines <- sc.Text():
		case <-p.quit: // nobody reads any more: drain to the end
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		p.tooLong = true
	}
	// Act hears of the end now; the rest (after an overlong line, a
	// flood the player may keep sending) is read and dropped after.
	close(p.lines)
	io.Copy(io.Discard, r)
	done()
}

// Act sends the request and waits for an answer to it. On a CPU clock
// the program runs for its move only: it is continued as it is asked and
// stopped once it has answered, where the other side moves next alone,
// and its move is charged the CPU time its tree used.
func (p *linePlayer) Act(t *match.Turn) (match.Action, error) {
	if p.said != nil {
		defer func() { t.Note.Said = p.said.take() }()
	}
	p.metered = false
	if p.meter != nil && p.dead == nil {
		p.meter.Resume()
		cpu0, ok := p.meter.CPU()
		if ok {
			defer func() {
				cpu, _ := p.meter.CPU()
				p.spent, p.metered = cpu-cpu0, true
				if t.State.ToMove() == match.Only(t.Side) {
					p.meter.Pause()
				}
			}()
			return p.act(t, func(clock time.Duration) error { return overClock(p.meter, cpu0, clock, p.what) })
		}
	}
	return p.act(t, nil)
}

// overClock is a late answer once a move on a CPU clock has used more
// than its clock (and the grace) since cpu0; nil before.
func overClock(m meter, cpu0, clock time.Duration, who string) error {
	if cpu, _ := m.CPU(); clock > 0 && cpu-cpu0 > clock+grace {
		return lateError(fmt.Sprintf("%s used %s of CPU time, past its clock of %s", who, (cpu - cpu0).Round(time.Millisecond), clock.Round(time.Millisecond)))
	}
	return nil
}

// Spent is the CPU time the last move used, where its clock is a CPU
// clock (play.Metered).
func (p *linePlayer) Spent() (time.Duration, bool) { return p.spent, p.metered }

// act asks for a move and waits for it; over, on a CPU clock, says when
// the move has used more than its clock.
func (p *linePlayer) act(t *match.Turn, over func(clock time.Duration) error) (match.Action, error) {
	if p.dead != nil {
		return nil, p.dead
	}
	if err := p.Connect(t.Context(), t.State, t.Side, t.Clock); err != nil {
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
		if over != nil {
			wait = play.CPUWait(t.Clock)
		}
	}
	var check func() error
	if over != nil {
		check = func() error { return over(t.Clock) }
	}
	line, err := p.next(t.Context(), wait, check)
	for err == nil {
		a, id, rerr := p.proto.Reply([]byte(line))
		if id >= 0 && id < p.id {
			line, err = p.next(t.Context(), wait, check) // an answer to an earlier request
			continue
		}
		var rep match.Reported
		if errors.As(rerr, &rep) {
			return nil, rep
		}
		if rerr != nil {
			return nil, fmt.Errorf("%s answered nonsense: %v", p.what, rerr)
		}
		return a, nil
	}
	if errors.As(err, new(lateError)) {
		p.owed++ // its answer, when it comes, is for this request
	}
	return nil, err
}

// lateError is an answer that did not come in time: when it comes, it is
// the answer to this request, not the next.
type lateError string

func (e lateError) Error() string { return string(e) }

// Is makes a late answer match.ErrLate: the rules' matter, not a failure.
func (e lateError) Is(target error) bool { return target == match.ErrLate }

// next returns the next line that answers the current request: lines
// owed to earlier, timed-out requests are read and dropped first, as the
// original servers paired each request with one line.
//
// check, when set, is asked every cpuPoll: an error from it (a CPU clock
// run out) ends the wait as the timer would.
func (p *linePlayer) next(ctx context.Context, wait time.Duration, check func() error) (string, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var poll <-chan time.Time
	if check != nil {
		tick := time.NewTicker(cpuPoll)
		defer tick.Stop()
		poll = tick.C
	}
	for {
		select {
		case <-poll:
			if err := check(); err != nil {
				return "", err
			}
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
			return "", lateError(fmt.Sprintf("%s did not answer within %s", p.what, wait.Round(time.Millisecond)))
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Connect opens the player and asks its name when the protocol's host
// does (Evasion's "sendname"), before its first move; then, at the start
// of each game, tells it its role when the protocol's host did (Evasion's
// "hunter" and "prey").
func (p *linePlayer) Connect(ctx context.Context, s match.State, side match.Side, left time.Duration) error {
	if p.dead != nil {
		return p.dead
	}
	if !p.connected {
		p.connected = true
		if p.open != nil {
			if err := p.open(ctx); err != nil {
				p.dead = err
				return err
			}
		}
		if err := p.greet(ctx, left); err != nil {
			return err
		}
	}
	return p.announce(s, side)
}

// greet asks the player its name when the protocol's host did. The
// original waited for ever; arena waits as long as the player's clock
// allows and charges the wait to it, so a silent client cannot hold the
// match.
func (p *linePlayer) greet(ctx context.Context, left time.Duration) error {
	g, ok := p.proto.(Greeter)
	if !ok {
		return nil
	}
	start := time.Now()
	if _, err := p.out.Write(g.Greeting()); err != nil {
		return p.gone()
	}
	wait := maxWait
	if left > 0 {
		wait = left + grace
	}
	line, err := p.next(ctx, wait, nil)
	p.charged += time.Since(start)
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

// announce writes the role line of the game s starts, once per game, in a
// write of its own: after the pause the original host made after each
// game, and followed by the pause it made before the first state (see
// Flush).
func (p *linePlayer) announce(s match.State, side match.Side) error {
	h, ok := p.proto.(Herald)
	if !ok || match.GameNum(s) == p.heardGame {
		return nil
	}
	line := h.Herald(s, side)
	if line == nil {
		return nil
	}
	if !p.gameEnded.IsZero() {
		time.Sleep(time.Until(p.gameEnded.Add(h.Pause())))
	}
	if _, err := p.out.Write(line); err != nil {
		return p.gone()
	}
	p.heardGame, p.heardAt, p.paused = match.GameNum(s), time.Now(), false
	return nil
}

// Flush waits out the pause the original host made after the role lines,
// before the first state of a game. The match calls it before the clock
// starts: the pause is charged to no one.
func (p *linePlayer) Flush(ctx context.Context) error {
	h, ok := p.proto.(Herald)
	if !ok || p.paused || p.heardAt.IsZero() {
		return nil
	}
	p.paused = true
	return sleepCtx(ctx, time.Until(p.heardAt.Add(h.Pause())))
}

// Watch notes when a game ends, for the pause the original host made after
// each game.
func (p *linePlayer) Watch(s match.State) {
	if g := match.GameNum(s); g != p.lastGame || s.ToMove() == match.Nobody {
		p.lastGame, p.gameEnded = g, time.Now()
	}
}

// Charged returns the time spent on the player's name and not yet charged
// to its clock.
func (p *linePlayer) Charged() time.Duration {
	c := p.charged
	p.charged = 0
	return c
}

// sleepCtx sleeps for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
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

// End tells the player the match is over, after the pause the original
// host made after each game.
func (p *linePlayer) End(s match.State, side match.Side) {
	if p.dead != nil || !p.connected {
		return
	}
	if h, ok := p.proto.(Herald); ok && !p.gameEnded.IsZero() {
		time.Sleep(time.Until(p.gameEnded.Add(h.Pause())))
	}
	if line := p.proto.Final(s, side); line != nil {
		p.out.Write(line)
	}
}

// SayTo shows what the program writes for people to w.
func (p *linePlayer) SayTo(w io.Writer, side match.Side) {
	if p.said != nil {
		p.said.tellTo(w, side.String())
	}
}

// Timed reports true: programs and network players answer to the game's
// clock.
func (p *linePlayer) Timed() bool { return true }

// processBot is a program playing through a Protocol on its standard
// input and output, in its box.
type processBot struct {
	*linePlayer
	box     *box.Box
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  *said
	pipe    *outPipe      // its standard error's way to stderr
	waited  chan struct{} // closed once the program has exited
	forget  func()        // unregisters the box from cleanup
	waitErr error
	caps    box.Caps // its box's, told when it ends at one
}

// boxNote is capNote, where arena did not end the program at a cap
// itself (its disk, watched): then that cap.
func boxNote(b *box.Box, caps box.Caps, exit, tail string, ps *os.ProcessState) string {
	if over := b.Exceeded(); over != "" {
		return "; " + over
	}
	return capNote(caps, exit, tail, ps)
}

// programBox is the box every program of spec starts in under h: its
// caps, and, for a student's upload, the folder that alone it reads.
func programBox(spec play.Spec, h play.Hosting) box.Spec {
	return box.Spec{Caps: h.ProgramCaps(), Upload: spec.Upload}
}

// newProcessBot starts the program of a "cmd:" spec in its box under h.
func newProcessBot(proto Protocol, cmd play.Spec, h play.Hosting) (match.Bot, error) {
	command := cmd.Command
	args, err := words(cmd)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("cmd: give the program to run, as in cmd:python3 my_agent.py")
	}
	spec := programBox(cmd, h)
	spec.Args = args
	p, err := startProcess(proto, spec, "the program")
	if err != nil {
		err = fmt.Errorf("cmd:%s: %w", command, err)
		if errors.Is(err, exec.ErrNotFound) && !strings.ContainsAny(args[0], `/\`) {
			// A runtime by name (python3, java) this host does not have.
			err = &play.HostError{Err: err}
		}
		return nil, err
	}
	p.clockBy(h)
	return p, nil
}

// startProcess starts a program that plays through proto on its standard
// input and output, in the box spec says (under its caps); what names
// it in messages.
func startProcess(proto Protocol, spec box.Spec, what string) (*processBot, error) {
	return startProcessSaid(proto, spec, what, newSaid(2048))
}

// startProcessSaid is startProcess with what the program writes for people
// kept by said.
func startProcessSaid(proto Protocol, spec box.Spec, what string, said *said) (*processBot, error) {
	p := &processBot{linePlayer: newLinePlayer(proto, what), stderr: said, waited: make(chan struct{})}
	p.said = p.stderr
	p.caps = spec.Caps
	b, err := box.New(spec)
	if err != nil {
		return nil, err
	}
	p.box, p.cmd = b, b.Cmd
	if p.pipe, err = said.pipe(); err != nil {
		b.Close()
		return nil, err
	}
	p.cmd.Stderr = p.pipe.w
	out, err := p.cmd.StdoutPipe()
	if err == nil {
		p.stdin, err = p.cmd.StdinPipe()
	}
	if err == nil {
		err = b.Start()
	}
	if err != nil {
		p.pipe.failed()
		b.Close()
		return nil, err
	}
	p.pipe.started()
	p.forget = cleanup.Add(b.Kill) // Ctrl-C does not reach the box
	p.out, p.ended = p.stdin, p.exited
	// One goroutine reads the answers to the end, then waits for the
	// program: Wait must not run before the reads are done.
	go p.read(out, func() {
		p.waitErr = p.cmd.Wait()
		close(p.waited)
	})
	return p, nil
}

// clockBy puts the program on a CPU clock where h asks for one and its
// box can read its CPU time; its clock is the wall clock otherwise.
func (p *processBot) clockBy(h play.Hosting) {
	if _, ok := p.box.CPU(); h.CPUClock && ok {
		p.meter = p.box
	}
}

// exited says why the program's output ended.
func (p *processBot) exited() error {
	msg := p.what + " ended"
	select {
	case <-p.waited:
		if p.waitErr != nil {
			msg += ": " + p.waitErr.Error()
		}
	case <-time.After(time.Second):
		msg = p.what + " closed its output"
	}
	if p.tooLong {
		msg = fmt.Sprintf("%s wrote a line longer than %d bytes", p.what, maxLine)
	}
	p.stderr.drain()
	tail := strings.TrimSpace(p.stderr.String())
	if tail != "" {
		msg += "; it wrote: " + untrusted.Line(tail)
	}
	return errors.New(msg + boxNote(p.box, p.caps, msg, tail, p.cmd.ProcessState))
}

// Close closes the program's input and gives it a moment to exit, then
// ends its box: the program if it is still there, and whatever it
// started, which may hold its output open. It waits for the output to
// close for a bounded time only: a process that escaped (setsid, where
// there is no namespace) and holds the pipe is not waited for.
func (p *processBot) Close() error {
	close(p.quit)
	if p.meter != nil {
		p.meter.Resume() // stopped between its moves, it could not hear its input close
	}
	p.stdin.Close()
	select {
	case <-p.waited:
	case <-time.After(time.Second):
	}
	p.box.Kill()
	p.forget()
	p.pipe.settle(p.waited, 2*time.Second)
	p.box.Close()
	return nil
}
