package ladder

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// serveBounded serves s as arena ladder serve does, its connections
// bounded per address, and returns its address.
func serveBounded(t *testing.T, s *Server, perAddress int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer()
	go hs.Serve(LimitPerAddress(ln, perAddress))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// closedByServer waits for the server to close c (having answered it or
// not): a read that ends in EOF or a reset. The deadline guards a stall.
func closedByServer(t *testing.T, c net.Conn) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	if strings.Contains(string(b), "Set-Cookie") {
		t.Errorf("the server signed a slow client in:\n%s", b)
	}
	return true
}

// A sign-in whose body comes a byte at a time is let go once its body's
// wait is over, as its headers would be: slow clients hold no
// connection for ever.
func TestServerLetsSlowBodiesGo(t *testing.T) {
	st, _ := newLadder(t, "alice")
	addr := serveBounded(t, &Server{Store: st, Width: 100, BodyWait: 300 * time.Millisecond}, PerAddress)
	var conns []net.Conn
	for range 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST /signin HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ntoken=")
		conns = append(conns, c)
	}
	// Keep sending, a byte at a time, until the server has let each go.
	stop := make(chan struct{})
	defer close(stop)
	for _, c := range conns {
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
				if _, err := c.Write([]byte("a")); err != nil {
					return
				}
			}
		}()
	}
	for i, c := range conns {
		if !closedByServer(t, c) {
			t.Errorf("connection %d: the server kept a slow sign-in's body waiting", i)
		}
	}
}

// One address holds at most so many connections at once: one more is
// closed as it is accepted, and a place freed is taken again.
func TestServerBoundsConnectionsPerAddress(t *testing.T) {
	st, _ := newLadder(t, "alice")
	addr := serveBounded(t, &Server{Store: st, Width: 100}, 3)
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	// The server accepts in order: a request on the third shows that the
	// three were counted before the fourth.
	io.WriteString(held[2], "GET /signin HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(held[2]), nil); err != nil {
		t.Fatal(err)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if !closedByServer(t, extra) {
		t.Error("a fourth connection from one address was kept")
	}
	held[0].Close()
	// The freed place is taken again; until the server has seen the
	// close, a new connection may still be the one too many.
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "GET /signin HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err == nil {
			resp.Body.Close()
			break
		}
	}
}

// Wrong tokens are counted by address: past ten a minute, even the right
// one is refused from there, said so, until the minute has passed.
func TestServerLimitsFailedSignIns(t *testing.T) {
	st, tokens := newLadder(t, "alice")
	addr := serveBounded(t, &Server{Store: st, Width: 100}, PerAddress)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	signIn := func(tok string) int {
		resp, err := client.PostForm("http://"+addr+"/signin", url.Values{"token": {tok}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := signIn(tokens["alice"]); got != http.StatusSeeOther {
		t.Fatalf("alice's token: %d", got)
	}
	for i := range failedSignIns {
		if got := signIn(strings.Repeat("x", 32) + string(rune('a'+i))); got != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d", i, got)
		}
	}
	if got := signIn(tokens["alice"]); got != http.StatusTooManyRequests {
		t.Errorf("alice's token after %d wrong ones from her address: %d, want 429", failedSignIns, got)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/ladder/standings", nil)
	req.Header.Set("Authorization", "Bearer "+tokens["alice"])
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "too many wrong tokens") {
		t.Errorf("a bearer token from that address: %d %s", resp.StatusCode, body)
	}
}
