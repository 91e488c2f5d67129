//go:build linux

package players

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// loopback returns both ends of a connection on 127.0.0.1: the one
// arena accepted and the client's.
func loopback(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// peerUnread is the client's receive queue: what arena wrote and the
// client has not read.
func TestPeerUnreadIsTheClientsQueue(t *testing.T) {
	server, client := loopback(t)
	if n, ok := peerUnread(server); !ok || n != 0 {
		t.Fatalf("before any write: %d unread (found %v), want 0", n, ok)
	}
	msg := bytes.Repeat([]byte("x"), 3000)
	if _, err := server.Write(msg); err != nil {
		t.Fatal(err)
	}
	for n, _ := peerUnread(server); n != len(msg); n, _ = peerUnread(server) {
		time.Sleep(time.Millisecond) // until the bytes reach the client's socket
	}
	if _, err := io.ReadFull(client, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if n, ok := peerUnread(server); !ok || n != len(msg)-1000 {
		t.Fatalf("after reading 1000 bytes: %d unread (found %v), want %d", n, ok, len(msg)-1000)
	}
}

// A message's quiet starts once the client has read it: while the client
// has not read the game, the next message waits however long its quiet
// has passed, and comes once the game is read.
func TestPacerQuietStartsWhenTheClientReads(t *testing.T) {
	server, client := loopback(t)
	p := newPacer(server, nil)
	t.Cleanup(p.closeNow)
	game, update := bytes.Repeat([]byte("g"), 3000), []byte("u")
	p.send(game, time.Millisecond)
	p.send(update, 0)
	for n, _ := peerUnread(server); n < len(game); n, _ = peerUnread(server) {
		time.Sleep(time.Millisecond)
	}
	// The quiet of a millisecond has passed many times over; the update
	// is still held, as the game is unread.
	for range 20 {
		time.Sleep(5 * time.Millisecond)
		if n, _ := peerUnread(server); n != len(game) {
			t.Fatalf("%d bytes unread with the game unread, want the game's %d alone", n, len(game))
		}
	}
	got := make([]byte, len(game)+len(update))
	if _, err := io.ReadFull(client, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append(game, update...)) {
		t.Fatalf("the client read %q…, want the game then the update", got[:10])
	}
}
