package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Version states.
const (
	Checking = "checking" // its check game against random is to be played
	Ready    = "ready"    // it plays the ladder
	Refused  = "refused"  // its check game failed: Reason says why
)

// Version is a student's submission, without its files.
type Version struct {
	ID        int64  `json:"id"`
	Student   string `json:"student"`
	Number    int    `json:"number"`
	Submitted int64  `json:"submitted"`      // Unix milliseconds
	File      string `json:"file,omitempty"` // the upload's name, as its student gave it
	Kind      string `json:"kind"`
	Command   string `json:"command,omitempty"`
	Digest    string `json:"digest"`
	Size      int64  `json:"size"`
	State     string `json:"state"`
	Reason    string `json:"reason,omitempty"`
	// Cause is HostCause where the version was refused for want of
	// something on the host, not for anything in it: its Reason is for
	// the staff, and its student reads HostReason.
	Cause string `json:"cause,omitempty"`
}

// HostCause marks a refusal that is the host's fault.
const HostCause = "host"

// HostReason is what a student reads of a refusal that is the host's
// fault.
const HostReason = "the ladder could not check your version: the staff have been told"

// ForStudent is the version as its student reads it: a refusal for the
// host's fault says so, not the operator's words.
func (v Version) ForStudent() Version {
	if v.Cause == HostCause {
		v.Reason = HostReason
	}
	return v
}

// The bounds on submitting: a student's versions in an hour.
const (
	MaxPerHour = 12
)

// ErrFrozen is a submission after the staff froze the ladder.
var ErrFrozen = errors.New("the ladder is frozen: the deadline has passed, and no version is taken")

// ErrTooManyVersions is a submission past MaxPerHour.
var ErrTooManyVersions = fmt.Errorf("a student submits at most %d an hour", MaxPerHour)

// Submit keeps a student's new version and queues its check game, one
// game against the built-in random bot: it is ranked once that game is
// played without a forfeit. A student submits at most MaxPerHour
// versions an hour.
func (s *Store) Submit(ctx context.Context, student string, u *Upload) (Version, error) {
	v := Version{Student: student, Submitted: now(), File: u.Name, Kind: u.Kind, Command: u.Command, Digest: u.Digest(), Size: u.Size, State: Checking}
	deadline, hasDeadline := s.Deadline() // read before the transaction: the store has one connection
	err := s.tx(ctx, func(t *sql.Tx) error {
		var frozen string
		t.QueryRow(`SELECT value FROM meta WHERE key = 'frozen'`).Scan(&frozen)
		if err := closed(frozen, time.UnixMilli(v.Submitted), deadline, hasDeadline); err != nil {
			return err
		}
		var recent int
		if err := t.QueryRow(`SELECT count(*) FROM versions WHERE student = ? AND submitted > ?`, student, v.Submitted-time.Hour.Milliseconds()).Scan(&recent); err != nil {
			return err
		}
		if recent >= MaxPerHour {
			return fmt.Errorf("%d versions in the last hour: %w", recent, ErrTooManyVersions)
		}
		if err := t.QueryRow(`SELECT coalesce(max(number), 0) + 1 FROM versions WHERE student = ?`, student).Scan(&v.Number); err != nil {
			return err
		}
		r, err := t.Exec(`INSERT INTO versions (student, number, submitted, file, kind, command, digest, size, files, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			student, v.Number, v.Submitted, v.File, v.Kind, v.Command, v.Digest, v.Size, u.Files, v.State)
		if err != nil {
			return err
		}
		if v.ID, err = r.LastInsertId(); err != nil {
			return err
		}
		_, err = t.Exec(`INSERT INTO games (kind, p1, p2, seed, state) VALUES ('check', ?, 0, ?, 'queued')`, v.ID, v.ID)
		return err
	})
	return v, err
}

// Versions lists versions: a student's (student given) or everyone's,
// the earliest first.
func (s *Store) Versions(ctx context.Context, student string) ([]Version, error) {
	q := `SELECT id, student, number, submitted, file, kind, command, digest, size, state, reason, cause FROM versions`
	var args []any
	if student != "" {
		q += ` WHERE student = ?`
		args = append(args, student)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		var v Version
		if err := rows.Scan(&v.ID, &v.Student, &v.Number, &v.Submitted, &v.File, &v.Kind, &v.Command, &v.Digest, &v.Size, &v.State, &v.Reason, &v.Cause); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Files is a version's kept archive.
func (s *Store) Files(ctx context.Context, id int64) ([]byte, error) {
	var files []byte
	err := s.db.QueryRowContext(ctx, `SELECT files FROM versions WHERE id = ?`, id).Scan(&files)
	return files, err
}

// ErrNotRefused is a re-check of a version that was not refused.
var ErrNotRefused = errors.New("only a refused version is checked again")

// Recheck checks a refused version again (after the staff fixed what
// the host lacked): it is checking once more, with a check game queued.
// It is no new submission: it counts against no student's hour.
func (s *Store) Recheck(ctx context.Context, id int64) (Version, error) {
	var v Version
	err := s.tx(ctx, func(t *sql.Tx) error {
		err := t.QueryRow(`SELECT student, number, state FROM versions WHERE id = ?`, id).Scan(&v.Student, &v.Number, &v.State)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no version %d", id)
		}
		if err != nil {
			return err
		}
		if v.State != Refused {
			return fmt.Errorf("%s v%d is %s: %w", v.Student, v.Number, v.State, ErrNotRefused)
		}
		if _, err := t.Exec(`UPDATE versions SET state = 'checking', reason = '', cause = '' WHERE id = ?`, id); err != nil {
			return err
		}
		var checks int
		t.QueryRow(`SELECT count(*) FROM games WHERE kind = 'check' AND p1 = ?`, id).Scan(&checks)
		// The same seed as its first check: the same game, played again.
		_, err = t.Exec(`INSERT INTO games (kind, p1, p2, seed, round, state) VALUES ('check', ?, 0, ?, ?, 'queued')`, id, id, checks)
		return err
	})
	v.ID, v.State = id, Checking
	return v, err
}

// TypicalCheck is how long the ladder's last checks took, from the
// submission to the check game's end (the median of the last 20 first
// checks); 0 before any.
func (s *Store) TypicalCheck(ctx context.Context) (time.Duration, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT g.finished - v.submitted FROM games g JOIN versions v ON v.id = g.p1
		WHERE g.kind = 'check' AND g.state = 'done' AND g.round = 0 ORDER BY g.id DESC LIMIT 20`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var ms []int64
	for rows.Next() {
		var d int64
		if err := rows.Scan(&d); err != nil {
			return 0, err
		}
		ms = append(ms, max(d, 0))
	}
	if len(ms) == 0 {
		return 0, rows.Err()
	}
	slices.Sort(ms)
	return time.Duration(ms[len(ms)/2]) * time.Millisecond, rows.Err()
}
