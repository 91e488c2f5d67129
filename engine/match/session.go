//go:build !js

package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// lobbies are the ports that network players share, by address.
var lobbies = struct {
	sync.Mutex
	m map[string]*lobby
}{m: map[string]*lobby{}}

// lobby is one listening port and the clients of the game being played:
// one per side that listens there.
type lobby struct {
	addr    string
	ln      net.Listener
	proto   SessionProtocol
	members int // the sides that listen here

	mu      sync.Mutex
	game    int // the game whose clients are seated; -1 before the first
	conns   map[Side]*sessionConn
	err     error
	noticed int // the turn whose update the clients last heard
}

// sessionConn is one client's connection for one game.
type sessionConn struct {
	c    net.Conn
	msgs chan []byte // its messages after the hello, closed when it leaves
	name string
	once sync.Once
	quit chan struct{} // closed with the connection: stop passing messages on
}

// close ends the connection; a reader blocked on a flooding client stops.
func (c *sessionConn) close() {
	c.once.Do(func() {
		close(c.quit)
		c.c.Close()
	})
}

// joinLobby returns the lobby of addr, listening on it for the first side
// that asks.
func joinLobby(proto SessionProtocol, addr string) (*lobby, error) {
	lobbies.Lock()
	defer lobbies.Unlock()
	if l, ok := lobbies.m[addr]; ok {
		l.members++
		return l, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s%s: cannot listen: %v", TCPPrefix, addr, err)
	}
	l := &lobby{addr: addr, ln: ln, proto: proto, game: -1, members: 1}
	lobbies.m[addr] = l
	return l, nil
}

// leave closes the lobby once no side uses it.
func (l *lobby) leave() {
	lobbies.Lock()
	defer lobbies.Unlock()
	if l.members--; l.members > 0 {
		return
	}
	l.ln.Close()
	delete(lobbies.m, l.addr)
	l.mu.Lock()
	for _, c := range l.conns {
		c.close()
	}
	l.mu.Unlock()
}

// seat returns side's client for the game s is in, gathering the game's
// clients first when it has not been done: one per side listening here,
// each saying hello; with two, the first client's role decides both, as
// on the original server. Both then hear the opening.
func (l *lobby) seat(ctx context.Context, s State, side Side) (*sessionConn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	game := 0
	if ss, ok := s.(Sessioner); ok {
		game = ss.GameNum()
	}
	if l.game != game {
		for _, c := range l.conns {
			c.close()
		}
		l.conns, l.err, l.game = map[Side]*sessionConn{}, nil, game
		l.err = l.gather(ctx, s, side)
	}
	if l.err != nil {
		return nil, l.err
	}
	return l.conns[side], nil
}

// gather accepts the game's clients, reads their hellos and seats them.
func (l *lobby) gather(ctx context.Context, s State, side Side) error {
	var got []*sessionConn
	var roles []int
	for range l.members {
		c, err := l.accept(ctx)
		if err != nil {
			return err
		}
		c.c.SetReadDeadline(time.Now().Add(maxWait))
		hello, ok := <-c.msgs
		c.c.SetReadDeadline(time.Time{})
		if !ok {
			return fmt.Errorf("the client on %s left before its hello", l.addr)
		}
		role, name, err := l.proto.Hello(hello)
		if err != nil {
			c.close()
			return fmt.Errorf("the client on %s: hello %q: %v", l.addr, clipBytes(hello), err)
		}
		c.name = name
		got, roles = append(got, c), append(roles, role)
	}
	if len(got) == 1 {
		l.conns[side] = got[0]
	} else {
		// The first client's role decides; the second takes the other.
		for _, sd := range Sides {
			if l.proto.RoleOf(s, sd) == roles[0] {
				l.conns[sd] = got[0]
			} else {
				l.conns[sd] = got[1]
			}
		}
	}
	opening := l.proto.Opening(s)
	for _, c := range got {
		writeBounded(c.c, opening)
	}
	return nil
}

// accept waits for one client, for at most maxWait.
func (l *lobby) accept(ctx context.Context) (*sessionConn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := l.ln.Accept()
		ch <- result{c, err}
	}()
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, fmt.Errorf("waiting for a client on %s: %v", l.addr, r.err)
		}
		sc := &sessionConn{c: r.c, msgs: make(chan []byte, 16), quit: make(chan struct{})}
		go sc.read(l.proto)
		return sc, nil
	case <-timer.C:
		return nil, fmt.Errorf("no client connected to %s within %s", l.addr, maxWait)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// read passes the client's messages on until it leaves.
func (c *sessionConn) read(proto SessionProtocol) {
	sc := bufio.NewScanner(c.c)
	sc.Buffer(nil, maxLine)
	sc.Split(proto.Frame)
	for sc.Scan() {
		select {
		case c.msgs <- append([]byte(nil), sc.Bytes()...):
		case <-c.quit:
			close(c.msgs)
			return
		}
	}
	close(c.msgs)
	io.Copy(io.Discard, c.c)
}

func writeBounded(c net.Conn, b []byte) error {
	c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err := c.Write(b)
	return err
}

func clipBytes(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// sessionBot is one side's network player under a SessionProtocol.
type sessionBot struct {
	lobby *lobby
	conn  *sessionConn
}

// newSessionBot joins the lobby of addr.
func newSessionBot(proto SessionProtocol, addr string) (Bot, error) {
	l, err := joinLobby(proto, addr)
	if err != nil {
		return nil, err
	}
	return &sessionBot{lobby: l}, nil
}

// Connect seats the side's client for the game s is in.
func (b *sessionBot) Connect(ctx context.Context, s State, side Side) error {
	c, err := b.lobby.seat(ctx, s, side)
	if err != nil {
		return err
	}
	b.conn = c
	return nil
}

// Act waits for the client's move, within the clock.
func (b *sessionBot) Act(t *Turn) (Action, error) {
	if b.conn == nil {
		return nil, errors.New("no client")
	}
	wait := maxWait
	if t.Clock > 0 {
		wait = t.Clock + grace
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case msg, ok := <-b.conn.msgs:
		if !ok {
			return nil, fmt.Errorf("the client on %s disconnected", b.lobby.addr)
		}
		return b.lobby.proto.Message(msg)
	case <-timer.C:
		return nil, fmt.Errorf("the client did not answer within %s", wait.Round(time.Millisecond))
	case <-t.Context().Done():
		return nil, t.Context().Err()
	}
}

// Watch tells the clients about every move (the lobby writes each update
// once to each of its clients); after the move that ends a game they
// leave, and the next game takes new connections.
func (b *sessionBot) Watch(s State) { b.lobby.notice(s) }

// notice writes the update that led to s to the seated clients, once.
func (l *lobby) notice(s State) {
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
			writeBounded(c.c, msg)
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
