package ladder

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/play"
)

// A new version's suite is its student's own past mistakes played again:
// the costliest decisions of their earlier versions in reported ladder
// games (an inaccuracy or worse), each position given to the new version
// on the game's seed, its move judged as the report judged the old one
// (analysis.Drill). The student's page shows what the new version fixed
// and what it still gets wrong, before a game of the term turns on it.

// MaxSuite is how many past decisions a version's suite plays.
const MaxSuite = 12

// suiteFloor is the least a past decision lost to be drilled: an
// inaccuracy.
const suiteFloor = 0.05

// Suite is a version's drills, played.
type Suite struct {
	Version int           `json:"version"` // its number
	Drills  []DrillResult `json:"drills"`
	Passed  int           `json:"passed"`
}

// DrillResult is one past decision played again by the version.
type DrillResult struct {
	Costly
	Answer analysis.Answer `json:"answer"`
	// Error says why the drill could not be played (the game's replay
	// would not load); the drill then counts as neither passed nor failed.
	Error string `json:"error,omitempty"`
}

// DrillWith makes the reporting loop (Report) also play each new
// version's suite, with p's way of running programs: every program in
// its box, on the CPU clock. Without it, no suite is played.
func (s *Store) DrillWith(p Player) { s.driller = &p }

// undrilled is the newest ready version with no suite yet.
func (s *Store) undrilled(ctx context.Context) (id int64, student string, number int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT v.id, v.student, v.number FROM versions v LEFT JOIN suites s ON s.version = v.id
		WHERE v.state = 'ready' AND s.version IS NULL ORDER BY v.id DESC LIMIT 1`).Scan(&id, &student, &number)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", 0, nil
	}
	return id, student, number, err
}

// DrillOne plays the suite of the newest version that has none, if there
// is one and the store was given a way to play (DrillWith): it says
// whether it played one.
func (s *Store) DrillOne(ctx context.Context) (bool, error) {
	if s.driller == nil {
		return false, nil
	}
	id, student, number, err := s.undrilled(ctx)
	if err != nil || id == 0 {
		return false, err
	}
	past, err := s.lostDecisions(ctx, student)
	if err != nil {
		return false, err
	}
	past = slices.DeleteFunc(past, func(c Costly) bool { return c.Version >= number || c.Lost < suiteFloor })
	past = past[:min(len(past), MaxSuite)]
	suite := Suite{Version: number, Drills: []DrillResult{}}
	prog, err := s.program(ctx, id)
	if err != nil {
		return false, err
	}
	spec, err := s.driller.spec(prog)
	if err != nil {
		return false, err
	}
	h := s.driller.Hosting
	h.CPUClock = true // fair clocks, as in the ladder's games
	for _, c := range past {
		r := DrillResult{Costly: c}
		a, err := s.drill(ctx, c, spec, h)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			r.Error = err.Error()
		} else {
			r.Answer = *a
			if a.Passed {
				suite.Passed++
			}
		}
		suite.Drills = append(suite.Drills, r)
	}
	data, err := json.Marshal(suite)
	if err != nil {
		return false, err
	}
	return true, s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO suites (version, made, data) VALUES (?, ?, ?)`, id, time.Now().UnixMilli(), data)
		return err
	})
}

// drill plays past decision c again with spec.
func (s *Store) drill(ctx context.Context, c Costly, spec play.Spec, h play.Hosting) (*analysis.Answer, error) {
	var data []byte
	if err := s.db.QueryRowContext(ctx, `SELECT replay FROM games WHERE id = ?`, c.Game).Scan(&data); err != nil {
		return nil, fmt.Errorf("game %d: %v", c.Game, err)
	}
	rec, err := play.LoadReplay(replayFile(c.Game), data)
	if err != nil {
		return nil, err
	}
	d, err := analysis.NewDrill(rec, c.Turn, c.Side, "")
	if err != nil {
		return nil, err
	}
	return d.Play(ctx, rec, spec, h, analysis.Options{})
}

// Suites are the student's versions' suites, the newest version first.
func (s *Store) Suites(ctx context.Context, student string) ([]Suite, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.data FROM suites s JOIN versions v ON v.id = s.version WHERE v.student = ? ORDER BY v.number DESC`, student)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Suite
	for rows.Next() {
		var data []byte
		var su Suite
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		if json.Unmarshal(data, &su) == nil && len(su.Drills) > 0 {
			out = append(out, su)
		}
	}
	return out, rows.Err()
}

// sortCostly orders lost decisions costliest first (the newer game, then
// the earlier turn, where they cost the same).
func sortCostly(all []Costly) {
	slices.SortStableFunc(all, func(a, b Costly) int {
		return cmp.Or(cmp.Compare(b.Lost, a.Lost), cmp.Compare(b.Game, a.Game), cmp.Compare(a.Turn, b.Turn))
	})
}
