package ladder

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/tournament"
)

// Game kinds.
const (
	CheckGame  = "check"  // a new version against random
	LadderGame = "ladder" // two ranked versions
	FinalGame  = "final"  // the round robin after the deadline
)

// RandomBot is the version number games give the built-in random bot.
const RandomBot = 0

// Game is a game of the ladder, played or to be played.
type Game struct {
	ID       int64        `json:"id"`
	Kind     string       `json:"kind"`
	Seats    [2]int64     `json:"seats"` // versions; 0 is random
	Seed     uint64       `json:"seed"`
	Round    int          `json:"round,omitempty"`
	State    string       `json:"state"`
	Worker   string       `json:"worker,omitempty"`
	Result   *play.Result `json:"result,omitempty"`
	Points1  float64      `json:"points1"`
	Failure  string       `json:"failure,omitempty"`
	Host     bool         `json:"host,omitempty"` // the failure is the host's, not a version's
	Faults   [2]string    `json:"faults,omitzero"`
	Finished int64        `json:"finished,omitempty"`
	// Tally counts the game's moves, thinking times and the moves the
	// rules replaced (read with the results).
	Tally *tournament.Entry `json:"tally,omitempty"`

	raw string // its result as kept, until read
}

// Lease is a game given to a worker until a time: its result is taken
// under this lease only, and once the lease ends the game goes to the
// next worker that asks.
type Lease struct {
	Game
	Lease string `json:"lease"`
	Until int64  `json:"until"` // Unix milliseconds
}

// ErrLeaseGone is a result sent under a lease that is not the game's:
// it ended, and the game was given to another worker.
var ErrLeaseGone = errors.New("this lease has ended: the game went to another worker, and this result is not taken")

// Refusal is a result the ladder will not take for what it says or who
// sent it: sent again, it would be refused again. Any other error in
// sending a result is the store's (busy, its disk) or the network's,
// and the same result is sent again while its lease holds.
type Refusal string

func (r Refusal) Error() string { return string(r) }

// TakeLease gives the next queued game to a worker for d: check games
// first (a new version plays first), then the final round robin's, then
// the ladder's, each in the order queued. Leases that ended are taken
// back first. It returns nil when no game is queued.
func (s *Store) TakeLease(ctx context.Context, worker string, d time.Duration) (*Lease, error) {
	var l *Lease
	err := s.tx(ctx, func(t *sql.Tx) error {
		l = nil
		at := now()
		if _, err := t.Exec(`UPDATE games SET state = 'queued', lease = '', worker = '' WHERE state = 'leased' AND until < ?`, at); err != nil {
			return err
		}
		g := Lease{}
		err := t.QueryRow(`SELECT id, kind, p1, p2, seed, round FROM games WHERE state = 'queued'
			ORDER BY CASE kind WHEN 'check' THEN 0 WHEN 'final' THEN 1 ELSE 2 END, id LIMIT 1`).
			Scan(&g.ID, &g.Kind, &g.Seats[0], &g.Seats[1], &g.Seed, &g.Round)
		if errors.Is(err, sql.ErrNoRows) {
			return noteWorker(t, worker, 0, at)
		}
		if err != nil {
			return err
		}
		if err := noteWorker(t, worker, g.ID, at); err != nil {
			return err
		}
		b := make([]byte, 16)
		rand.Read(b)
		g.Lease, g.Until, g.State, g.Worker = hex.EncodeToString(b), at+d.Milliseconds(), "leased", worker
		if _, err := t.Exec(`UPDATE games SET state = 'leased', lease = ?, worker = ?, until = ? WHERE id = ?`, g.Lease, worker, g.Until, g.ID); err != nil {
			return err
		}
		l = &g
		return nil
	})
	return l, err
}

// ReleaseLeases puts back in the queue the games leased by workers whose
// names start with prefix: the server's own workers, when it starts
// again after a crash (they died with it; their leases would otherwise
// hold the games until they end). It returns how many.
func (s *Store) ReleaseLeases(ctx context.Context, prefix string) (int64, error) {
	r, err := s.db.ExecContext(ctx, `UPDATE games SET state = 'queued', lease = '', worker = '' WHERE state = 'leased' AND substr(worker, 1, ?) = ?`, len(prefix), prefix)
	s.changes.Add(1)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

// Outcome is what a worker sends of a game: its result and replay, or
// why it could not be played (a program that would not start, a go:
// file that does not compile).
type Outcome struct {
	Result  *play.Result `json:"result,omitempty"`
	Replay  []byte       `json:"replay,omitempty"`
	Failure string       `json:"failure,omitempty"`
	// Faults are each seat's first failure to answer, where the game's
	// rules played on (Colosseum replaces the move): "turn 3: the
	// program ended".
	Faults [2]string `json:"faults,omitzero"`
	// Broke are each seat's first failure other than an answer past its
	// clock (a crash, nonsense): what refuses a version at its check,
	// where a late move is the rules' to punish, not the ladder's.
	Broke [2]string `json:"broke,omitzero"`
	// Tally counts the game's moves, times and replaced moves.
	Tally *tournament.Entry `json:"tally,omitempty"`
	// Host: the failure is the worker's host's (no Python, NumPy
	// missing, a runtime not installed), not a version's: a check game
	// that failed so refuses nothing for good, and the staff are told.
	Host bool `json:"host,omitempty"`
}

// MaxReplay bounds a game's replay as the ladder keeps it.
const MaxReplay = 32 << 20

// Finish records a leased game's outcome, under its lease. A check
// game decides its version: refused, with the reason, when the version
// forfeited or could not be played; ready otherwise.
func (s *Store) Finish(ctx context.Context, lease string, o Outcome) error {
	if o.Result == nil && o.Failure == "" {
		return Refusal("an outcome with neither a result nor a failure")
	}
	if len(o.Replay) > MaxReplay {
		return Refusal(fmt.Sprintf("a replay of %d bytes: the ladder keeps at most %s", len(o.Replay), sizeText(MaxReplay)))
	}
	var g Game
	var refused *Version
	err := s.tx(ctx, func(t *sql.Tx) error {
		g, refused = Game{}, nil
		err := t.QueryRow(`SELECT id, kind, p1, p2 FROM games WHERE lease = ? AND state = 'leased'`, lease).Scan(&g.ID, &g.Kind, &g.Seats[0], &g.Seats[1])
		if errors.Is(err, sql.ErrNoRows) {
			return ErrLeaseGone
		}
		if err != nil {
			return err
		}
		result, points := "", 0.0
		if o.Result != nil {
			b, err := json.Marshal(o.Result)
			if err != nil {
				return err
			}
			result, points = string(b), o.Result.Points(match.P1)
		}
		tally := ""
		if o.Tally != nil {
			b, err := json.Marshal(o.Tally)
			if err != nil {
				return err
			}
			tally = string(b)
		}
		if _, err := t.Exec(`UPDATE games SET state = 'done', lease = '', result = ?, points1 = ?, failure = ?, fault1 = ?, fault2 = ?, replay = ?, finished = ?, tally = ?, host = ? WHERE id = ?`,
			result, points, o.Failure, o.Faults[0], o.Faults[1], o.Replay, now(), tally, o.Host && o.Failure != "", g.ID); err != nil {
			return err
		}
		if g.Kind != CheckGame {
			return nil
		}
		state, reason, cause := Ready, "", ""
		switch {
		case o.Failure != "" && o.Host:
			state, reason, cause = Refused, o.Failure, HostCause
		case o.Failure != "":
			state, reason = Refused, o.Failure
		case o.Broke[0] != "":
			state, reason = Refused, "its check game against random, "+o.Broke[0]
		default:
			for _, f := range o.Result.Forfeits {
				if f.Side == match.P1 {
					state, reason = Refused, fmt.Sprintf("its check game against random, turn %d: %s", f.Turn, f.Reason)
				}
			}
		}
		if _, err := t.Exec(`UPDATE versions SET state = ?, reason = ?, cause = ? WHERE id = ? AND state = 'checking'`, state, reason, cause, g.Seats[0]); err != nil {
			return err
		}
		if state == Refused {
			refused = &Version{ID: g.Seats[0], Reason: reason, Cause: cause}
			t.QueryRow(`SELECT student, number FROM versions WHERE id = ?`, g.Seats[0]).Scan(&refused.Student, &refused.Number)
		}
		if state == Ready {
			// A new version plays first: the pairs queued were planned
			// without it (and perhaps with the version it replaces), so
			// they go, and the next plan starts with it. Those leased
			// are played.
			_, err = t.Exec(`DELETE FROM games WHERE kind = 'ladder' AND state = 'queued'`)
		}
		return err
	})
	if err == nil && g.Kind == LadderGame && o.Failure == "" {
		s.recordPlayed(g.Seats[0], g.Seats[1], o.Result)
	}
	if err == nil && refused != nil {
		s.logRefusal(*refused)
	}
	return err
}

// logRefusal says a refused version in the server's log: for the host's
// fault, in the operator's words, with what to do.
func (s *Store) logRefusal(v Version) {
	if s.Log == nil {
		return
	}
	if v.Cause == HostCause {
		s.Log(fmt.Sprintf("could not check %s v%d, for want of something on the worker's host: %s. Fix the host, then re-check it on the staff page (/staff) or with arena ladder recheck -version %d; it does not count against the student.",
			v.Student, v.Number, v.Reason, v.ID))
		return
	}
	s.Log(fmt.Sprintf("refused %s v%d: %s", v.Student, v.Number, v.Reason))
}

// Games lists games by kind and state ("" for any), the earliest first.
func (s *Store) Games(ctx context.Context, kind, state string) ([]Game, error) {
	gs, err := s.games(ctx, kind, state, true)
	for i := range gs {
		if err == nil {
			_, err = gs[i].result()
		}
	}
	return gs, err
}

// games lists games, with their results read when full (their points
// alone otherwise: a JSON decoding a game, for 50,000 games, is most of
// what the scheduler would spend).
func (s *Store) games(ctx context.Context, kind, state string, full bool) ([]Game, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, kind, p1, p2, seed, round, state, worker, result, points1, failure, host, fault1, fault2, finished, tally FROM games
		WHERE (? = '' OR kind = ?) AND (? = '' OR state = ?) ORDER BY id`, kind, kind, state, state)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		var g Game
		var result, tally string
		if err := rows.Scan(&g.ID, &g.Kind, &g.Seats[0], &g.Seats[1], &g.Seed, &g.Round, &g.State, &g.Worker, &result, &g.Points1, &g.Failure, &g.Host, &g.Faults[0], &g.Faults[1], &g.Finished, &tally); err != nil {
			return nil, err
		}
		if tally != "" && full {
			g.Tally = new(tournament.Entry)
			if err := json.Unmarshal([]byte(tally), g.Tally); err != nil {
				return nil, fmt.Errorf("game %d: its kept tally: %v", g.ID, err)
			}
		}
		// A result is read whole where it tells more than its points: a
		// forfeit's (the leaderboard counts them). The rest keep it raw,
		// read on demand (a student's page reads its student's games').
		if result != "" && full {
			g.raw = result
			if strings.Contains(result, `"forfeits"`) {
				if _, err := g.result(); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// result is the game's result, read from its kept JSON on first use.
func (g *Game) result() (*play.Result, error) {
	if g.Result == nil && g.raw != "" {
		g.Result = new(play.Result)
		if err := json.Unmarshal([]byte(g.raw), g.Result); err != nil {
			g.Result = nil
			return nil, fmt.Errorf("game %d: its kept result: %v", g.ID, err)
		}
	}
	return g.Result, nil
}

// Replay is a played game's replay.
func (s *Store) Replay(ctx context.Context, id int64) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT replay FROM games WHERE id = ? AND state = 'done'`, id).Scan(&b)
	return b, err
}
