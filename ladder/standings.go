package ladder

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/bradleyterry"
)

// snapshot is the ladder as the scheduler and the pages read it: every
// version, the ladder's played games, and the fit over them.
type snapshot struct {
	versions []Version
	index    map[int64]int // version id: its place in versions and the fit
	games    []Game        // ladder games played (not failed)
	pending  map[int64]int // version id: its ladder games queued or leased
	met      map[[2]int]int
	fit      *bradleyterry.Fit
	count    map[int64]int  // version id: its ladder games played
	latest   map[string]int // student: the place of its latest ready version
	last     map[string]int64
	records  map[int64]*record // by version id, once tally has counted them
	played   int               // ladder games played, where games is not read (readForPlan)
}

// newSnapshot is a snapshot of versions vs, with no games yet.
func newSnapshot(vs []Version) *snapshot {
	sn := &snapshot{versions: vs, index: map[int64]int{}, pending: map[int64]int{}, met: map[[2]int]int{}, count: map[int64]int{}, latest: map[string]int{}, last: map[string]int64{}}
	for i, v := range vs {
		sn.index[v.ID] = i
		if v.State == Ready {
			sn.latest[v.Student] = i // versions are in id order: the last is the latest
		}
		sn.last[v.Student] = max(sn.last[v.Student], v.Submitted)
	}
	return sn
}

// read takes a snapshot of the store for the pages: with the games'
// results when full, with their points alone otherwise.
func (s *Store) read(ctx context.Context, full bool) (*snapshot, error) {
	vs, err := s.Versions(ctx, "")
	if err != nil {
		return nil, err
	}
	gs, err := s.games(ctx, LadderGame, "", full)
	if err != nil {
		return nil, err
	}
	sn := newSnapshot(vs)
	res := bradleyterry.Results{N: len(vs)}
	pairAt := map[[2]int]int{}
	for _, g := range gs {
		if g.State != "done" {
			sn.pending[g.Seats[0]]++
			sn.pending[g.Seats[1]]++
			continue
		}
		a, oka := sn.index[g.Seats[0]]
		b, okb := sn.index[g.Seats[1]]
		if g.Failure != "" || !oka || !okb {
			continue
		}
		sn.games = append(sn.games, g)
		sn.count[g.Seats[0]]++
		sn.count[g.Seats[1]]++
		pts := g.Points1
		if a > b {
			a, b, pts = b, a, 1-pts
		}
		key := [2]int{a, b}
		sn.met[key]++
		k, ok := pairAt[key]
		if !ok {
			k = len(res.Pairs)
			pairAt[key] = k
			res.Pairs = append(res.Pairs, bradleyterry.PairResult{I: a, J: b})
		}
		res.Pairs[k].Games++
		res.Pairs[k].PointsI += pts
	}
	sn.fit = bradleyterry.New(res)
	return sn, nil
}

// Row is a ranked student's line of the leaderboard.
type Row struct {
	Rank      int     `json:"rank"`
	Name      string  `json:"name"`
	Version   int     `json:"version"` // the student's number of it
	Rating    float64 `json:"rating"`
	Low       float64 `json:"low"` // the 95% interval
	High      float64 `json:"high"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Forfeits  int     `json:"forfeits"`
	Submitted int64   `json:"last_submission"` // Unix milliseconds
	// Rated: the version has played (an unrated one's rating is none).
	// Provisional: its interval is not yet narrower than the ladder's
	// width and it has fewer than ProvisionalGames games; it is ranked
	// after every established version. Tied: another row has its rank
	// (the same rating to the Elo point, and the same standing).
	Rated       bool `json:"rated"`
	Provisional bool `json:"provisional"`
	Tied        bool `json:"tied"`
	// Shown is the entry as the reader sees it named: the roster's name
	// (a student's or a team's), or a pseudonym; Section its people's.
	Shown   string `json:"shown"`
	Section string `json:"section,omitempty"`
	Mine    bool   `json:"mine,omitempty"` // the reader's own entry
	id      int64
}

// DefaultWidth is the interval a rating is established at, unless the
// ladder says otherwise (-width).
const DefaultWidth = 100

// ProvisionalGames are the games after which a version's rating is
// established whatever its interval: 30, as many as a student's first
// two pairs against each of seven classmates and more, enough that its
// rank says what its games did.
const ProvisionalGames = 30

func (s *Store) width() float64 {
	if s.Width > 0 {
		return s.Width
	}
	return DefaultWidth
}

// RefusedRow is a version the ladder refused, with its reason.
type RefusedRow struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Reason  string `json:"reason"`
	Cause   string `json:"cause,omitempty"`
}

// Standings is the leaderboard: each student's latest ready version,
// best first, and the versions refused.
type Standings struct {
	Game     string       `json:"game"`
	Title    string       `json:"title"` // the game's name for people
	Board    string       `json:"board"`
	Frozen   bool         `json:"frozen"`
	Played   int          `json:"games_played"`
	Ranked   []Row        `json:"ranked"`
	Refused  []RefusedRow `json:"refused"`
	Checking int          `json:"checking"`
	Queued   int          `json:"games_queued"`
	Leased   int          `json:"games_leased"` // being played
	// At is when it was made (a large ladder's may be a few seconds old).
	At time.Time `json:"at"`
	// Hidden are the rows a student's view leaves out (the staff's
	// choice: the top rows and the three ahead of theirs).
	Hidden int `json:"hidden,omitempty"`
	// Width and ProvisionalGames say when a rating is established.
	Width            float64 `json:"width"`
	ProvisionalGames int     `json:"provisional_games"`
}

// record is a version's results in the played games.
type record struct{ games, wins, draws, losses, forfeits int }

// hiddenReason stands for a refused version's reason before anyone but
// its student and the staff: a reason quotes what the program printed (a
// Python traceback quotes its source), and no student sees another's
// code.
const hiddenReason = "refused (its reason is for its student and the staff)"

// For is the leaderboard as id may see it: the refused versions'
// reasons are their students' and the staff's.
func (st *Standings) For(id Identity) *Standings {
	if id.Role == Staff {
		return st
	}
	out := *st
	out.Refused = make([]RefusedRow, len(st.Refused))
	for i, r := range st.Refused {
		switch {
		case r.Name != id.Student:
			r.Reason = hiddenReason
		case r.Cause == HostCause:
			r.Reason = HostReason
		}
		out.Refused[i] = r
	}
	return &out
}

// View is the leaderboard as id reads it: for the staff, every row by
// its roster name; for a student, as the ladder's staff chose: each row
// by its pseudonym (the one its student chose, or "student N") where
// pseudonyms is set, and only the first top rows and the three just
// ahead of their own where top > 0 (their own always). Hidden counts the
// rows left out.
func (st *Standings) View(id Identity, entries map[string]EntryInfo, pseudonyms bool, top int) *Standings {
	out := *st.For(id)
	out.Ranked = make([]Row, 0, len(st.Ranked))
	mine := -1
	for i, r := range st.Ranked {
		if r.Name == id.Student {
			mine = i
		}
	}
	for i, r := range st.Ranked {
		e := entries[r.Name]
		r.Shown, r.Section, r.Mine = e.Display, e.Section, i == mine
		if r.Shown == "" {
			r.Shown = r.Name
		}
		if id.Role != Staff {
			if pseudonyms && !r.Mine {
				r.Shown = e.Shown(true)
			}
			if top > 0 && i >= top && !(mine >= 0 && i >= mine-3 && i <= mine) {
				out.Hidden++
				continue
			}
			r.Section = ""
		}
		out.Ranked = append(out.Ranked, r)
	}
	if id.Role != Staff && pseudonyms {
		for i := range out.Refused {
			if out.Refused[i].Name != id.Student {
				out.Refused[i].Name = "a student"
			}
		}
	}
	return &out
}

// tally counts a version's results in the played games, all versions'
// counted once, on the first call, in one pass.
func (sn *snapshot) tally(id int64) (games, wins, draws, losses, forfeits int) {
	if sn.records == nil {
		sn.records = map[int64]*record{}
		for _, g := range sn.games {
			for side, v := range g.Seats {
				r := sn.records[v]
				if r == nil {
					r = &record{}
					sn.records[v] = r
				}
				r.games++
				p := g.Points1
				if side == 1 {
					p = 1 - p
				}
				switch {
				case p == 1:
					r.wins++
				case p == 0.5:
					r.draws++
				default:
					r.losses++
				}
				if g.Result != nil {
					for _, f := range g.Result.Forfeits {
						if int(f.Side) == side {
							r.forfeits++
						}
					}
				}
			}
		}
	}
	r := sn.records[id]
	if r == nil {
		return 0, 0, 0, 0, 0
	}
	return r.games, r.wins, r.draws, r.losses, r.forfeits
}

// interval is a version's rating and its 95% interval.
func (sn *snapshot) interval(i int) (elo, low, high float64) {
	elo = sn.fit.Elo(i)
	se := sn.fit.SE(i)
	return elo, elo - 1.96*se, elo + 1.96*se
}

// standingsCache keeps the last leaderboard made, and what it cost.
type standingsCache struct {
	mu      sync.Mutex // one made at a time: the others wait for it
	st      *Standings
	changes uint64 // the store's writes it was made after
	cost    time.Duration
}

// Stale bounds how old a leaderboard a reader may be shown, as a
// multiple of what making one costs: a large ladder's (300 students,
// 50,000 games: most of a second) is made again at most every ten such,
// so that pages cost at most a tenth of a core however often they are
// read, and a small ladder's (milliseconds) is always the latest.
const (
	staleCosts = 10
	maxStale   = 10 * time.Second
)

// Standings is the leaderboard: the one made after the store's last
// write, or one made at most staleCosts times its cost ago (and never
// more than maxStale); At says when.
func (s *Store) Standings(ctx context.Context) (*Standings, error) {
	c := &s.standings
	c.mu.Lock()
	defer c.mu.Unlock()
	changes := s.changes.Load()
	if c.st != nil && (c.changes == changes || time.Since(c.st.At) < min(staleCosts*c.cost, maxStale)) {
		st := *c.st
		return &st, nil
	}
	start := time.Now()
	st, err := s.makeStandings(ctx)
	if err != nil {
		return nil, err
	}
	st.At = start
	c.st, c.changes, c.cost = st, changes, time.Since(start)
	out := *st
	return &out, nil
}

// makeStandings reads the leaderboard.
//
// It reads the scheduler's results, kept in memory and warm-started, not
// every game: at a term's end, 50,000 of them.
func (s *Store) makeStandings(ctx context.Context) (*Standings, error) {
	sn, err := s.readForPlan(ctx)
	if err != nil {
		return nil, err
	}
	st := &Standings{Played: sn.played, Ranked: []Row{}, Refused: []RefusedRow{}, Width: s.width(), ProvisionalGames: ProvisionalGames}
	st.Game, _ = s.Meta("game")
	st.Title = st.Game
	if g, err := match.Lookup(st.Game); err == nil {
		st.Title = g.Info().Label()
	}
	st.Board, _ = s.Meta("board")
	frozen, _ := s.Meta("frozen")
	st.Frozen = frozen != ""
	for _, v := range sn.versions {
		switch v.State {
		case Refused:
			st.Refused = append(st.Refused, RefusedRow{Name: v.Student, Version: v.Number, Reason: v.Reason, Cause: v.Cause})
		case Checking:
			st.Checking++
		}
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'leased') FROM games`).Scan(&st.Queued, &st.Leased); err != nil {
		return nil, err
	}
	var rated []int
	for _, i := range sn.latest {
		if sn.fit.Rated(i) {
			rated = append(rated, i)
		}
	}
	ses := sn.fit.SEs(rated) // the intervals, on every core
	se := make(map[int]float64, len(rated))
	for k, i := range rated {
		se[i] = ses[k]
	}
	for student, i := range sn.latest {
		v := sn.versions[i]
		r := Row{Name: student, Version: v.Number, Submitted: sn.last[student], id: v.ID}
		r.Games, r.Wins, r.Draws, r.Losses, r.Forfeits = sn.tally(v.ID)
		if r.Rated = sn.fit.Rated(i); r.Rated {
			r.Rating = sn.fit.Elo(i)
			r.Low, r.High = r.Rating-1.96*se[i], r.Rating+1.96*se[i]
		}
		r.Provisional = !r.Rated || r.High-r.Low >= s.width() && r.Games < ProvisionalGames
		st.Ranked = append(st.Ranked, r)
	}
	rankRows(st.Ranked)
	return st, nil
}

// rankRows orders the rows, established before provisional, unrated last,
// each by rating to the Elo point, then by name; rows that stand alike
// (the same group and the same rating) share a rank, as a tie does
// (1, 1, 3).
func rankRows(rows []Row) {
	group := func(r Row) int {
		switch {
		case !r.Rated:
			return 2
		case r.Provisional:
			return 1
		}
		return 0
	}
	alike := func(x, y Row) bool { return group(x) == group(y) && math.Round(x.Rating) == math.Round(y.Rating) }
	sort.Slice(rows, func(a, b int) bool {
		x, y := rows[a], rows[b]
		if gx, gy := group(x), group(y); gx != gy {
			return gx < gy
		}
		if math.Round(x.Rating) != math.Round(y.Rating) {
			return math.Round(x.Rating) > math.Round(y.Rating)
		}
		return x.Name < y.Name
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && alike(rows[i-1], rows[i]) {
			rows[i].Rank = rows[i-1].Rank
			rows[i].Tied, rows[i-1].Tied = true, true
		}
	}
}

// VersionLine is a version as its student's page shows it.
type VersionLine struct {
	Version
	Rated    bool     `json:"rated"`
	Ranked   bool     `json:"ranked"` // the student's latest ready version
	Rating   float64  `json:"rating"`
	Low      float64  `json:"low"`
	High     float64  `json:"high"`
	Games    int      `json:"games"`
	Wins     int      `json:"wins"`
	Draws    int      `json:"draws"`
	Losses   int      `json:"losses"`
	Forfeits int      `json:"forfeits"`
	Faults   []string `json:"faults,omitempty"` // crashes, time-outs and forfeits, with their games
}

// Matchup is a student's record against another student, over every
// version of both.
type Matchup struct {
	Opponent string `json:"opponent"`
	Games    int    `json:"games"`
	Wins     int    `json:"wins"`
	Draws    int    `json:"draws"`
	Losses   int    `json:"losses"`
}

// GameLine is a game of the student's, the latest first.
type GameLine struct {
	ID       int64  `json:"id"`
	Version  int    `json:"version"`
	Seat     string `json:"seat"` // P1 or P2
	Opponent string `json:"opponent"`
	Result   string `json:"result"` // win, draw or loss
	Reason   string `json:"reason"`
	Replay   string `json:"replay"`
}

// StudentPage is what a student's page shows.
type StudentPage struct {
	Name     string        `json:"name"`
	Versions []VersionLine `json:"versions"`
	Matchups []Matchup     `json:"matchups"`
	Games    []GameLine    `json:"games"`
}

// MaxPageGames is how many of the latest games a student's page lists
// through the API (the page itself pages through them all).
const MaxPageGames = 200

// StudentPage reads a student's page.
func (s *Store) StudentPage(ctx context.Context, name string) (*StudentPage, error) {
	sn, err := s.read(ctx, true)
	if err != nil {
		return nil, err
	}
	known := false
	if names, err := s.Students(ctx); err == nil {
		for _, n := range names {
			known = known || n == name
		}
	}
	if !known {
		return nil, fmt.Errorf("no student named %q", name)
	}
	p := &StudentPage{Name: name, Versions: []VersionLine{}, Matchups: []Matchup{}, Games: []GameLine{}}
	label := func(id int64) string {
		if i, ok := sn.index[id]; ok {
			return fmt.Sprintf("%s v%d", sn.versions[i].Student, sn.versions[i].Number)
		}
		return "random"
	}
	mine := map[int64]int{} // version id: its line
	for i, v := range sn.versions {
		if v.Student != name {
			continue
		}
		l := VersionLine{Version: v.ForStudent(), Ranked: sn.latest[name] == i && v.State == Ready}
		l.Games, l.Wins, l.Draws, l.Losses, l.Forfeits = sn.tally(v.ID)
		if l.Rated = sn.fit.Rated(i); l.Rated {
			l.Rating, l.Low, l.High = sn.interval(i)
		}
		mine[v.ID] = len(p.Versions)
		p.Versions = append(p.Versions, l)
	}
	matchups := map[string]*Matchup{}
	for k := len(sn.games) - 1; k >= 0; k-- {
		g := sn.games[k]
		side := -1
		for sd, id := range g.Seats {
			if _, ok := mine[id]; ok {
				side = sd
			}
		}
		if side < 0 {
			continue
		}
		if _, err := g.result(); err != nil {
			return nil, err
		}
		me, them := g.Seats[side], g.Seats[1-side]
		line := &p.Versions[mine[me]]
		for _, f := range g.Result.Forfeits {
			if int(f.Side) == side {
				line.Faults = append(line.Faults, fmt.Sprintf("game %d, turn %d: forfeit: %s", g.ID, f.Turn, f.Reason))
			}
		}
		if g.Faults[side] != "" {
			line.Faults = append(line.Faults, fmt.Sprintf("game %d, %s", g.ID, g.Faults[side]))
		}
		opp := "random"
		if i, ok := sn.index[them]; ok {
			opp = sn.versions[i].Student
		}
		m := matchups[opp]
		if m == nil {
			m = &Matchup{Opponent: opp}
			matchups[opp] = m
		}
		m.Games++
		result := "loss"
		switch pts := g.Result.Points(match.Side(side)); {
		case pts == 1:
			result = "win"
			m.Wins++
		case pts == 0.5:
			result = "draw"
			m.Draws++
		default:
			m.Losses++
		}
		{
			p.Games = append(p.Games, GameLine{ID: g.ID, Version: sn.versions[sn.index[me]].Number, Seat: match.Side(side).String(),
				Opponent: label(them), Result: result, Reason: g.Result.Reason, Replay: fmt.Sprintf("/api/ladder/games/%d/replay", g.ID)})
		}
	}
	// Each version's check game against random, the earliest last: not
	// rated, but the game that decided whether it plays.
	checks, err := s.Games(ctx, CheckGame, "done")
	if err != nil {
		return nil, err
	}
	for k := len(checks) - 1; k >= 0; k-- {
		g := checks[k]
		line, ok := mine[g.Seats[0]]
		if !ok {
			continue
		}
		result, reason := "failed", g.Failure
		if g.Host {
			reason = HostReason
		}
		if g.Result != nil {
			result, reason = [3]string{"loss", "draw", "win"}[int(2*g.Result.Points(match.P1))], g.Result.Reason
		}
		p.Games = append(p.Games, GameLine{ID: g.ID, Version: p.Versions[line].Number, Seat: "check", Opponent: "random",
			Result: result, Reason: reason, Replay: fmt.Sprintf("/api/ladder/games/%d/replay", g.ID)})
	}
	for _, m := range matchups {
		p.Matchups = append(p.Matchups, *m)
	}
	sort.Slice(p.Matchups, func(a, b int) bool { return p.Matchups[a].Opponent < p.Matchups[b].Opponent })
	return p, nil
}

// Played reports whether a version of the student played a game.
func (s *Store) Played(ctx context.Context, student string, game int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM games g JOIN versions v ON v.id IN (g.p1, g.p2) WHERE g.id = ? AND v.student = ?`, game, student).Scan(&n)
	return n > 0, err
}
