package ladder

import (
	"context"
	"math"
	"sort"

	"github.com/arena-playground/arena/engine/match"
)

// snapshot is the ladder as the scheduler and the pages read it: every
// version, the ladder's played games, and the fit over them.
type snapshot struct {
	versions []Version
	index    map[int64]int // version id: its place in versions and the fit
	games    []Game        // ladder games played (not failed)
	pending  map[int64]int // version id: its ladder games queued or leased
	met      map[[2]int]int
	fit      *Fit
	latest   map[string]int // student: the place of its latest ready version
	last     map[string]int64
}

// read takes a snapshot of the store.
func (s *Store) read(ctx context.Context) (*snapshot, error) {
	vs, err := s.Versions(ctx, "")
	if err != nil {
		return nil, err
	}
	gs, err := s.Games(ctx, LadderGame, "")
	if err != nil {
		return nil, err
	}
	sn := &snapshot{versions: vs, index: map[int64]int{}, pending: map[int64]int{}, met: map[[2]int]int{}, latest: map[string]int{}, last: map[string]int64{}}
	for i, v := range vs {
		sn.index[v.ID] = i
		if v.State == Ready {
			sn.latest[v.Student] = i // versions are in id order: the last is the latest
		}
		sn.last[v.Student] = max(sn.last[v.Student], v.Submitted)
	}
	res := Results{N: len(vs)}
	pairAt := map[[2]int]int{}
	for _, g := range gs {
		if g.State != "done" {
			sn.pending[g.Seats[0]]++
			sn.pending[g.Seats[1]]++
			continue
		}
		a, oka := sn.index[g.Seats[0]]
		b, okb := sn.index[g.Seats[1]]
		if g.Failure != "" || !oka || !okb || g.Result == nil {
			continue
		}
		sn.games = append(sn.games, g)
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
			res.Pairs = append(res.Pairs, PairResult{I: a, J: b})
		}
		res.Pairs[k].Games++
		res.Pairs[k].PointsI += pts
	}
	sn.fit = FitResults(res)
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
	id        int64
}

// RefusedRow is a version the ladder refused, with its reason.
type RefusedRow struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

// Standings is the leaderboard: each student's latest ready version,
// best first, and the versions refused.
type Standings struct {
	Game     string       `json:"game"`
	Board    string       `json:"board"`
	Frozen   bool         `json:"frozen"`
	Played   int          `json:"games_played"`
	Ranked   []Row        `json:"ranked"`
	Refused  []RefusedRow `json:"refused"`
	Checking int          `json:"checking"`
}

// tally counts a version's results in the played games.
func (sn *snapshot) tally(id int64) (games, wins, draws, losses, forfeits int) {
	for _, g := range sn.games {
		side := match.P1
		switch id {
		case g.Seats[0]:
		case g.Seats[1]:
			side = match.P2
		default:
			continue
		}
		games++
		switch p := g.Result.Points(side); {
		case p == 1:
			wins++
		case p == 0.5:
			draws++
		default:
			losses++
		}
		for _, f := range g.Result.Forfeits {
			if f.Side == side {
				forfeits++
			}
		}
	}
	return
}

// interval is a version's rating and its 95% interval.
func (sn *snapshot) interval(i int) (elo, low, high float64) {
	elo = sn.fit.Elo(i)
	se := sn.fit.SE(i)
	return elo, elo - 1.96*se, elo + 1.96*se
}

// Standings reads the leaderboard.
func (s *Store) Standings(ctx context.Context) (*Standings, error) {
	sn, err := s.read(ctx)
	if err != nil {
		return nil, err
	}
	st := &Standings{Played: len(sn.games), Ranked: []Row{}, Refused: []RefusedRow{}}
	st.Game, _ = s.Meta("game")
	st.Board, _ = s.Meta("board")
	frozen, _ := s.Meta("frozen")
	st.Frozen = frozen != ""
	for _, v := range sn.versions {
		switch v.State {
		case Refused:
			st.Refused = append(st.Refused, RefusedRow{Name: v.Student, Version: v.Number, Reason: v.Reason})
		case Checking:
			st.Checking++
		}
	}
	for student, i := range sn.latest {
		v := sn.versions[i]
		r := Row{Name: student, Version: v.Number, Submitted: sn.last[student], id: v.ID}
		r.Rating, r.Low, r.High = sn.interval(i)
		r.Games, r.Wins, r.Draws, r.Losses, r.Forfeits = sn.tally(v.ID)
		st.Ranked = append(st.Ranked, r)
	}
	sort.Slice(st.Ranked, func(a, b int) bool {
		x, y := st.Ranked[a], st.Ranked[b]
		if math.Round(x.Rating) != math.Round(y.Rating) {
			return math.Round(x.Rating) > math.Round(y.Rating)
		}
		return x.Name < y.Name
	})
	for i := range st.Ranked {
		st.Ranked[i].Rank = i + 1
	}
	return st, nil
}
