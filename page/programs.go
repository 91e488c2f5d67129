package page

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
)

// The page computes its matches in a Web Worker, where no program can
// run. A match with a program offered by the server's command line
// (-player GAME/NAME=SPEC; in the page, "served:NAME") is computed here
// instead, by play.Serve, the loop the worker and the desktop run: the
// page posts the match's Start and reads its messages back as lines of
// JSON, and a person's moves come as Acts. The program plays as `arena
// play` plays the same spec, with its clock and its consequences; when
// the tab closes, the request ends, the match is cancelled and the
// program's process group is ended.
//
// No request names a command, a file or an option: a Start may name
// built-in bots, "you" and the programs offered, nothing else. The
// server answers only requests whose Host is the server's own address and
// whose Origin, when the browser sends one, is the page's, so that a page
// from another site, or from a name rebound to 127.0.0.1, cannot start a
// program; on an address other machines can reach, starting one also
// takes the token printed in the terminal.

// programRoom serves the offered programs to the page.
type programRoom struct {
	programs []players.Program
	serve    play.ServeOptions // how their matches are played
	token    string            // needed to start anything; "" on a loopback address
	limit    *rateLimit

	mu      sync.Mutex
	matches map[string]chan play.Act
	busy    map[string]bool // offered programs on a fixed port, playing now
	running int
}

// Bounds on what the page's requests may take.
const (
	maxStartBody   = 4 << 20 // a Start with a link's moves
	maxActBody     = 64 << 10
	maxMatchesOnce = 16 // matches with programs at once
	requestsPerSec = 200
)

func newProgramRoom(ps []players.Program, token string, o play.ServeOptions) *programRoom {
	return &programRoom{programs: ps, token: token, serve: o, limit: newRateLimit(requestsPerSec),
		matches: map[string]chan play.Act{}, busy: map[string]bool{}}
}

// routes adds the room's handlers to mux, behind the guard.
func (p *programRoom) routes(mux *http.ServeMux) {
	mux.Handle("GET /api/programs", p.guard(http.HandlerFunc(p.list), false))
	mux.Handle("POST /api/matches", p.guard(http.HandlerFunc(p.play), true))
	mux.Handle("POST /api/matches/{id}/act", p.guard(http.HandlerFunc(p.act), true))
	mux.Handle("/api/", p.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse(w, http.StatusNotFound, "no such request: the page's server answers GET /api/programs, POST /api/matches, POST /api/matches/ID/act, POST /api/gauntlets, GET /api/gauntlets/KEY/report, POST /api/bots and GET /api/bots/KEY")
	}), false))
}

// refuse answers a request with a status and the reason, as text.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintln(w, public(why))
}

// guard refuses requests that are not the page's own: too many a second,
// a Host that is not this server's address (DNS rebinding), an Origin
// that is not the page's (another site's page), and, for starting
// anything on a server other machines can reach, a missing token.
func (p *programRoom) guard(h http.Handler, starts bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.limit.allow() {
			refuse(w, http.StatusTooManyRequests, fmt.Sprintf("too many requests: the server takes %d a second", requestsPerSec))
			return
		}
		if why := foreign(r); why != "" {
			refuse(w, http.StatusForbidden, why)
			return
		}
		if starts && p.token != "" && r.Header.Get("X-Arena-Token") != p.token {
			refuse(w, http.StatusForbidden, "this server is open to other machines: starting a program takes the token it printed (open the link with ?token=…)")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// foreign says why a request is not from the page this server served, or
// "". The Host must name the server by an IP address or as localhost: a
// name that resolves here by a rebinding trick is refused. The Origin, and
// the browser's Sec-Fetch-Site, must say the page is this very site.
func foreign(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if host != "localhost" && net.ParseIP(strings.Trim(host, "[]")) == nil {
		return fmt.Sprintf("refused: the request was sent to %q, not to this server's address (open the page at localhost or an IP address)", host)
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return fmt.Sprintf("refused: a page from %s may not use this server's programs", o)
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return "refused: a request from another site (Sec-Fetch-Site: " + s + ")"
	}
	return ""
}

// programInfo is one offered program, as the page lists it.
type programInfo struct {
	Game string `json:"game"`
	Name string `json:"name"`
	Spec string `json:"spec"` // served:NAME
	Kind string `json:"kind"` // cmd, tcp or py
}

// list answers the programs offered, for the page's seat menus, and
// whether starting one takes a token.
func (p *programRoom) list(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Programs []programInfo `json:"programs"`
		Token    bool          `json:"token"`
		Command  string        `json:"command"` // the command that serves this page, for the page's help
	}{Programs: []programInfo{}, Token: p.token != "", Command: players.ServeCommand}
	for _, pr := range p.programs {
		out.Programs = append(out.Programs, programInfo{Game: pr.Game, Name: pr.Name, Spec: pr.SpecText(), Kind: pr.Spec.Name})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(out)
}

// decodeBody reads a request's JSON body into v, bounded by max bytes, as
// one value with no field v lacks.
func decodeBody(w http.ResponseWriter, r *http.Request, max int64, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, max))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("the request is larger than the %d bytes it may be", max)
		}
		return fmt.Errorf("the request is not the JSON expected: %v", err)
	}
	if dec.More() {
		return errors.New("the request has more than one JSON value")
	}
	return nil
}

// checkStart refuses a Start that names anything but built-in bots, a
// person and the programs offered for its game, and returns the offered
// programs on a fixed port that it plays, which take one match at a time.
func (p *programRoom) checkStart(st play.Start) (ports []string, err error) {
	g, err := match.Lookup(st.Game)
	if err != nil {
		return nil, err
	}

	for side, s := range st.Players {
		sp, err := play.ParseSpec(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", match.Side(side), err)
		}
		switch {
		case sp.Name == players.Served:
			pr, ok := players.LookupOffered(g.Info().Name, sp.Command)
			if !ok {
				return nil, fmt.Errorf("%s: no program named %q plays %s on this server (start it with -player %s/%s=SPEC)", match.Side(side), sp.Command, g.Info().Name, g.Info().Name, sp.Command)
			}
			if pr.Spec.Addr != "" {
				ports = append(ports, pr.Game+"/"+pr.Name)
			}
		case sp.External():
			return nil, fmt.Errorf("%s: the page's server runs only the programs named on its command line (-player), never a %s: spec a page sends", match.Side(side), sp.Name)
		case sp.Name == play.Person:
		default:
			if _, err := match.LookupBot(g, sp.Name); err != nil {
				return nil, fmt.Errorf("%s: %v", match.Side(side), err)
			}
		}
	}
	served := false
	for _, s := range st.Players {
		served = served || strings.HasPrefix(s, players.Served+":")
	}
	if !served {
		// Its place is a program's: the page computes every other match
		// in its own worker.
		return nil, errors.New("the server plays only matches with a program it offers; the page plays the others itself")
	}
	return ports, nil
}

// reserve takes a match's place among those running, and its programs on
// fixed ports, or says why it cannot.
func (p *programRoom) reserve(id string, ports []string) (acts chan play.Act, status int, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running >= maxMatchesOnce {
		return nil, http.StatusServiceUnavailable, fmt.Sprintf("the server plays %d matches with programs at once; end one first", maxMatchesOnce)
	}
	for _, k := range ports {
		if p.busy[k] {
			_, name, _ := strings.Cut(k, "/")
			return nil, http.StatusConflict, fmt.Sprintf("%s is playing in another match (another tab?): the client you start by hand has one seat; end that match first", name)
		}
	}
	for _, k := range ports {
		p.busy[k] = true
	}
	p.running++
	acts = make(chan play.Act, 1)
	p.matches[id] = acts
	return acts, 0, ""
}

func (p *programRoom) release(id string, ports []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, k := range ports {
		delete(p.busy, k)
	}
	delete(p.matches, id)
	p.running--
}

// play computes the match of the Start posted, streaming its messages as
// lines of JSON until it ends or the page goes.
func (p *programRoom) play(w http.ResponseWriter, r *http.Request) {
	var st play.Start
	if err := decodeBody(w, r, maxStartBody, &st); err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	ports, err := p.checkStart(st)
	if err != nil {
		refuse(w, http.StatusForbidden, err.Error())
		return
	}
	id := newID()
	acts, status, why := p.reserve(id, ports)
	if why != "" {
		refuse(w, status, why)
		return
	}
	defer p.release(id, ports)
	w.Header().Set("X-Arena-Match", id)
	out := newLineStream(w)
	defer out.close()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	send := func(m play.Message) {
		// A turn may wait for the next flush; what the page waits for
		// (a person's turn, the end) goes at once.
		if out.send(m, m.Kind != play.MsgTurn) != nil {
			cancel() // the page is gone
		}
	}
	play.Serve(ctx, st, acts, send, p.serve)
}

// act hands a person's move to the match waiting for it.
func (p *programRoom) act(w http.ResponseWriter, r *http.Request) {
	var a play.Act
	if err := decodeBody(w, r, maxActBody, &a); err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	p.mu.Lock()
	acts, ok := p.matches[r.PathValue("id")]
	p.mu.Unlock()
	if !ok {
		refuse(w, http.StatusNotFound, "no such match on this server (it ended, or its tab closed)")
		return
	}
	select {
	case acts <- a:
	default: // nobody is waiting for a move
	}
	w.WriteHeader(http.StatusNoContent)
}

func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newToken returns the token that starting a program takes on a server
// other machines can reach.
func newToken() string { return newID() }

// rateLimit lets through at most perSec requests in any second: a token
// bucket refilled as time passes.
type rateLimit struct {
	mu     sync.Mutex
	perSec float64
	tokens float64
	last   time.Time
	now    func() time.Time // the clock: tests hold it still
}

func newRateLimit(perSec int) *rateLimit {
	return &rateLimit{perSec: float64(perSec), tokens: float64(perSec), last: time.Now(), now: time.Now}
}

func (l *rateLimit) allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.tokens = min(l.perSec, l.tokens+now.Sub(l.last).Seconds()*l.perSec)
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
