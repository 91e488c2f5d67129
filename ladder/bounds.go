package ladder

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The ladder's server is reached by every student of a class, and by
// whoever else finds it: each part of a request is bounded in time, as
// arena serve bounds its own, so that a slow client (a body sent a byte
// every few seconds) holds a connection for seconds, not for ever; the
// connections one address holds at once are bounded; and a token is
// guessed at a bounded rate.
const (
	headerWait = 10 * time.Second // a request's headers
	// bodyWait is the wait for a small request's body (a sign-in, a
	// lease, a freeze); a submission's or a result's may take uploadWait.
	bodyWait   = 10 * time.Second
	uploadWait = 2 * time.Minute // 16 MB at about 1 Mbit/s
	idleWait   = 2 * time.Minute
	writeWait  = 5 * time.Minute // a replay or a report to a slow link

	// PerAddress is how many connections one address may hold at once:
	// a class behind one NAT opens a page or two each.
	PerAddress = 64
	// failedSignIns a minute from one address, past which sign-ins from
	// it are refused until the minute has passed.
	failedSignIns = 10
)

// HTTPServer serves the ladder's handler with every wait bounded.
func (s *Server) HTTPServer() *http.Server { return s.HTTPServerFor(s.Handler()) }

// HTTPServerFor is HTTPServer for a handler of the server's: a course's.
func (s *Server) HTTPServerFor(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: headerWait, ReadTimeout: uploadWait,
		WriteTimeout: writeWait, IdleTimeout: idleWait, MaxHeaderBytes: 64 << 10}
}

// boundBodies gives a request that carries no upload bodyWait (or the
// server's BodyWait) to send its body, from when its headers arrived.
func (s *Server) boundBodies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !(r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, "/api/ladder/submit") || r.URL.Path == "/api/ladder/result")) {
			wait := bodyWait
			if s.BodyWait > 0 {
				wait = s.BodyWait
			}
			http.NewResponseController(w).SetReadDeadline(time.Now().Add(wait))
		}
		h.ServeHTTP(w, r)
	})
}

// errTooManyFailures refuses a token from an address that has sent too
// many wrong ones.
var errTooManyFailures = errors.New("too many wrong tokens from this address: try again in a minute")

// client is the address a request came from: behind the HTTPS proxy
// (-proxy), the one the proxy names last in X-Forwarded-For.
func (s *Server) client(r *http.Request) string {
	if s.Proxy {
		if f := r.Header.Get("X-Forwarded-For"); f != "" {
			return strings.TrimSpace(f[strings.LastIndex(f, ",")+1:])
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// LimitPerAddress bounds the connections each address holds at once on
// ln: one more is closed as it is accepted. Behind a proxy every
// connection is the proxy's, and the proxy bounds its clients.
func LimitPerAddress(ln net.Listener, n int) net.Listener {
	return &perAddress{Listener: ln, n: n, open: map[string]int{}}
}

type perAddress struct {
	net.Listener
	n    int
	mu   sync.Mutex
	open map[string]int
}

func (l *perAddress) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		l.mu.Lock()
		if l.open[host] >= l.n {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.open[host]--; l.open[host] <= 0 {
				delete(l.open, host)
			}
		}}, nil
	}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
