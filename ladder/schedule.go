package ladder

import (
	"context"
	"database/sql"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/arena-playground/arena/internal/bradleyterry"
)

// Scheduling. The ladder plays pairs of games (both seats, one seed)
// between the ranked versions, each student's latest. A new version
// plays first (it has played fewer than MinPairs pairs), against the
// opponent its game teaches most about it: one it is as likely to beat
// as to lose to, the expected Fisher information p(1-p) with both
// uncertainties folded into p, divided by how often the two have met.
//
// After that the pair is chosen for the leaderboard's order, read from
// the top. Each pair of ranked versions may stand in the wrong order:
// the chance of it, given both ratings' uncertainty, weighted by how near
// the top the pair stands (1/(1+r/10)², r the higher one's rank from 0).
// The version first is the one in the most weighted doubt, the sum of
// its pairs'; its opponent is the one whose order with it is most in
// doubt, divided by how often the two have met. This is measured against
// the rule TrueSkill's matchmaking and Halite's ladder use (the widest
// interval first, the most informative opponent), which narrows every
// interval alike and so did no better than random pairing at settling
// the top: 0.97 of random's games in BenchmarkSchedulerStableTop10,
// where this rule takes 0.39.
//
// A version stops being chosen first once its interval is narrower than
// the staff's width (and it has played MinPairs pairs); it is still
// chosen as an opponent. The top narrows first, then the rest.

// MinPairs is the pairs a ranked version plays at least.
const MinPairs = 2

// Schedule queues pairs of ladder games when fewer than want pairs are
// queued or leased: up to 2 want, so that the fit it costs is paid once
// for want pairs, or until no version needs games (every ranked
// version's 95% interval is narrower than width Elo). It returns the
// pairs it queued.
func (s *Store) Schedule(ctx context.Context, width float64, want int) (int, error) {
	s.scheduling.Lock()
	defer s.scheduling.Unlock()
	if frozen, _ := s.Meta("frozen"); frozen != "" {
		return 0, nil
	}
	var flying int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE state IN ('queued', 'leased') AND kind = 'ladder'`).Scan(&flying); err != nil {
		return 0, err
	}
	if flying/2 >= want {
		return 0, nil
	}
	sn, err := s.readForPlan(ctx)
	if err != nil {
		return 0, err
	}
	pairs := sn.plan(width, 2*want)
	if len(pairs) == 0 {
		return 0, nil
	}
	err = s.tx(ctx, func(t *sql.Tx) error {
		var next int64
		if err := t.QueryRow(`SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'pairs'), 0)`).Scan(&next); err != nil {
			return err
		}
		for _, p := range pairs {
			next++
			a, b := sn.versions[p[0]].ID, sn.versions[p[1]].ID
			seed := uint64(next)
			for _, seats := range [][2]int64{{a, b}, {b, a}} {
				if _, err := t.Exec(`INSERT INTO games (kind, p1, p2, seed, round, state) VALUES ('ladder', ?, ?, ?, ?, 'queued')`, seats[0], seats[1], seed, next); err != nil {
					return err
				}
			}
		}
		_, err := t.Exec(`INSERT INTO meta (key, value) VALUES ('pairs', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.FormatInt(next, 10))
		return err
	})
	if err != nil {
		return 0, err
	}
	return len(pairs), nil
}

// plan chooses pairs until want pairs are in flight (those queued or
// leased counted) or no version needs games.
func (sn *snapshot) plan(width float64, want int) [][2]int {
	var ranked []int
	for _, i := range sn.latest {
		ranked = append(ranked, i)
	}
	if len(ranked) < 2 {
		return nil
	}
	sort.Ints(ranked)
	// The uncertainty that orders who plays is the fit's curvature alone,
	// 1/sqrt(H_ii): a bound below the interval (a positive definite
	// matrix's inverse has (H⁻¹)_ii ≥ 1/H_ii), one pass over the pairs
	// where the interval takes a solve for each version. Whether a version
	// is done is decided by its interval itself, computed only where the
	// bound is already narrower than width.
	se := sn.fit.CurvatureSE()
	for _, i := range ranked {
		if 2*1.96*se[i]*bradleyterry.EloScale <= width {
			se[i] = sn.fit.SE(i) / bradleyterry.EloScale // natural-log units, as the fit's strengths
		}
	}
	inFlight := 0
	for _, n := range sn.pending {
		inFlight += n
	}
	inFlight /= 4 // each game counted for both seats, two games a pair
	p := sn.planner(ranked, se)
	var pairs [][2]int
	for inFlight+len(pairs) < want {
		i := p.first(width)
		if i < 0 {
			break
		}
		j := p.opponent(i)
		if j < 0 {
			break
		}
		pairs = append(pairs, [2]int{i, j})
		sn.pending[sn.versions[i].ID] += 2
		sn.pending[sn.versions[j].ID] += 2
		sn.met[ordered(i, j)] += 2
	}
	return pairs
}

// planner is what a plan weighs, computed once for the plan: the
// games in it are not played until the next.
type planner struct {
	sn     *snapshot
	ranked []int
	se     map[int]float64 // natural-log units
	rank   map[int]int     // from 0, the strongest
	doubt  map[int]float64 // the version's weighted doubt
}

func (sn *snapshot) planner(ranked []int, se map[int]float64) *planner {
	p := &planner{sn: sn, ranked: ranked, se: se, rank: map[int]int{}, doubt: map[int]float64{}}
	order := slices.Clone(ranked)
	sort.SliceStable(order, func(a, b int) bool { return sn.fit.Strength(order[a]) > sn.fit.Strength(order[b]) })
	for r, i := range order {
		p.rank[i] = r
	}
	for a, i := range order {
		for _, k := range order[a+1:] {
			d := p.misorder(i, k)
			p.doubt[i] += d
			p.doubt[k] += d
		}
	}
	return p
}

// misorder is the weighted chance that i and k stand in the wrong
// order: Φ(-|θi-θk|/σ), σ the difference's uncertainty, times the
// weight of the higher one's rank.
func (p *planner) misorder(i, k int) float64 {
	d := p.sn.fit.Strength(i) - p.sn.fit.Strength(k)
	sigma := math.Sqrt(p.se[i]*p.se[i] + p.se[k]*p.se[k])
	r := float64(min(p.rank[i], p.rank[k]))
	w := 1 / ((1 + r/10) * (1 + r/10))
	return w * 0.5 * math.Erfc(math.Abs(d)/(sigma*math.Sqrt2))
}

// isNew is a version that has played fewer than MinPairs pairs.
func (p *planner) isNew(i int) bool { return p.sn.count[p.sn.versions[i].ID] < 2*MinPairs }

// first is the ranked version to play next, or -1: a new version (the
// widest interval first), or the one in the most doubt among those
// whose interval is wider than width, none with games in flight.
func (p *planner) first(width float64) int {
	sn := p.sn
	best, bestNew, bestScore := -1, false, 0.0
	for _, i := range p.ranked {
		id := sn.versions[i].ID
		isNew := p.isNew(i)
		if sn.pending[id] > 0 || !isNew && 2*1.96*p.se[i]*bradleyterry.EloScale <= width {
			continue
		}
		score := p.doubt[i]
		if isNew {
			score = p.se[i]
		}
		better := best < 0 || isNew && !bestNew || isNew == bestNew && score > bestScore
		if better {
			best, bestNew, bestScore = i, isNew, score
		}
	}
	return best
}

// opponent is the ranked version i plays: for a new version, the one
// whose game teaches most about it; for the others, the one whose order
// with it is most in doubt; either divided by how often they have met.
func (p *planner) opponent(i int) int {
	sn := p.sn
	best, bestScore := -1, -1.0
	for _, j := range p.ranked {
		if j == i {
			continue
		}
		score := p.misorder(i, j)
		if p.isNew(i) {
			score = information(sn.fit.Strength(i)-sn.fit.Strength(j), p.se[i], p.se[j])
		}
		score /= float64(1 + sn.met[ordered(i, j)])
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	return best
}

// information is the expected Fisher information of one game between
// strengths d apart, whose uncertainties are si and sj: p(1-p), with p
// the logistic of the difference shrunk by the uncertainty (the probit
// approximation of the logistic's expectation under a normal).
func information(d, si, sj float64) float64 {
	p := bradleyterry.Logistic(d / math.Sqrt(1+math.Pi*(si*si+sj*sj)/8))
	return p * (1 - p)
}

func ordered(i, j int) [2]int {
	if i > j {
		return [2]int{j, i}
	}
	return [2]int{i, j}
}
