//go:build !js

package players

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/untrusted"
)

// lobbies are the ports that network players share, by address.
var lobbies = struct {
	sync.Mutex
	m map[string]*lobby
}{m: map[string]*lobby{}}

// lobby is where the clients of a SessionProtocol game are seated: one
// listening port and the clients of the game being played, one per side
// that listens there. A lobby of a program that arena starts
// ("tcp:cmd:...") is its side's alone: for each game it listens on a new
// loopback port, starts the program for the side's role there and seats
// the one client it accepts.
type lobby struct {
	addr    string
	ln      net.Listener
	proto   SessionProtocol
	members int  // the sides that listen here
	pace    Pace // how what the clients hear is spaced
	command string
	host    play.Hosting // how the command is started

	mu      sync.Mutex
	game    int // the game whose clients are seated; -1 before the first
	conns   map[match.Side]*sessionConn
	errs    map[match.Side]error // why a side has no client for this game
	noticed int                  // the turn whose update the clients last heard
	prog    *launched            // the program started for this game
	said    *said                // what the programs started here wrote
	log     io.Writer            // hears of refused connections
	side    string               // the seat's name in the log
}

// sessionConn is one client's connection for one game.
type sessionConn struct {
	c       net.Conn
	out     *pacer
	msgs    chan []byte // its messages after the hello, closed when it leaves
	name    string
	once    sync.Once
	quit    chan struct{} // closed with the connection: stop passing messages on
	hello   time.Duration // how long its hello took, for its clock
	charged bool
	eof     chan struct{} // closed when its reader has read to the end
}

// close ends the connection once what it was sent is written; a reader
// blocked on a flooding client stops.
func (c *sessionConn) close() {
	c.once.Do(func() {
		close(c.quit)
		c.out.closeWhenSent()
	})
}

// drop ends the connection at once.
func (c *sessionConn) drop() {
	c.once.Do(func() { close(c.quit) })
	c.out.closeNow()
}

// joinLobby returns the lobby of spec's address, listening on it for the
// first side that asks, or a lobby of the side's own for a program to
// start.
func joinLobby(proto SessionProtocol, spec play.Spec, pace Pace, h play.Hosting) (*lobby, error) {
	if spec.Command != "" {
		return &lobby{proto: proto, members: 1, pace: pace, command: spec.Command, host: h, game: -1, said: newSaid(4096)}, nil
	}
	lobbies.Lock()
	defer lobbies.Unlock()
	if l, ok := lobbies.m[spec.Addr]; ok {
		l.members++
		return l, nil
	}
	ln, err := net.Listen("tcp", listenAddr(spec.Addr))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot listen: %w", spec, err)
	}
	l := &lobby{addr: spec.Addr, ln: ln, proto: proto, game: -1, members: 1, pace: pace}
	lobbies.m[spec.Addr] = l
	return l, nil
}

// leave closes the lobby once no side uses it.
func (l *lobby) leave() {
	if l.command == "" {
		lobbies.Lock()
		defer lobbies.Unlock()
		if l.members--; l.members > 0 {
			return
		}
		l.ln.Close()
		delete(lobbies.m, l.addr)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.endGame(time.Second)
}

// endGame closes the seated clients once they have heard what they were
// sent, and ends the game's program after giving it patience to exit. It
// returns only when every update has been written (or a client stopped
// reading for the pacer's write bound): the original server sent the last
// update, the one that says done, to both clients before it exited, and a
// course client that reads an empty message instead dies with a
// traceback. arena exits when the match is over, so a write still queued
// behind the pacer's quiet would be lost with the process. The caller
// holds l.mu.
func (l *lobby) endGame(patience time.Duration) {
	for _, c := range l.conns {
		c.close()
	}
	for _, c := range l.conns {
		<-c.out.done // bounded: each write has a deadline, each quiet ends
	}
	if l.prog == nil {
		return
	}
	l.prog.stop(patience)
	l.prog = nil
}

// seat returns side's client for the game s is in, gathering the game's
// clients first when it has not been done: one per side listening here,
// each saying hello; with two, the first client's role decides both, as
// on the original server. Both then hear the opening. left bounds the
// wait for a hello.
func (l *lobby) seat(ctx context.Context, s match.State, side match.Side, left time.Duration) (*sessionConn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if game := match.GameNum(s); l.game != game {
		l.endGame(time.Second)
		l.conns, l.errs, l.game = map[match.Side]*sessionConn{}, map[match.Side]error{}, game
		l.gather(ctx, s, side, left)
	}
	if err := l.errs[side]; err != nil {
		return nil, err
	}
	return l.conns[side], nil
}

// gather accepts the game's clients, reads their hellos and seats them;
// a side whose client fails has an error instead.
func (l *lobby) gather(ctx context.Context, s match.State, side match.Side, left time.Duration) {
	ln := l.ln
	if l.command != "" {
		var err error
		if ln, err = l.start(s, side); err != nil {
			l.errs[side] = err
			return
		}
		defer ln.Close() // one connection per game: a second one is refused
	}
	var got []*sessionConn
	for range l.members {
		c, err := l.accept(ctx, ln)
		if err != nil {
			for _, sd := range match.Sides {
				l.errs[sd] = err
			}
			return
		}
		got = append(got, c)
	}
	wait := maxWait
	if left > 0 {
		wait = left + grace
	}
	roles := make([]int, len(got))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i, c := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			roles[i], errs[i] = l.hello(c, wait)
		}()
	}
	wg.Wait()
	if len(got) == 1 {
		l.conns[side], l.errs[side] = got[0], errs[0]
	} else {
		// The first client's role decides; the second takes the other. A
		// client that said no hello takes the role the other leaves it.
		first := roles[0]
		if errs[0] != nil && errs[1] == nil {
			first = 1 - roles[1]
		}
		for _, sd := range match.Sides {
			i := 1
			if l.proto.RoleOf(s, sd) == first {
				i = 0
			}
			l.conns[sd], l.errs[sd] = got[i], errs[i]
		}
	}
	opening := l.proto.Opening(s)
	for i, c := range got {
		if errs[i] != nil {
			c.drop()
			continue
		}
		c.out.send(opening, l.pace.Opening)
	}
}

// start starts the game's program in its box, for side's role in the
// game s starts, and returns its seat.
func (l *lobby) start(s match.State, side match.Side) (net.Listener, error) {
	role := l.proto.RoleName(l.proto.RoleOf(s, side))
	var err error
	if l.prog, err = launch(l.command, map[string]string{"role": role}, l.said, l.host); err != nil {
		return nil, err
	}
	l.prog.log, l.prog.seat = l.log, l.side
	return l.prog.listener(), nil
}

// hello reads a client's first message within wait: its role. The wait
// is the client's, for its clock.
func (l *lobby) hello(c *sessionConn, wait time.Duration) (int, error) {
	start := time.Now()
	defer func() { c.hello = time.Since(start) }()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var hello []byte
	var ok bool
	select {
	case hello, ok = <-c.msgs:
	case <-timer.C:
		return 0, fmt.Errorf("%s said no hello within %s", l.who(), wait.Round(time.Millisecond))
	}
	if !ok {
		if l.prog != nil && l.prog.goneWithin(time.Second) != "" {
			return 0, errors.New(l.prog.why("before its hello"))
		}
		return 0, fmt.Errorf("%s left before its hello", l.who())
	}
	role, name, err := l.proto.Hello(hello)
	if err != nil {
		return 0, fmt.Errorf("%s: hello %q: %v", l.who(), untrusted.Clip(hello), err)
	}
	c.name = name
	return role, nil
}

// who names the lobby's client in messages.
func (l *lobby) who() string {
	if l.command != "" {
		return "the program"
	}
	return "the client on " + l.addr
}

// accept waits for one client, for at most maxWait.
func (l *lobby) accept(ctx context.Context, ln net.Listener) (*sessionConn, error) {
	c, err := acceptOne(ctx, ln, l.prog)
	if err != nil {
		return nil, err
	}
	sc := &sessionConn{c: c, msgs: make(chan []byte, 16), quit: make(chan struct{}), eof: make(chan struct{})}
	sc.out = newPacer(c, sc.eof)
	go sc.read(l.proto)
	return sc, nil
}

// read passes the client's messages on until it leaves.
func (c *sessionConn) read(proto SessionProtocol) {
	defer close(c.eof)
	sc := messages(c.c, proto.Frame)
	for sc.Scan() {
		c.out.heard()
		select {
		case c.msgs <- append([]byte(nil), sc.Bytes()...):
		case <-c.quit:
			close(c.msgs)
			io.Copy(io.Discard, c.c)
			return
		}
	}
	close(c.msgs)
	// Whatever the client still sends is read and dropped until the
	// connection closes: a socket closed with bytes unread sends a reset,
	// and a reset can discard the last update before the client reads it.
	io.Copy(io.Discard, c.c)
}

func writeBounded(c net.Conn, b []byte) error {
	c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err := c.Write(b)
	return err
}

// sessionBot is one side's network player under a SessionProtocol.
type sessionBot struct {
	lobby *lobby
	conn  *sessionConn
	// spent is the last move's CPU time, metered whether it was read: a
	// program arena started is charged it on a CPU clock (it is not
	// stopped between its moves: the updates of its session reach it
	// then, and it answers the host when it likes).
	spent   time.Duration
	metered bool
}

// Spent is the CPU time the last move used, on a CPU clock (play.Metered).
func (b *sessionBot) Spent() (time.Duration, bool) { return b.spent, b.metered }

// meterOf is the box of the program seated for this game, where the
// session is on a CPU clock and the box reads CPU time.
func (l *lobby) meterOf() meter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.host.CPUClock || l.prog == nil {
		return nil
	}
	if _, ok := l.prog.box.CPU(); !ok {
		return nil
	}
	return l.prog.box
}

// newSessionBot joins the lobby of spec.
func newSessionBot(proto SessionProtocol, spec play.Spec, pace Pace, h play.Hosting) (match.Bot, error) {
	l, err := joinLobby(proto, spec, pace, h)
	if err != nil {
		return nil, err
	}
	return &sessionBot{lobby: l}, nil
}

// LogTo has the connections refused at the seat of a program arena starts
// told to w.
func (b *sessionBot) LogTo(w io.Writer, side match.Side) {
	if b.lobby.command != "" {
		b.lobby.log, b.lobby.side = w, side.String()
	}
}

// SayTo shows what the programs started for this seat write to w.
func (b *sessionBot) SayTo(w io.Writer, side match.Side) {
	if b.lobby.said != nil {
		b.lobby.said.tellTo(w, side.String())
	}
}

// Listening is the address a person should point clients at, or "" when
// arena starts them itself.
func (b *sessionBot) Listening() string {
	if b.lobby.command != "" {
		return ""
	}
	return b.lobby.ln.Addr().String()
}

// Connect seats the side's client for the game s is in.
func (b *sessionBot) Connect(ctx context.Context, s match.State, side match.Side, left time.Duration) error {
	c, err := b.lobby.seat(ctx, s, side, left)
	if err != nil {
		return err
	}
	b.conn = c
	return nil
}

// Flush waits until the client has been sent everything due to it: the
// pacing is charged to no one.
func (b *sessionBot) Flush(ctx context.Context) error {
	if b.conn == nil {
		return nil
	}
	return b.conn.out.flush(ctx)
}

// Charged is the time the client took to say hello, once per game.
func (b *sessionBot) Charged() time.Duration {
	if b.conn == nil || b.conn.charged {
		return 0
	}
	b.conn.charged = true
	return b.conn.hello
}

// Act waits for the client's move, within the clock.
func (b *sessionBot) Act(t *match.Turn) (match.Action, error) {
	if s := b.lobby.said; s != nil {
		defer func() { t.Note.Said = s.take() }()
	}
	if b.conn == nil {
		return nil, errors.New("no client")
	}
	b.metered = false
	wait := maxWait
	if t.Clock > 0 {
		wait = t.Clock + grace
	}
	var poll <-chan time.Time
	m := b.lobby.meterOf()
	var cpu0 time.Duration
	if m != nil {
		cpu0, _ = m.CPU()
		defer func() {
			cpu, _ := m.CPU()
			b.spent, b.metered = cpu-cpu0, true
		}()
		if t.Clock > 0 {
			wait = play.CPUWait(t.Clock)
			tick := time.NewTicker(cpuPoll)
			defer tick.Stop()
			poll = tick.C
		}
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case msg, ok := <-b.conn.msgs:
			if !ok {
				return nil, b.lobby.left()
			}
			return b.lobby.proto.Message(msg)
		case <-poll:
			if err := overClock(m, cpu0, t.Clock, b.lobby.who()); err != nil {
				return nil, err
			}
		case <-timer.C:
			return nil, match.Late(fmt.Sprintf("%s did not answer within %s", b.lobby.who(), wait.Round(time.Millisecond)))
		case <-t.Context().Done():
			return nil, t.Context().Err()
		}
	}
}

// left says why a client's messages ended.
func (l *lobby) left() error {
	l.mu.Lock()
	prog := l.prog
	l.mu.Unlock()
	if prog != nil {
		if why := prog.goneWithin(time.Second); why != "" {
			return errors.New(why)
		}
		return errors.New("the program closed its connection")
	}
	return fmt.Errorf("the client on %s disconnected", l.addr)
}

// Watch tells the clients about every move (the lobby writes each update
// once to each of its clients); after the move that ends a game they
// leave, and the next game takes new connections.
func (b *sessionBot) Watch(s match.State) { b.lobby.notice(s) }

// notice queues the update that led to s for the seated clients, once.
func (l *lobby) notice(s match.State) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.conns) == 0 || l.noticed == s.Turn() {
		return
	}
	l.noticed = s.Turn()
	msg, ended := l.proto.Notice(s)
	seen := map[*sessionConn]bool{}
	for _, c := range l.conns {
		if seen[c] {
			continue
		}
		seen[c] = true
		if msg != nil {
			c.out.send(msg, l.pace.Gap)
		}
		if ended {
			c.close()
		}
	}
}

// Close leaves the lobby.
func (b *sessionBot) Close() error {
	b.lobby.leave()
	return nil
}

// Timed reports true: network players answer to the game's clock.
func (b *sessionBot) Timed() bool { return true }
