package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The staff's side of the ladder, as data: the workers and their last
// contact, the games by any filter, a page at a time.

// WorkerLine is a worker as the staff page shows it.
type WorkerLine struct {
	Name string `json:"name"`
	Seen int64  `json:"seen"` // its last lease asked for, Unix milliseconds
	Game int64  `json:"game"` // the game it holds, 0 for none
}

// noteWorker keeps a worker's last contact and the game it took (0: it
// found none), in a lease's transaction.
func noteWorker(t *sql.Tx, worker string, game int64, at int64) error {
	_, err := t.Exec(`INSERT INTO workers (name, seen, game) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET seen = excluded.seen, game = CASE WHEN excluded.game != 0 THEN excluded.game ELSE workers.game END`, worker, at, game)
	return err
}

// Workers lists the workers that ever asked for a game, the latest first,
// each with the game it holds now (if any).
func (s *Store) Workers(ctx context.Context) ([]WorkerLine, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT w.name, w.seen, coalesce(g.id, 0) FROM workers w
		LEFT JOIN games g ON g.id = w.game AND g.state = 'leased' AND g.worker = w.name ORDER BY w.seen DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []WorkerLine{}
	for rows.Next() {
		var w WorkerLine
		if err := rows.Scan(&w.Name, &w.Seen, &w.Game); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// GameFilter picks games: by kind, state, worker and an entry whose
// version played in it ("" for any), a page of Limit from Offset, the
// latest first.
type GameFilter struct {
	Kind, State, Worker, Student string
	Limit, Offset                int
}

// GamePage is a page of games and how many the filter finds.
type GamePage struct {
	Games []Game `json:"games"`
	Total int    `json:"total"`
}

// MaxGamePage bounds a page of games.
const MaxGamePage = 500

// FindGames reads a page of games by a filter.
func (s *Store) FindGames(ctx context.Context, f GameFilter) (*GamePage, error) {
	if f.Limit <= 0 || f.Limit > MaxGamePage {
		f.Limit = 100
	}
	where := []string{"1"}
	var args []any
	for _, c := range []struct{ col, v string }{{"g.kind", f.Kind}, {"g.state", f.State}, {"g.worker", f.Worker}} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if f.Student != "" {
		where = append(where, `EXISTS (SELECT 1 FROM versions v WHERE v.id IN (g.p1, g.p2) AND v.student = ?)`)
		args = append(args, f.Student)
	}
	cond := strings.Join(where, " AND ")
	p := &GamePage{Games: []Game{}}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM games g WHERE `+cond, args...).Scan(&p.Total); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT g.id, g.kind, g.p1, g.p2, g.seed, g.round, g.state, g.worker, g.points1, g.failure, g.host, g.finished FROM games g WHERE `+cond+
		` ORDER BY g.id DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var g Game
		if err := rows.Scan(&g.ID, &g.Kind, &g.Seats[0], &g.Seats[1], &g.Seed, &g.Round, &g.State, &g.Worker, &g.Points1, &g.Failure, &g.Host, &g.Finished); err != nil {
			return nil, err
		}
		p.Games = append(p.Games, g)
	}
	return p, rows.Err()
}

// versionNames names versions as their students do ("alice v3"), by id;
// 0 is random.
func (s *Store) versionNames(ctx context.Context) (map[int64]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, student, number FROM versions`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{RandomBot: "random"}
	for rows.Next() {
		var id int64
		var student string
		var n int
		if err := rows.Scan(&id, &student, &n); err != nil {
			return nil, err
		}
		out[id] = fmt.Sprintf("%s v%d", student, n)
	}
	return out, rows.Err()
}
