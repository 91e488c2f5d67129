//go:build !js

package match

import (
	"context"
	"fmt"
	"net"
	"time"
)

// tcpBot is a network player: arena listens on an address and the first
// client to connect plays, speaking the game's line protocol, as the
// course servers had students' programs connect (Evasion: "java -jar
// evasion.jar 9000 9001 10 10"). The listener opens when the match is
// made, so that a port in use is reported at once; the client is awaited
// before its first move, for at most maxWait.
type tcpBot struct {
	*linePlayer
	addr string
	ln   net.Listener
	conn net.Conn
}

// newTCPBot listens on addr (":9000", "localhost:9000").
func newTCPBot(proto Protocol, addr string) (Bot, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s%s: cannot listen: %v", TCPPrefix, addr, err)
	}
	p := &tcpBot{linePlayer: newLinePlayer(proto, "the client on "+ln.Addr().String()), addr: ln.Addr().String(), ln: ln}
	p.open = p.accept
	p.ended = func() error { return fmt.Errorf("the client on %s disconnected", p.addr) }
	return p, nil
}

// Addr is the address the player listens on (its port when :0 was asked).
func (p *tcpBot) Addr() string { return p.addr }

// accept waits for the one client of this player.
func (p *tcpBot) accept(ctx context.Context) error {
	type result struct {
		c   net.Conn
		err error
	}
	got := make(chan result, 1)
	go func() {
		c, err := p.ln.Accept()
		got <- result{c, err}
	}()
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	var r result
	select {
	case r = <-got:
	case <-timer.C:
		p.ln.Close()
		return fmt.Errorf("no client connected to %s within %s", p.addr, maxWait)
	case <-ctx.Done():
		p.ln.Close()
		return ctx.Err()
	}
	p.ln.Close() // one client per port, as the original
	if r.err != nil {
		return fmt.Errorf("waiting for a client on %s: %v", p.addr, r.err)
	}
	p.conn = r.c
	p.out = deadlineWriter{r.c}
	go p.read(r.c, func() {})
	return nil
}

// Close ends the connection and stops listening.
func (p *tcpBot) Close() error {
	close(p.quit)
	p.ln.Close()
	if p.conn != nil {
		p.conn.Close()
	}
	return nil
}

// deadlineWriter bounds each write, so that a client that stops reading
// cannot hold the match once the kernel's buffers are full.
type deadlineWriter struct{ c net.Conn }

func (w deadlineWriter) Write(b []byte) (int, error) {
	w.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return w.c.Write(b)
}
