package ladder

import (
	"context"
	"database/sql"
	"math"
	"strconv"
)

// Scheduling. The ladder plays pairs of games (both seats, one seed)
// between the ranked versions, each student's latest. The next pair is
// chosen for what its result teaches, the rule TrueSkill's matchmaking
// and Halite's ladder use: the version whose rating is least certain
// plays first (a new version has played nothing, so it plays before
// anyone), against the opponent whose game is the most informative,
// one it is as likely to beat as to lose to, its expected Fisher
// information p(1-p) with the opponent's own uncertainty folded into p,
// divided by how often the two have met so that a version meets the
// field rather than one rival. A version stops being chosen first once
// its interval is narrower than the staff's width (and it has played
// MinPairs pairs); it is still chosen as an opponent.

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
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE kind = 'ladder' AND state != 'done'`).Scan(&flying); err != nil {
		return 0, err
	}
	if flying/2 >= want {
		return 0, nil
	}
	want *= 2
	sn, err := s.read(ctx, false)
	if err != nil {
		return 0, err
	}
	var ranked []int
	for _, i := range sn.latest {
		ranked = append(ranked, i)
	}
	if len(ranked) < 2 {
		return 0, nil
	}
	// The uncertainty that orders who plays is the fit's curvature alone,
	// 1/sqrt(H_ii): a bound below the interval (a positive definite
	// matrix's inverse has (H⁻¹)_ii ≥ 1/H_ii), one pass over the pairs
	// where the interval takes a solve for each version. Whether a version
	// is done is decided by its interval itself, computed only where the
	// bound is already narrower than width.
	se := sn.fit.curvatureSE()
	for _, i := range ranked {
		if 2*1.96*se[i]*eloScale <= width {
			se[i] = sn.fit.SE(i) / eloScale // natural-log units, as the fit's strengths
		}
	}
	inFlight := 0
	for _, n := range sn.pending {
		inFlight += n
	}
	inFlight /= 4 // each game counted for both seats, two games a pair
	var pairs [][2]int
	for inFlight+len(pairs) < want {
		i := sn.nextFirst(ranked, se, width)
		if i < 0 {
			break
		}
		j := sn.bestOpponent(i, ranked, se)
		if j < 0 {
			break
		}
		pairs = append(pairs, [2]int{i, j})
		sn.pending[sn.versions[i].ID] += 2
		sn.pending[sn.versions[j].ID] += 2
		sn.met[ordered(i, j)]++
	}
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

// nextFirst is the ranked version to play next: the one with the widest
// interval among those that need games and have none in flight, or -1.
func (sn *snapshot) nextFirst(ranked []int, se map[int]float64, width float64) int {
	best := -1
	for _, i := range ranked {
		id := sn.versions[i].ID
		games, _, _, _, _ := sn.tally(id)
		wide := 2 * 1.96 * se[i] * eloScale
		if sn.pending[id] > 0 || (wide <= width && games >= 2*MinPairs) {
			continue
		}
		if best < 0 || se[i] > se[best] || se[i] == se[best] && id < sn.versions[best].ID {
			best = i
		}
	}
	return best
}

// bestOpponent is the ranked version whose game with i teaches most.
func (sn *snapshot) bestOpponent(i int, ranked []int, se map[int]float64) int {
	best, bestScore := -1, -1.0
	for _, j := range ranked {
		if j == i {
			continue
		}
		score := information(sn.fit.theta[i]-sn.fit.theta[j], se[i], se[j]) / float64(1+sn.met[ordered(i, j)])
		if score > bestScore || score == bestScore && sn.versions[j].ID < sn.versions[best].ID {
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
	p := logistic(d / math.Sqrt(1+math.Pi*(si*si+sj*sj)/8))
	return p * (1 - p)
}

func ordered(i, j int) [2]int {
	if i > j {
		return [2]int{j, i}
	}
	return [2]int{i, j}
}
