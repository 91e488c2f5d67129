package ladder

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"os"
	"strings"
)

// Roles a token gives.
const (
	Student = "student" // submits its own versions, sees its own page
	Staff   = "staff"   // sees everything, freezes the ladder
	Worker  = "worker"  // leases games and sends their results
)

// maxRoster bounds a roster file: a course's names.
const (
	maxRoster   = 1 << 20
	maxStudents = 5000
)

// ReadRoster reads a roster: one student's name a line; blank lines and
// lines starting with # are skipped. A name is 1 to 40 letters, digits,
// dots, dashes and underscores, not starting with a dot or a dash (it
// names the student in the pages, the API and the final report), and
// appears once; "staff" and "worker" name roles. Errors name the file
// and the line.
func ReadRoster(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readBounded(f, maxRoster)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var names []string
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		name := strings.TrimSpace(sc.Text())
		if name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		if err := checkName(name); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if first, ok := seen[name]; ok {
			return nil, fmt.Errorf("%s:%d: %s is on line %d already", path, line, name, first)
		}
		seen[name] = line
		names = append(names, name)
		if len(names) > maxStudents {
			return nil, fmt.Errorf("%s:%d: more than %d students", path, line, maxStudents)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no student's name (want one a line)", path)
	}
	return names, nil
}

// checkName says why a student's name is refused.
func checkName(name string) error {
	if len(name) > 40 {
		return fmt.Errorf("%.40q…: a name is at most 40 characters", name)
	}
	if name == Staff || name == Worker {
		return fmt.Errorf("%q names a role, not a student", name)
	}
	if name[0] == '.' || name[0] == '-' {
		return fmt.Errorf("%q: a name starts with a letter, a digit or _", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return fmt.Errorf("%q: a name is letters, digits, dots, dashes and underscores (not %q)", name, r)
		}
	}
	return nil
}

// Issued is a token given out: to a student by name, or to the staff
// ("staff") or the workers ("worker").
type Issued struct {
	Name  string
	Token string
}

// IssueTokens enters the roster's students and gives each a new token,
// and the staff and the workers one each; the tokens given before stop
// working (a lost token is replaced by issuing again). Only the tokens'
// hashes are kept: the returned list is the one time they are seen.
func (s *Store) IssueTokens(ctx context.Context, names []string) ([]Issued, error) {
	var out []Issued
	err := s.tx(ctx, func(t *sql.Tx) error {
		out = out[:0]
		if _, err := t.Exec(`DELETE FROM tokens`); err != nil {
			return err
		}
		add := func(role, student, name string) error {
			tok := newToken()
			if _, err := t.Exec(`INSERT INTO tokens (hash, role, student) VALUES (?, ?, ?)`, hashToken(tok), role, student); err != nil {
				return err
			}
			out = append(out, Issued{Name: name, Token: tok})
			return nil
		}
		for _, n := range names {
			if _, err := t.Exec(`INSERT INTO students (name) VALUES (?) ON CONFLICT DO NOTHING`, n); err != nil {
				return err
			}
			if err := add(Student, n, n); err != nil {
				return err
			}
		}
		if err := add(Staff, "", Staff); err != nil {
			return err
		}
		return add(Worker, "", Worker)
	})
	return out, err
}

// newToken is 24 random bytes, as URL-safe base64 (32 characters).
func newToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is what the store keeps of a token. The tokens are random
// and long, so a plain SHA-256 is enough: there is nothing to guess.
func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// Identity is who a token names.
type Identity struct {
	Role    string
	Student string // for a student
}

// MayRead reports whether the holder may read a student's page: the
// student's own, or anyone's for the staff.
func (id Identity) MayRead(student string) bool {
	return id.Role == Staff || id.Role == Student && id.Student == student
}

// ErrNoToken is a request without a token the ladder gave.
var ErrNoToken = errors.New("no valid token: give the one arena ladder tokens printed for you")

// Who names the holder of a token.
func (s *Store) Who(ctx context.Context, tok string) (Identity, error) {
	if len(tok) < 16 || len(tok) > 128 {
		return Identity{}, ErrNoToken
	}
	h := hashToken(tok)
	var id Identity
	var kept string
	err := s.db.QueryRowContext(ctx, `SELECT hash, role, student FROM tokens WHERE hash = ?`, h).Scan(&kept, &id.Role, &id.Student)
	if errors.Is(err, sql.ErrNoRows) || err == nil && subtle.ConstantTimeCompare([]byte(kept), []byte(h)) != 1 {
		return Identity{}, ErrNoToken
	}
	return id, err
}

// AddStudents enters names the roster gained since (arena ladder serve
// reads it each time it starts); they sign in once tokens are issued.
func (s *Store) AddStudents(ctx context.Context, names []string) error {
	return s.tx(ctx, func(t *sql.Tx) error {
		for _, n := range names {
			if _, err := t.Exec(`INSERT INTO students (name) VALUES (?) ON CONFLICT DO NOTHING`, n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Accommodate gives a student's versions a clock factor in every game
// they play from now on (1.5: half as much time again on every move; 1
// for none), kept in each game's replay.
func (s *Store) Accommodate(ctx context.Context, student string, factor float64) error {
	if !(factor >= 1 && factor <= match.MaxClockFactor) {
		return fmt.Errorf("a clock factor of %g: want 1 (none) to %d", factor, match.MaxClockFactor)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE students SET clock = ? WHERE name = ?`, factor, student)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no student named %q", student)
	}
	return nil
}

// ClockFactor is a student's clock factor (1: none).
func (s *Store) ClockFactor(ctx context.Context, student string) (float64, error) {
	f := 1.0
	err := s.db.QueryRowContext(ctx, `SELECT clock FROM students WHERE name = ?`, student).Scan(&f)
	return f, err
}

// Students lists the roster's names, in order.
func (s *Store) Students(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM students ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
