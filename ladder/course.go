package ladder

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Course is several ladders on one server, as a course runs them (two
// assignments, or practice and graded): one roster and one set of
// tokens (Auth, the course's store), each ladder with its game, board,
// deadline and database, at /l/NAME/. Its workers lease games from all
// of them at the course's own /api/ladder/lease.
type Course struct {
	Auth    *Store
	Ladders []*Server // each with its Name; Course sets their Base, Auth and Home
	// Lease is how long a remote worker holds a game (0: LeaseTime).
	Lease time.Duration

	next  atomic.Uint64 // the ladder a lease is asked of first, in turn
	front *Server       // the course's own pages: sign-in, the script
}

// LadderPath is where a course serves a ladder.
func LadderPath(name string) string { return "/l/" + name }

// Handler is the course's routes: its page, sign-in, the workers' API,
// and each ladder under its path.
func (c *Course) Handler() http.Handler {
	c.front = &Server{Store: c.Auth, Home: "/"}
	front := c.front.Handler()
	mux := http.NewServeMux()
	for _, l := range c.Ladders {
		l.Base, l.Auth, l.Home = LadderPath(l.Name), c.Auth, "/"
		if c.Lease > 0 {
			l.Lease = c.Lease
		}
		l.once.Do(func() { // one count of wrong tokens for the course's site
			l.limits, l.failed = newRateLimits(30, time.Minute), c.front.failed
		})
		mux.Handle(l.Base+"/", http.StripPrefix(l.Base, l.Handler()))
	}
	mux.Handle("POST /signin", front)
	mux.Handle("POST /signout", front)
	mux.Handle("GET /ladder.js", front)
	mux.HandleFunc("GET /{$}", c.page)
	mux.HandleFunc("POST /api/ladder/lease", c.lease)
	mux.HandleFunc("POST /api/ladder/result", c.result)
	return c.front.boundBodies(securityHeaders(mux))
}

// CourseLine is a ladder as the course's page lists it.
type CourseLine struct {
	Name, Title, Game, Board string
	Graded, Frozen           bool
	Deadline                 *Deadline
	Entries                  int
	Rank                     int // the reader's entry's, 0 for none
	Staff                    bool
}

// page lists the course's ladders; the sign-in form without a token.
func (c *Course) page(w http.ResponseWriter, r *http.Request) {
	id, err := c.front.who(r)
	if err != nil {
		c.front.render(w, "signin", "")
		return
	}
	var lines []CourseLine
	for _, l := range c.Ladders {
		st, err := l.Store.Standings(r.Context())
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		line := CourseLine{Name: l.Name, Title: l.Title, Game: st.Title, Board: st.Board, Graded: l.Graded, Frozen: st.Frozen, Entries: len(st.Ranked), Staff: id.Role == Staff}
		if line.Title == "" {
			line.Title = st.Title
		}
		if d, ok := l.Store.Deadline(); ok {
			line.Deadline = &d
		}
		for _, row := range st.Ranked {
			if row.Name == id.Student {
				line.Rank = row.Rank
			}
		}
		lines = append(lines, line)
	}
	c.front.render(w, "course", struct {
		V       view
		Ladders []CourseLine
		Now     int64
	}{view{Course: true, ID: id, Now: time.Now().UnixMilli()}, lines, time.Now().UnixMilli()})
}

// lease gives a worker the next game of any ladder, each asked first in
// turn; 204 when none has one.
func (c *Course) lease(w http.ResponseWriter, r *http.Request) {
	if _, ok := c.front.need(w, r, true, Worker); ok {
		leaseFrom(w, r, c.Ladders, int(c.next.Add(1)))
	}
}

// result takes a game's outcome to the ladder that holds its lease.
func (c *Course) result(w http.ResponseWriter, r *http.Request) {
	if _, ok := c.front.need(w, r, true, Worker); ok {
		resultTo(w, r, c.Ladders)
	}
}

// Sources are several ladders as one worker's source: each asked for a
// game first in turn, and a result sent to the one that holds its lease.
type Sources []Source

var sourcesTurn atomic.Uint64

func (ss Sources) Next(ctx context.Context) (*Work, error) {
	first := int(sourcesTurn.Add(1))
	for k := range ss {
		w, err := ss[(first+k)%len(ss)].Next(ctx)
		if err != nil || w != nil {
			return w, err
		}
	}
	return nil, nil
}

func (ss Sources) Send(ctx context.Context, lease string, o Outcome) error {
	for _, s := range ss {
		if err := s.Send(ctx, lease, o); !errors.Is(err, ErrLeaseGone) {
			return err
		}
	}
	return ErrLeaseGone
}

// The course's page.
var _ = template.Must(pages.New("course").Parse(`{{template "head" "Course ladders"}}<body>{{template "nav" .V}}
<h1>The course's ladders</h1>
<table class="cards"><tr><th>ladder</th><th>game</th><th>kind</th><th>deadline</th><th class="num">entries</th><th class="num">{{if .V.ID.Student}}your rank{{end}}</th></tr>
{{range .Ladders}}<tr><td data-label="ladder"><a href="{{base}}/l/{{.Name}}/">{{.Title}}</a>{{if .Staff}} · <a href="{{base}}/l/{{.Name}}/staff">staff</a>{{end}}</td><td data-label="game">{{.Game}} <span class="dim">{{.Board}}</span></td><td data-label="kind">{{if .Graded}}graded{{else}}practice{{end}}</td>
<td data-label="deadline">{{if .Frozen}}closed{{else if .Deadline}}{{when .Deadline.At.UnixMilli}}, <b data-until="{{.Deadline.Closes.UnixMilli}}">{{until .Deadline.Closes $.Now}}</b>{{else}}<span class="dim">none</span>{{end}}</td><td class="num" data-label="entries">{{.Entries}}</td><td class="num" data-label="your rank">{{if .Rank}}{{.Rank}}{{end}}</td></tr>{{end}}</table>
</body></html>`))

// validLadderName says why a ladder's name is refused: it is a part of
// its pages' addresses and a folder's name.
func validLadderName(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if strings.ContainsAny(name, "@+") {
		return errors.New("a ladder's name is letters, digits and . - _")
	}
	return nil
}
