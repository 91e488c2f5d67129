package ladder

import (
	"context"
	"sync"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/bradleyterry"
)

// played is the ladder games' results as the scheduler reads them, kept
// in memory: read from the database once, then added to by Finish as
// each game is recorded, so that planning costs the versions and the
// games in flight, not a read of every game ever played (50,000 of them
// by the end of a term). It holds the last fit's strengths too, the next
// fit's warm start.
type played struct {
	mu      sync.Mutex
	loaded  bool
	pairs   []*pairTally            // in the order they first met
	at      map[[2]int64]*pairTally // lower version id first
	theta   map[int64]float64       // by version id, the last fit's
	records map[int64]*record       // by version id: its W-D-L and forfeits, for the leaderboard
	games   int
}

// pairTally is two versions' ladder games and the lower id's points.
type pairTally struct {
	lo, hi int64
	games  int
	points float64
}

// add counts a game between versions a and b, a's points p, and each
// side's forfeits.
func (pl *played) add(a, b int64, p float64, forfeits [2]int) {
	pl.games++
	for side, v := range [2]int64{a, b} {
		r := pl.records[v]
		if r == nil {
			r = &record{}
			pl.records[v] = r
		}
		r.games++
		pts := p
		if side == 1 {
			pts = 1 - p
		}
		switch pts {
		case 1:
			r.wins++
		case 0.5:
			r.draws++
		default:
			r.losses++
		}
		r.forfeits += forfeits[side]
	}
	if a > b {
		a, b, p = b, a, 1-p
	}
	t := pl.at[[2]int64{a, b}]
	if t == nil {
		t = &pairTally{lo: a, hi: b}
		pl.at[[2]int64{a, b}] = t
		pl.pairs = append(pl.pairs, t)
	}
	t.games++
	t.points += p
}

// load reads the played ladder games the first time it is called.
func (s *Store) loadPlayed(ctx context.Context) error {
	pl := &s.played
	if pl.loaded {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, p1, p2, points1, CASE WHEN instr(result, '"forfeits"') > 0 THEN result ELSE '' END FROM games WHERE kind = 'ladder' AND state = 'done' AND failure = '' ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	pl.pairs, pl.at, pl.theta, pl.records, pl.games = nil, map[[2]int64]*pairTally{}, map[int64]float64{}, map[int64]*record{}, 0
	for rows.Next() {
		var g Game
		if err := rows.Scan(&g.ID, &g.Seats[0], &g.Seats[1], &g.Points1, &g.raw); err != nil {
			return err
		}
		res, err := g.result() // only a result with forfeits is read
		if err != nil {
			return err
		}
		pl.add(g.Seats[0], g.Seats[1], g.Points1, forfeitsOf(res))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	pl.loaded = true
	return nil
}

// recordPlayed counts a ladder game Finish recorded, once it is committed.
func (s *Store) recordPlayed(a, b int64, res *play.Result) {
	s.played.mu.Lock()
	defer s.played.mu.Unlock()
	if s.played.loaded {
		s.played.add(a, b, res.Points(match.P1), forfeitsOf(res))
	}
}

// forfeitsOf counts each side's forfeits in a result (nil: none).
func forfeitsOf(res *play.Result) (n [2]int) {
	if res != nil {
		for _, f := range res.Forfeits {
			if int(f.Side) < 2 {
				n[f.Side]++
			}
		}
	}
	return n
}

// readForPlan is the snapshot the scheduler plans from: the versions,
// the games in flight, and the fit of the played games, warm-started
// from the last. Its games list is empty: the scheduler reads each
// version's count of games (snapshot.count), not the games.
func (s *Store) readForPlan(ctx context.Context) (*snapshot, error) {
	vs, err := s.Versions(ctx, "")
	if err != nil {
		return nil, err
	}
	sn := newSnapshot(vs)
	rows, err := s.db.QueryContext(ctx, `SELECT p1, p2 FROM games WHERE state IN ('queued', 'leased') AND kind = 'ladder'`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a, b int64
		if err := rows.Scan(&a, &b); err != nil {
			rows.Close()
			return nil, err
		}
		sn.pending[a]++
		sn.pending[b]++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pl := &s.played
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if err := s.loadPlayed(ctx); err != nil {
		return nil, err
	}
	// The pairs in one order, the order they met, so that the same games
	// give the same fit to its last bit, and the same plan.
	ranked := map[int]bool{}
	for _, i := range sn.latest {
		ranked[i] = true
	}
	res := bradleyterry.Results{N: len(vs), Pairs: make([]bradleyterry.PairResult, 0, len(pl.pairs))}
	for _, t := range pl.pairs {
		a, oka := sn.index[t.lo]
		b, okb := sn.index[t.hi]
		if !oka || !okb {
			continue
		}
		res.Pairs = append(res.Pairs, bradleyterry.PairResult{I: a, J: b, Games: t.games, PointsI: t.points}) // versions are in id order: a < b
		if ranked[a] && ranked[b] {
			sn.met[[2]int{a, b}] += t.games
		}
		sn.count[t.lo] += t.games
		sn.count[t.hi] += t.games
	}
	start := make([]float64, len(vs))
	for i, v := range vs {
		start[i] = pl.theta[v.ID]
	}
	sn.fit = bradleyterry.From(res, start)
	for i, v := range vs {
		pl.theta[v.ID] = sn.fit.Strength(i)
	}
	sn.records = make(map[int64]*record, len(pl.records)) // copies: Finish adds to the kept ones
	for id, r := range pl.records {
		c := *r
		sn.records[id] = &c
	}
	sn.played = pl.games
	return sn, nil
}
