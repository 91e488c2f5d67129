//go:build !js

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/progress"
)

// A gauntlet from the page: an offered program against every built-in
// bot of its game, both seats, as many pairs as the student asks, played
// here by package tournament into a directory of its own under
// -gauntlets, with the journal, plan and replays `arena tournament`
// writes. The page posts what to play and reads the standings back as
// lines of JSON, one after each game; closing the tab stops the run
// between games' moves, and the same gauntlet started again (same
// program, unchanged files, same pairs) resumes from its journal. Its
// games' replays and its report are served from its directory.

// The most pairs a gauntlet from the page may ask: the command line
// takes more.
const maxGauntletPairs = 500

// defaultGauntletDir is where gauntlets go unless -gauntlets says: the
// user's cache, which survives the server and a reboot.
func defaultGauntletDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "arena", "gauntlets")
	}
	return filepath.Join(os.TempDir(), "arena-gauntlets")
}

// gauntletRequest is what the page posts.
type gauntletRequest struct {
	Game    string `json:"game"`
	Program string `json:"program"` // an offered program's name
	Pairs   int    `json:"pairs"`   // per built-in bot
}

// gauntletKey names a gauntlet's directory: the game, the program's name
// and a fingerprint of its spec, its files' contents and the pairs.
func gauntletKey(p players.Program, pairs int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", p.Spec, pairs)
	for _, w := range p.Words() {
		if st, err := os.Stat(w); err == nil && st.Mode().IsRegular() {
			if f, err := os.Open(w); err == nil {
				fmt.Fprintf(h, "%s\x00", w)
				io.Copy(h, io.LimitReader(f, 256<<20))
				f.Close()
			}
		}
	}
	return fmt.Sprintf("%s-%s-%d-%s", p.Game, p.Name, pairs, hex.EncodeToString(h.Sum(nil))[:12])
}

// gauntletRoom runs the page's gauntlets.
type gauntletRoom struct {
	dir string // where each gauntlet gets a directory
	mu  sync.Mutex
	run map[string]*gauntletRun // gauntlets playing now, by key
}

// gauntletRun is a gauntlet playing for a page.
type gauntletRun struct {
	page context.Context // the request: done once the tab closed
	done chan struct{}   // closed when the run has stopped
}

// take makes key's gauntlet this request's, once a run of it for a tab
// that closed has stopped (a reload starts it again at once); a run for
// an open tab keeps it.
func (g *gauntletRoom) take(key string, page context.Context) (release func(), ok bool) {
	for {
		g.mu.Lock()
		old := g.run[key]
		if old == nil {
			run := &gauntletRun{page: page, done: make(chan struct{})}
			g.run[key] = run
			g.mu.Unlock()
			return func() {
				g.mu.Lock()
				delete(g.run, key)
				g.mu.Unlock()
				close(run.done)
			}, true
		}
		g.mu.Unlock()
		if old.page.Err() == nil {
			return nil, false
		}
		select {
		case <-old.done:
		case <-page.Done():
			return nil, false
		}
	}
}

func (g *gauntletRoom) routes(mux *http.ServeMux, p *programRoom) {
	mux.Handle("POST /api/gauntlets", p.guard(http.HandlerFunc(g.play), true))
	mux.Handle("GET /api/gauntlets/{key}/report", p.guard(http.HandlerFunc(g.report), false))
	mux.Handle("GET /api/gauntlets/{key}/replays/{name}", p.guard(http.HandlerFunc(g.replay), false))
}

// keyDir is the directory of a gauntlet named in a request, or why not.
func (g *gauntletRoom) keyDir(key string) (string, error) {
	if !validKey(key) {
		return "", errors.New("no such gauntlet")
	}
	return filepath.Join(g.dir, key), nil
}

// validKey reports whether key is one gauntletKey makes: a request cannot
// name a path.
func validKey(key string) bool {
	if len(key) == 0 || len(key) > 128 || key[0] == '.' {
		return false
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func (g *gauntletRoom) play(w http.ResponseWriter, r *http.Request) {
	var req gauntletRequest
	if err := decodeBody(w, r, 4<<10, &req); err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	prog, ok := players.LookupOffered(req.Game, req.Program)
	if !ok {
		refuse(w, http.StatusForbidden, fmt.Sprintf("no program named %q plays %q on this server (start it with -player GAME/NAME=SPEC)", req.Program, req.Game))
		return
	}
	if req.Pairs < 1 || req.Pairs > maxGauntletPairs {
		refuse(w, http.StatusBadRequest, fmt.Sprintf("%d pairs: a gauntlet from the page plays 1 to %d pairs against each bot (arena tournament plays more)", req.Pairs, maxGauntletPairs))
		return
	}
	plan, err := tournament.BotGauntlet(prog.Game, tournament.Entrant{Name: prog.Name, Spec: prog.SpecText()}, req.Pairs, 1)
	if err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	plan.Caps = players.ProgramCaps.String()
	key := gauntletKey(prog, req.Pairs)
	release, ok := g.take(key, r.Context())
	if !ok {
		refuse(w, http.StatusConflict, "this gauntlet is playing in another tab: watch it there, or close that tab and start it here")
		return
	}
	defer release()
	dir := filepath.Join(g.dir, key)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Arena-Gauntlet", key)
	w.WriteHeader(http.StatusOK)
	send := func(st progress.Status) {
		st.Report = "api/gauntlets/" + key + "/report"
		data, _ := json.Marshal(st)
		rc.SetWriteDeadline(time.Now().Add(time.Minute))
		w.Write(append(data, '\n'))
		rc.Flush()
	}
	replay := func(e tournament.Entry) string { return "/api/gauntlets/" + key + "/replays/" + e.ID + ".json" }
	// The games an earlier run recorded, for the list and the count.
	var games []tournament.Entry
	standings := tournament.NewStandings(plan)
	if _, err := os.Stat(filepath.Join(dir, tournament.JournalFile)); err == nil {
		err := tournament.Entries(dir, func(e tournament.Entry) error {
			games = append(games, e)
			return standings.Add(e)
		})
		if err != nil {
			send(progress.Status{Title: standings.Title(), Error: untrusted.Text(err.Error())})
			return
		}
	}
	resumed := len(games)
	st := standings.Progress(games, replay)
	st.Resumed = resumed
	send(st)
	final, err := tournament.Run(r.Context(), plan, tournament.Options{Dir: dir, Jobs: max(1, runtime.NumCPU()/2), Log: match.ServeLog,
		Progress: func(e tournament.Entry, s *tournament.Standings, left int) {
			games = append(games, e)
			st := s.Progress(games, replay)
			st.Resumed = resumed
			send(st)
		}})
	if r.Context().Err() != nil {
		return // the tab closed: the journal keeps what was played
	}
	if final == nil {
		final = standings
	}
	st = final.Progress(games, replay)
	st.Resumed = resumed
	if err != nil {
		st.Error, st.Done = untrusted.Text(err.Error()), false
	}
	send(st)
}

// report serves a gauntlet's report, as arena tournament writes it, with
// links that open each game in this server's page.
func (g *gauntletRoom) report(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	dir, err := g.keyDir(key)
	if err != nil {
		refuse(w, http.StatusNotFound, err.Error())
		return
	}
	s, err := tournament.Load(dir)
	if err != nil {
		refuse(w, http.StatusNotFound, "no report: "+untrusted.Text(err.Error()))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="gauntlet-`+key+`.html"`)
	w.Header().Set("Cache-Control", "no-store")
	playground := "http://" + r.Host + "/api/gauntlets/" + key + "/"
	if err := tournament.WriteReport(w, s, dir, dir, playground); err != nil {
		fmt.Fprintf(w, "\n<!-- the report stopped: %s -->\n", untrusted.Text(err.Error()))
	}
}

// replay serves one of a gauntlet's replays: a regular file of its
// directory that its journal names, at most 64 MB.
func (g *gauntletRoom) replay(w http.ResponseWriter, r *http.Request) {
	dir, err := g.keyDir(r.PathValue("key"))
	if err != nil {
		refuse(w, http.StatusNotFound, err.Error())
		return
	}
	name := r.PathValue("name")
	var rel string
	err = tournament.Entries(dir, func(e tournament.Entry) error {
		if e.ID+".json" == name {
			rel = e.Replay
		}
		return nil
	})
	if err != nil || rel == "" {
		refuse(w, http.StatusNotFound, "no such replay in the gauntlet")
		return
	}
	d, err := safefile.OpenDir(dir, false)
	if err != nil {
		refuse(w, http.StatusNotFound, untrusted.Text(err.Error()))
		return
	}
	defer d.Close()
	data, err := d.ReadFile(rel)
	if err != nil {
		refuse(w, http.StatusNotFound, untrusted.Text(err.Error()))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}
