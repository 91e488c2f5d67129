package page

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet"
	"github.com/arena-playground/arena/tournament/progress"
)

// A gauntlet from the page: an offered program against every built-in
// bot of its game, both seats, as many pairs as the student asks, played
// here by package tournament into a directory of its own under
// -gauntlets, with the journal, plan and replays `arena tournament`
// writes. The page posts what to play and reads the standings back as
// lines of JSON, one after each game; closing the tab stops the run
// between games' moves, and the same gauntlet started again (same
// program, unchanged files, same pairs) resumes from its journal, in the
// tab that started it last. Its
// games' replays and its report are served from its directory.

// gauntletRoom runs the page's gauntlets.
type gauntletRoom struct {
	dir   string            // where each gauntlet gets a directory
	serve play.ServeOptions // how its games are played
	mu    sync.Mutex
	run   map[string]*gauntletRun // gauntlets playing now, by program
}

// gauntletRun is a gauntlet playing for a page.
type gauntletRun struct {
	stop context.CancelFunc // ends the run, for a page that takes it over
	done chan struct{}      // closed when the run has stopped
}

// take makes the gauntlet of a program (key: game/name) this request's,
// so that a program plays one gauntlet at a time: a run of it for another page
// (a tab reloaded, whose closed request the server may not have noticed
// yet, or a second tab) is stopped, and this one goes on from its
// journal once that one has stopped. It returns the run's context, ended
// with the page or by a later taker, and the release to call when done.
func (g *gauntletRoom) take(key string, page context.Context) (context.Context, func(), bool) {
	for {
		g.mu.Lock()
		old := g.run[key]
		if old == nil {
			ctx, stop := context.WithCancel(page)
			run := &gauntletRun{stop: stop, done: make(chan struct{})}
			g.run[key] = run
			g.mu.Unlock()
			return ctx, func() {
				stop()
				g.mu.Lock()
				delete(g.run, key)
				g.mu.Unlock()
				close(run.done)
			}, true
		}
		g.mu.Unlock()
		old.stop()
		select {
		case <-old.done:
		case <-page.Done():
			return nil, nil, false
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
	if !gauntlet.ValidKey(key) {
		return "", errors.New("no such gauntlet")
	}
	return filepath.Join(g.dir, key), nil
}

func (g *gauntletRoom) play(w http.ResponseWriter, r *http.Request) {
	var req gauntlet.Request
	if err := decodeBody(w, r, 4<<10, &req); err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	gt, err := gauntlet.New(req, g.serve)
	if err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	// One gauntlet a program at a time: a second, of any pairs, takes
	// its place as a reload does, and the first's journal stays to resume.
	ctx, release, ok := g.take(req.Game+"/"+req.Program, r.Context())
	if !ok {
		return // the page went while it waited
	}
	defer release()
	w.Header().Set("X-Arena-Gauntlet", gt.Key)
	out := newLineStream(w)
	defer out.close()
	prefix := "/api/gauntlets/" + gt.Key
	gt.Run(ctx, g.dir, func(e tournament.Entry) string { return prefix + "/replays/" + e.ID + ".json" },
		func(st progress.Status) {
			st.Report = prefix + "/report"
			st.Error = public(st.Error)
			out.send(st, true)
		})
	if ctx.Err() != nil && r.Context().Err() == nil {
		out.send(progress.Status{Error: "another gauntlet of this program was started (another tab, a reload, or other pairs): a program plays one at a time; this one's games are kept, and it resumes when started again"}, true)
	}
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
	playground := "http://" + r.Host + "/"
	report := &publicLines{w: w} // its reasons may quote a program's paths
	err = tournament.WriteReportWith(report, s, dir, ".", playground, "/api/gauntlets/"+key+"/replays")
	if err != nil {
		fmt.Fprintf(report, "\n<!-- the report stopped: %s -->\n", untrusted.Text(err.Error()))
	}
	report.Close()
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
