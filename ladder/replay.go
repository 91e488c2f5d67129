package ladder

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-playground/arena/engine/play"
)

// ErrNoReplay is a game with no replay kept: not played yet, or one that
// could not be played.
var ErrNoReplay = errors.New("no replay of this game")

// ReplayFor is a game's replay as viewer may see it. Its players are
// named as the ladder names them ("alice v2", "random"), not by the
// worker's folders. A student sees what their own program wrote while it
// played (its standard error, kept with each move) and not what the
// opponent's wrote, as they do not see a refused version's reason: a
// Python traceback quotes its source, and no student sees another's
// code. The staff see it all.
//
// name, where not nil, names an entry as the viewer may see it (a
// pseudonym); the viewer's own entry keeps its name.
func (s *Store) ReplayFor(ctx context.Context, game int64, viewer Identity, name func(entry string) string) ([]byte, error) {
	var data []byte
	var seats [2]int64
	err := s.db.QueryRowContext(ctx, `SELECT replay, p1, p2 FROM games WHERE id = ? AND state = 'done'`, game).Scan(&data, &seats[0], &seats[1])
	if errors.Is(err, sql.ErrNoRows) || err == nil && len(data) == 0 {
		return nil, ErrNoReplay
	}
	if err != nil {
		return nil, err
	}
	var rp play.Replay
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, fmt.Errorf("game %d: its kept replay: %v", game, err)
	}
	var owners [2]string
	for side, v := range seats {
		rp.Players[side] = "random"
		if v == RandomBot {
			continue
		}
		var number int
		if err := s.db.QueryRowContext(ctx, `SELECT student, number FROM versions WHERE id = ?`, v).Scan(&owners[side], &number); err != nil {
			return nil, fmt.Errorf("game %d: version %d: %v", game, v, err)
		}
		shown := owners[side]
		if name != nil && owners[side] != viewer.Student {
			shown = name(owners[side])
		}
		rp.Players[side] = fmt.Sprintf("%s v%d", shown, number)
	}
	if viewer.Role != Staff {
		for side := range owners {
			if owners[side] == viewer.Student {
				continue
			}
			for _, t := range rp.Turns {
				if n := t.Notes[side].Get(); n != nil && len(n.Said) > 0 {
					n.Said = []string{hiddenSaid}
				}
			}
		}
	}
	var b bytes.Buffer
	if _, err := rp.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// hiddenSaid stands for what an opponent's program wrote while it chose
// a move.
const hiddenSaid = "(what this program wrote is for its student and the staff)"
