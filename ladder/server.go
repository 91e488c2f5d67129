package ladder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arena-playground/arena/tournament"
)

// Server is the ladder's HTTP side: its pages, the students' and the
// staff's API and the workers'. Tokens travel in a header, never a URL:
// Authorization: Bearer TOKEN for programs (arena ladder submit and
// work), and for a browser a cookie the sign-in form sets (HttpOnly,
// SameSite=Strict, Secure over HTTPS). Every request that changes
// anything must come from this site (Origin, Sec-Fetch-Site).
type Server struct {
	Store *Store
	Width float64 // the interval (Elo) below which a version stops being scheduled first
	// Lease is how long a remote worker holds a game before it goes to
	// another (0: LeaseTime).
	Lease time.Duration
	// Wake is told when a game was queued or finished: the server's own
	// workers take the next at once. May be nil.
	Wake func()
	// Playground is the playground's files, the page arena serve serves,
	// mounted at /play/ so that a game's replay opens in it with the
	// thinking layer. nil: a replay is a download.
	Playground http.Handler
	// Runtimes are the programs a version's command may start beside its
	// own files (nil: DefaultRuntimes).
	Runtimes Runtimes

	// Grading is how the exports mark (nil Rule: DefaultGradeRule; 0
	// Max: 100), unless a request says otherwise.
	Grading GradeOptions
	// Pseudonyms: students see each other by the pseudonyms they chose
	// (or "student N"), not by name; the staff always see names.
	Pseudonyms bool
	// Top: students see the board's first Top rows and the three just
	// ahead of their own (0: the whole board); the staff see all.
	Top int

	// Proxy: an HTTPS proxy stands before the server (-proxy), and names
	// each request's client in X-Forwarded-For.
	Proxy bool
	// BodyWait bounds a small request's body (0: 10 s).
	BodyWait time.Duration

	// Name names the ladder in a course (its folder, its path); Title
	// is its name for people (default: the game's); Graded marks the
	// ladder whose final grades, against a practice one.
	Name, Title string
	Graded      bool

	// Base is where the ladder is served on its site ("" at its root; a
	// course's ladders are at /l/NAME); Home is where a browser lands
	// once signed in (Base's / when "").
	Base, Home string
	// Auth holds the course's tokens, where they are not the ladder's
	// own (several ladders, one roster): nil, the ladder's store.
	Auth *Store

	once      sync.Once
	pagesOnce sync.Once
	pages     *template.Template
	limits    *rateLimits
	failed    *rateLimits // wrong tokens, by address
}

// The request bounds.
const (
	maxForm       = MaxUpload + 64<<10 // an upload and its fields
	maxResultBody = MaxReplay*4/3 + 1<<20
)

// Handler is the server's routes.
func (s *Server) Handler() http.Handler {
	s.once.Do(func() {
		s.limits = newRateLimits(30, time.Minute)
		s.failed = newRateLimits(failedSignIns, time.Minute)
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.leaderboard)
	mux.HandleFunc("GET /students/{name}", s.studentPage)
	mux.HandleFunc("GET /submit", s.submitPage)
	mux.HandleFunc("POST /signin", s.signIn)
	mux.HandleFunc("POST /signout", s.signOut)
	mux.HandleFunc("GET /api/ladder/standings", s.standings)
	mux.HandleFunc("GET /api/ladder/students/{name}", s.studentAPI)
	mux.HandleFunc("GET /api/ladder/games", s.games)
	mux.HandleFunc("GET /api/ladder/games/{id}/replay", s.replay)
	// The same, named as a file: the playground shows a replay's name.
	mux.HandleFunc("GET /api/ladder/games/{id}/{file}", s.replay)
	mux.HandleFunc("POST /api/ladder/submit", s.submit)
	mux.HandleFunc("POST /api/ladder/lease", s.lease)
	mux.HandleFunc("POST /api/ladder/result", s.result)
	mux.HandleFunc("POST /api/ladder/freeze", s.freeze)
	mux.HandleFunc("POST /api/ladder/accommodations", s.accommodate)
	mux.HandleFunc("GET /api/ladder/final/report", s.finalReport)
	mux.HandleFunc("GET /api/ladder/final/csv", s.finalCSV)
	mux.HandleFunc("GET /staff", s.staffPage)
	mux.HandleFunc("POST /api/ladder/versions/{id}/recheck", s.recheck)
	mux.HandleFunc("POST /api/ladder/tokens", s.issueToken)
	mux.HandleFunc("GET /api/ladder/export", s.export)
	mux.HandleFunc("POST /api/ladder/pseudonym", s.pseudonym)
	mux.HandleFunc("GET /ladder.js", serveScript)
	if s.Playground != nil {
		mux.Handle("GET /play/", playgroundHeaders(http.StripPrefix("/play", s.Playground)))
	}
	return s.boundBodies(securityHeaders(mux))
}

// PlayPath is where a ladder serves its playground.
const PlayPath = "/play/"

// playgroundHeaders loosen the pages' policy for the playground, as
// little as it needs: its start-up script is inline, it compiles its
// WebAssembly ('wasm-unsafe-eval', no eval of JavaScript), runs it in
// workers of this site, and saves GIFs and files through blob: URLs.
func playgroundHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; worker-src 'self' blob:; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

// watchURL opens a game's replay in the ladder's playground at its first
// move, paused, the thinking layer on (at its last turn the layer has
// nothing to show): the replay is fetched from this site, with the
// browser's cookie, so that a student's page opens their own games only.
func watchURL(base string, id int64) string {
	return fmt.Sprintf("%s?replay=%s&thinking=1&turn=1", PlayPath, url.QueryEscape(fmt.Sprintf("%s/api/ladder/games/%d/%s", base, id, replayFile(id))))
}

// watchAtURL opens a game's replay at turn k on the analysis board: a
// student's costliest decision there.
func watchAtURL(base string, id int64, k int) string {
	return fmt.Sprintf("%s?replay=%s&analyse=1&turn=%d", PlayPath, url.QueryEscape(fmt.Sprintf("%s/api/ladder/games/%d/%s", base, id, replayFile(id))), k)
}

// home is where a browser goes once signed in or out: the course's
// page, or this ladder's.
func (s *Server) home() string {
	if s.Home != "" {
		return s.Home
	}
	return s.Base + "/"
}

// urlQuery escapes a value for an address's query.
func urlQuery(v string) string { return url.QueryEscape(v) }

// replayFile is a game's replay's name as a file.
func replayFile(id int64) string { return fmt.Sprintf("ladder-game-%d.json", id) }

// securityHeaders are sent with every answer: no framing, no sniffing,
// no referrer beyond this site (with none at all, a browser sends a
// form's Origin as "null"), scripts and styles of this site only.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "same-origin")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

// cookieName holds a browser's token.
const cookieName = "arena_ladder"

// who names the request's holder: its bearer token, or its cookie.
func (s *Server) who(r *http.Request) (Identity, error) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		c, err := r.Cookie(cookieName)
		if err != nil {
			return Identity{}, ErrNoToken
		}
		tok = c.Value
	}
	return s.token(r, strings.TrimSpace(tok))
}

// token names a token's holder; wrong tokens are counted by address,
// and past failedSignIns a minute none from there is tried.
func (s *Server) token(r *http.Request, tok string) (Identity, error) {
	addr := s.client(r)
	if s.failed.full(addr) {
		return Identity{}, errTooManyFailures
	}
	id, err := s.auth().Who(r.Context(), tok)
	if errors.Is(err, ErrNoToken) && tok != "" {
		s.failed.allow(addr)
	}
	return id, err
}

// auth is the store of the ladder's tokens.
func (s *Server) auth() *Store {
	if s.Auth != nil {
		return s.Auth
	}
	return s.Store
}

// crossSite says why a request that changes something is refused: one
// a page of another site made the browser send.
func crossSite(r *http.Request) string {
	if sfs := r.Header.Get("Sec-Fetch-Site"); sfs != "" && sfs != "same-origin" && sfs != "none" {
		return "refused: a request from another site (Sec-Fetch-Site: " + sfs + ")"
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return "refused: a page from " + o + " may not change this ladder"
	}
	return ""
}

// fail answers an error as text.
func fail(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintln(w, why)
}

// need checks a request against a role (any of roles) and, for one that
// changes something, its site; it answers the refusal itself.
func (s *Server) need(w http.ResponseWriter, r *http.Request, changes bool, roles ...string) (Identity, bool) {
	if changes {
		if why := crossSite(r); why != "" {
			fail(w, http.StatusForbidden, why)
			return Identity{}, false
		}
	}
	id, err := s.who(r)
	if err != nil {
		if errors.Is(err, ErrNoToken) || errors.Is(err, errTooManyFailures) {
			fail(w, http.StatusUnauthorized, err.Error())
		} else {
			storeFailed(w, err) // not the token's fault: a worker's result is sent again
		}
		return id, false
	}
	for _, role := range roles {
		if id.Role == role {
			return id, true
		}
	}
	fail(w, http.StatusForbidden, fmt.Sprintf("a %s's token may not do this", id.Role))
	return id, false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// standings is the leaderboard as JSON, for anyone with a token.
func (s *Server) standings(w http.ResponseWriter, r *http.Request) {
	id, ok := s.need(w, r, false, Student, Staff, Worker)
	if !ok {
		return
	}
	st, err := s.Store.Standings(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, st.For(id))
}

// readStudent is the page of the student the path names, for id, who
// may read it; where id may not, or there is no such student, it
// answers the request itself.
func (s *Server) readStudent(w http.ResponseWriter, r *http.Request, id Identity) (*StudentPage, bool) {
	name := r.PathValue("name")
	if !id.MayRead(name) {
		fail(w, http.StatusForbidden, "a student sees their own page only")
		return nil, false
	}
	p, err := s.Store.StudentPage(r.Context(), name)
	if err != nil {
		fail(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	return p, true
}

// studentAPI is a student's page as JSON: the student's own, or any for
// the staff.
func (s *Server) studentAPI(w http.ResponseWriter, r *http.Request) {
	id, ok := s.need(w, r, false, Student, Staff)
	if !ok {
		return
	}
	p, ok := s.readStudent(w, r, id)
	if !ok {
		return
	}
	p.Games = p.Games[:min(len(p.Games), MaxPageGames)]
	s.rename(r, id, p)
	writeJSON(w, p)
}

// games lists every game, its state, its worker and its result, for the
// staff: what plays where.
func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, false, Staff); !ok {
		return
	}
	gs, err := s.Store.Games(r.Context(), r.URL.Query().Get("kind"), r.URL.Query().Get("state"))
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	if gs == nil {
		gs = []Game{}
	}
	writeJSON(w, gs)
}

// replay serves a game's replay: to a student whose version played it,
// and to the staff.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	id, ok := s.need(w, r, false, Student, Staff)
	if !ok {
		return
	}
	gid, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if f := r.PathValue("file"); f != "" && f != replayFile(gid) {
		err = errors.New("no such file")
	}
	if err != nil {
		fail(w, http.StatusNotFound, "no such game")
		return
	}
	if id.Role == Student {
		if played, err := s.Store.Played(r.Context(), id.Student, gid); err != nil || !played {
			fail(w, http.StatusForbidden, "a student sees the replays of their own games")
			return
		}
	}
	var name func(string) string
	if s.Pseudonyms && id.Role != Staff {
		entries, err := s.Store.Entries(r.Context())
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		name = func(e string) string { return entries[e].Shown(true) }
	}
	data, err := s.Store.ReplayFor(r.Context(), gid, id, name)
	if errors.Is(err, ErrNoReplay) {
		fail(w, http.StatusNotFound, err.Error())
		return
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// submit takes a student's version: a multipart form with the file
// ("file") and, for a program, its command ("command").
func (s *Server) submit(w http.ResponseWriter, r *http.Request) {
	id, ok := s.need(w, r, true, Student)
	if !ok {
		return
	}
	if !s.limits.allow(id.Student) {
		fail(w, http.StatusTooManyRequests, "too many requests: a student sends at most 30 a minute")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		fail(w, http.StatusBadRequest, "want a multipart form with the file and, for a program, its command")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseMultipartForm(maxForm); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a submission is at most %s", sizeText(MaxUpload)))
			return
		}
		fail(w, http.StatusBadRequest, "the form cannot be read: "+err.Error())
		return
	}
	defer r.MultipartForm.RemoveAll()
	f, h, err := r.FormFile("file")
	if err != nil {
		fail(w, http.StatusBadRequest, "no file in the form")
		return
	}
	defer f.Close()
	data, err := readBounded(f, MaxUpload)
	if err != nil {
		fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s: a submission is at most %s", h.Filename, sizeText(MaxUpload)))
		return
	}
	// The file's name is the student's: only its ending is read (.go,
	// .zip...), and it is said back quoted, never used as a path.
	u, err := ReadUpload(baseName(h.Filename), data, r.FormValue("command"))
	if err == nil {
		err = u.CheckRuntime(s.Runtimes.orDefault())
	}
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	v, err := s.Store.Submit(r.Context(), id.Student, u)
	switch {
	case errors.Is(err, ErrTooManyVersions):
		fail(w, http.StatusTooManyRequests, err.Error())
		return
	case errors.Is(err, ErrFrozen):
		fail(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		storeFailed(w, err) // not the student's fault: they may send it again
		return
	}
	s.wake()
	if r.FormValue("page") != "" { // the page's form: to the student's page
		http.Redirect(w, r, s.Base+"/students/"+id.Student, http.StatusSeeOther)
		return
	}
	writeJSON(w, v)
}

// baseName is the last element of a name a browser or a program gave.
func baseName(n string) string {
	n = n[strings.LastIndexAny(n, `/\`)+1:]
	if len(n) > 100 {
		n = n[len(n)-100:]
	}
	return n
}

func (s *Server) wake() {
	if s.Wake != nil {
		s.Wake()
	}
}

// lease gives a worker its next game, or 204 when none is queued.
func (s *Server) lease(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, true, Worker); ok {
		leaseFrom(w, r, []*Server{s}, 0)
	}
}

// leaseFrom gives a worker the next game of ladders, asked in turn from
// the first-th: 204 when none has one.
func leaseFrom(w http.ResponseWriter, r *http.Request, ladders []*Server, first int) {
	var req struct {
		Worker string `json:"worker"`
	}
	json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req)
	worker := req.Worker
	if len(worker) > 64 || worker == "" {
		worker = "remote"
	}
	for k := range ladders {
		l := ladders[(first+k)%len(ladders)]
		if _, err := l.Store.Schedule(r.Context(), l.Width, 8); err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		d := l.Lease
		if d <= 0 {
			d = LeaseTime
		}
		lease, err := l.Store.TakeLease(r.Context(), worker, d)
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		if lease == nil {
			continue
		}
		work, err := l.Store.Work(r.Context(), lease)
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, work)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// resultRequest is a worker's outcome under its lease.
type resultRequest struct {
	Lease   string  `json:"lease"`
	Outcome Outcome `json:"outcome"`
}

// result takes a game's outcome, under its lease only.
func (s *Server) result(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, true, Worker); ok {
		resultTo(w, r, []*Server{s})
	}
}

// resultTo takes a game's outcome to the one of ladders that holds its
// lease.
func resultTo(w http.ResponseWriter, r *http.Request, ladders []*Server) {
	var req resultRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxResultBody)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "the result cannot be read: "+err.Error())
		return
	}
	err := ErrLeaseGone
	for _, l := range ladders {
		if err = l.Store.Finish(r.Context(), req.Lease, req.Outcome); !errors.Is(err, ErrLeaseGone) {
			l.wake()
			break
		}
	}
	var refused Refusal
	switch {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, ErrLeaseGone):
		fail(w, http.StatusConflict, err.Error())
	case errors.As(err, &refused):
		fail(w, http.StatusBadRequest, err.Error())
	default:
		storeFailed(w, err)
	}
}

// storeFailed answers a request the ladder's store failed, not the
// request: 503, to be sent again (a worker sends its result again while
// its lease holds).
func storeFailed(w http.ResponseWriter, err error) {
	w.Header().Set("Retry-After", "1")
	fail(w, http.StatusServiceUnavailable, "the ladder's store failed; send this again: "+err.Error())
}

// change reads a request that changes the ladder: the token of one of
// roles, then its form or JSON body, which want describes (`{"rounds":
// N}`) when it cannot be read. Where either fails it answers the request
// itself.
func (s *Server) change(w http.ResponseWriter, r *http.Request, want string, roles ...string) (Identity, map[string]any, bool) {
	id, ok := s.need(w, r, true, roles...)
	if !ok {
		return id, nil, false
	}
	body, err := readRequest(w, r)
	if err != nil {
		fail(w, http.StatusBadRequest, "want "+want+": "+err.Error())
		return id, nil, false
	}
	return id, body, true
}

// freeze ends submissions and queues the final round robin (the
// staff's): {"rounds": N}, 2 when not given.
func (s *Server) freeze(w http.ResponseWriter, r *http.Request) {
	_, body, ok := s.change(w, r, `{"rounds": N}`, Staff)
	if !ok {
		return
	}
	var err error
	rounds := 2
	if v := field(r, body, "rounds"); v != "" {
		if rounds, err = strconv.Atoi(v); err != nil {
			fail(w, http.StatusBadRequest, "want {\"rounds\": N}: "+err.Error())
			return
		}
	}
	if err := s.Store.Freeze(r.Context(), rounds); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	s.wake()
	if body == nil {
		s.backToStaff(w, r, "The ladder is frozen: submissions are closed and the final round robin is queued.")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// accommodate gives a student's versions a clock factor: {"student":
// "alice", "clock": 1.5}.
func (s *Server) accommodate(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, true, Staff); !ok {
		return
	}
	var req struct {
		Student string  `json:"student"`
		Clock   float64 `json:"clock"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "want {\"student\": NAME, \"clock\": FACTOR}: "+err.Error())
		return
	}
	if err := s.Store.Accommodate(r.Context(), req.Student, req.Clock); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// final is the final round robin's standings, for the staff.
func (s *Server) final(w http.ResponseWriter, r *http.Request) (*tournament.Standings, *FinalGames, bool) {
	if _, ok := s.need(w, r, false, Staff); !ok {
		return nil, nil, false
	}
	st, entries, err := s.Store.Final(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return nil, nil, false
	}
	if st == nil {
		fail(w, http.StatusNotFound, "no final yet: the staff freeze the ladder at the deadline (arena ladder freeze)")
		return nil, nil, false
	}
	if entries.Remaining > 0 {
		fail(w, http.StatusConflict, fmt.Sprintf("%v: %d of its %d games are still to play (%d played); ask again once they are (arena ladder final -wait waits for them)",
			ErrFinalUnplayed, entries.Remaining, entries.Remaining+len(entries.Entries)+entries.Failed, len(entries.Entries)))
		return nil, nil, false
	}
	return st, entries, true
}

func (s *Server) finalReport(w http.ResponseWriter, r *http.Request) {
	if st, entries, ok := s.final(w, r); ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b bytes.Buffer
		WriteFinalReport(&b, st, entries)
		// Its links are the ladder's: under its Base.
		w.Write(bytes.ReplaceAll(b.Bytes(), []byte(`href="/`), []byte(`href="`+s.Base+`/`)))
	}
}

func (s *Server) finalCSV(w http.ResponseWriter, r *http.Request) {
	if st, _, ok := s.final(w, r); ok {
		absent, err := s.Store.Absent(r.Context(), st)
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="ladder-final.csv"`)
		WriteFinalCSV(w, st, absent)
	}
}

// rateLimits bound each student's requests that cost the server: n in
// each window, counted in memory (the hourly bound on versions is the
// store's, and survives a restart).
type rateLimits struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	seen   map[string][]time.Time
}

func newRateLimits(n int, window time.Duration) *rateLimits {
	return &rateLimits{n: n, window: window, seen: map[string][]time.Time{}}
}

// full reports whether key has had its n in the window, counting none.
func (l *rateLimits) full(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(key, time.Now())) >= l.n
}

// recent are key's times in the window; l.mu is held.
func (l *rateLimits) recent(key string, now time.Time) []time.Time {
	kept := l.seen[key][:0]
	for _, t := range l.seen[key] {
		if now.Sub(t) < l.window {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		delete(l.seen, key) // the map holds the keys of the last window alone
		return nil
	}
	l.seen[key] = kept
	return kept
}

func (l *rateLimits) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	kept := l.recent(key, now)
	if len(kept) >= l.n {
		return false
	}
	l.seen[key] = append(kept, now)
	return true
}

// Remote is a ladder server as a worker's source (arena ladder work).
type Remote struct {
	URL    string
	Token  string
	Name   string
	Client *http.Client
}

func (rm Remote) post(ctx context.Context, path string, body any) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", strings.TrimSuffix(rm.URL, "/")+path, strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+rm.Token)
	req.Header.Set("Content-Type", "application/json")
	c := rm.Client
	if c == nil {
		c = http.DefaultClient
	}
	return c.Do(req)
}

// answerError is a refusal's text.
func answerError(res *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	return fmt.Errorf("%s: %s", res.Status, strings.TrimSpace(string(b)))
}

func (rm Remote) Next(ctx context.Context) (*Work, error) {
	res, err := rm.post(ctx, "/api/ladder/lease", map[string]string{"worker": rm.Name})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusNoContent:
		return nil, nil
	case http.StatusOK:
	default:
		return nil, answerError(res)
	}
	var w Work
	if err := json.NewDecoder(io.LimitReader(res.Body, 4*MaxUnpacked)).Decode(&w); err != nil {
		return nil, fmt.Errorf("the server's game cannot be read: %v", err)
	}
	return &w, nil
}

func (rm Remote) Send(ctx context.Context, lease string, o Outcome) error {
	res, err := rm.post(ctx, "/api/ladder/result", resultRequest{Lease: lease, Outcome: o})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusNoContent:
		return nil
	case http.StatusConflict:
		return ErrLeaseGone
	}
	if res.StatusCode/100 == 4 && res.StatusCode != http.StatusTooManyRequests {
		return Refusal(answerError(res).Error())
	}
	return answerError(res)
}
