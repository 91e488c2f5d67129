//go:build !js

package players

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// tcpBot is a network player: arena listens on an address and the first
// client to connect plays, speaking the game's line protocol, as the
// course servers had students' programs connect (Evasion: "java -jar
// evasion.jar 9000 9001 10 10"). The listener opens when the match is
// made, so that a port in use is reported at once; the client is awaited
// before its first move, for at most maxWait. With a program to start
// ("tcp:cmd:python3 client.py {port}"), arena listens on a free loopback
// port, starts the program with that port and awaits its connection; the
// program's process group ends with the match.
type tcpBot struct {
	*linePlayer
	addr    string
	ln      net.Listener
	conn    net.Conn
	command string       // the program to start, for tcp:cmd:
	host    play.Hosting // how it is started
	prog    *launched    // the program started
	log     io.Writer    // hears of refused connections
	seat    string
}

// LogTo has refused connections told to w.
func (p *tcpBot) LogTo(w io.Writer, side match.Side) { p.log, p.seat = w, side.String() }

// newTCPBot listens where spec says: its address, or a free loopback port
// for the program it names.
func newTCPBot(proto Protocol, spec play.Spec, h play.Hosting) (match.Bot, error) {
	if spec.Command != "" {
		// The program's seat is its box's, made as it starts.
		p := &tcpBot{linePlayer: newLinePlayer(proto, "the program"), command: spec.Command, host: h}
		p.said = newSaid(4096)
		p.open = p.accept
		p.ended = p.disconnected
		return p, nil
	}
	ln, err := net.Listen("tcp", listenAddr(spec.Addr))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot listen: %w", spec, err)
	}
	p := &tcpBot{linePlayer: newLinePlayer(proto, "the client on "+ln.Addr().String()), addr: ln.Addr().String(), ln: ln}
	p.open = p.accept
	p.ended = p.disconnected
	return p, nil
}

// listenAddr is where a seat given as HOST:PORT listens: with no host
// (tcp::9000), on this machine's loopback only, where the server says
// only this machine can reach it; another machine's client is let in
// by naming the interface, as tcp:0.0.0.0:9000.
func listenAddr(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// Addr is the address the player listens on (its port when :0 was asked).
func (p *tcpBot) Addr() string { return p.addr }

// Listening is the address a person should point a client at, or "" when
// arena starts the client itself.
func (p *tcpBot) Listening() string {
	if p.command != "" {
		return ""
	}
	return p.addr
}

// accept waits for the one client of this player, starting it first when
// arena is to.
func (p *tcpBot) accept(ctx context.Context) error {
	if p.command != "" {
		prog, err := launch(p.command, nil, p.said, p.host)
		if err != nil {
			return err
		}
		p.prog, p.ln, p.addr = prog, prog.listener(), prog.box.SeatAddr()
		prog.log, prog.seat = p.log, p.seat
	}
	defer p.ln.Close() // one client per port, as the original
	c, err := acceptOne(ctx, p.ln, p.prog)
	if err != nil {
		return err
	}
	p.conn = c
	p.out = deadlineWriter{c}
	go p.read(c, func() {})
	return nil
}

// disconnected says why the client's lines ended.
func (p *tcpBot) disconnected() error {
	if p.tooLong {
		return fmt.Errorf("%s wrote a line longer than %d bytes", p.what, maxLine)
	}
	if p.prog != nil {
		if why := p.prog.goneWithin(time.Second); why != "" {
			return fmt.Errorf("%s", why)
		}
		return fmt.Errorf("the program closed its connection")
	}
	return fmt.Errorf("the client on %s disconnected", p.addr)
}

// Close ends the connection, stops listening and ends the program.
func (p *tcpBot) Close() error {
	close(p.quit)
	if p.ln != nil {
		p.ln.Close()
	}
	if p.conn != nil {
		p.conn.Close()
	}
	if p.prog != nil {
		p.prog.stop(time.Second)
	}
	return nil
}

// acceptOne waits for one client on ln, for at most maxWait, or its
// Hosting's ConnectWait when prog is the program expected to connect, whose exit
// ends the wait at once. Where prog's seat is on the machine's own
// loopback (no network namespace), a connection from any process but
// prog and its descendants is closed at once and logged: a rival's
// program could take the seat. In a box of its own, no other process can
// reach the seat.
func acceptOne(ctx context.Context, ln net.Listener, prog *launched) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	got := make(chan result, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err == nil && prog != nil && prog.box.SeatShared() && prog.cmd.Process != nil {
				if ours, who := peerOwner(c, prog.cmd.Process.Pid); !ours {
					c.Close()
					prog.refused(who)
					continue
				}
			}
			got <- result{c, err}
			return
		}
	}()
	wait := maxWait
	var exited chan struct{}
	if prog != nil {
		wait, exited = prog.connectWait, prog.exited
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case r := <-got:
		if r.err != nil {
			return nil, fmt.Errorf("waiting for a client on %s: %v", ln.Addr(), r.err)
		}
		return r.c, nil
	case <-exited:
		select { // it may have connected, then ended
		case r := <-got:
			if r.err == nil {
				return r.c, nil
			}
		case <-time.After(100 * time.Millisecond):
		}
		ln.Close()
		return nil, errors.New(prog.why("before connecting"))
	case <-timer.C:
		ln.Close()
		if prog != nil {
			return nil, fmt.Errorf("the program did not connect within %s", wait)
		}
		return nil, fmt.Errorf("no client connected to %s within %s", ln.Addr(), maxWait)
	case <-ctx.Done():
		ln.Close()
		return nil, ctx.Err()
	}
}

// deadlineWriter bounds each write, so that a client that stops reading
// cannot hold the match once the kernel's buffers are full.
type deadlineWriter struct{ c net.Conn }

func (w deadlineWriter) Write(b []byte) (int, error) {
	w.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return w.c.Write(b)
}
