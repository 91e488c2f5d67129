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
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arena-playground/arena/engine/play"
)

// Roles a token gives.
const (
	Student = "student" // submits its entry's versions, sees its entry's page
	Staff   = "staff"   // sees everything, freezes the ladder
	Worker  = "worker"  // leases games and sends their results
)

// maxRoster bounds a roster file: a course's names.
const (
	maxRoster   = 1 << 20
	maxStudents = 5000
)

// Person is a student of the roster. An entry of the ladder is a
// person alone, named by their ID, or a team (Team given), which all its
// people submit for, each with a token of their own. ID is what a grade
// book matches on (a student number, an SIS id); the others are carried
// to the exports: a Canvas user's numeric id (LMSID), a login.
type Person struct {
	ID      string `json:"id"`
	Name    string `json:"name,omitempty"`
	Email   string `json:"email,omitempty"`
	Section string `json:"section,omitempty"`
	Team    string `json:"team,omitempty"`
	LMSID   string `json:"lms_id,omitempty"`
	Login   string `json:"login,omitempty"`
}

// Entry names the person's entry: their team, or themselves.
func (p Person) Entry() string {
	if p.Team != "" {
		return p.Team
	}
	return p.ID
}

// Roster is a course's students, in the roster file's order.
type Roster []Person

// NamesRoster is a roster of people known by a name alone, each their
// own entry: what a one-name-a-line file reads as.
func NamesRoster(names ...string) Roster {
	r := make(Roster, len(names))
	for i, n := range names {
		r[i] = Person{ID: n, Name: n}
	}
	return r
}

// Entries are the roster's entries, each once, in the roster's order.
func (r Roster) Entries() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range r {
		if e := p.Entry(); !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// rosterColumns are the headers a CSV roster's columns are known by,
// lower-cased: arena's own (id,name,email,section,team) and those the
// grade books export (Canvas: Student, ID, SIS User ID, SIS Login ID,
// Section; Gradescope: First Name, Last Name, SID, Email, Sections;
// Moodle: ID number, Email address, Username, Groups).
var rosterColumns = map[string]string{
	"id": "id", "sid": "id", "student id": "id", "student number": "id", "id number": "id", "idnumber": "id", "sis user id": "id",
	"name": "name", "student": "name", "full name": "name", "student name": "name",
	"first name": "first", "last name": "last",
	"email": "email", "email address": "email", "e-mail": "email",
	"section": "section", "sections": "section",
	"team": "team", "group": "team", "groups": "team", "pair": "team",
	"sis login id": "login", "login": "login", "username": "login", "login id": "login",
}

// ReadRoster reads a roster file: a CSV whose first line names its
// columns (id, and any of name, email, section, team, under the names
// arena's and the grade books' exports give them: see rosterColumns),
// or one student's name a line. Blank lines and lines starting with #
// are skipped. An id (or a one-line name) and a team are 1 to 40
// letters, digits and . - _ @ +, not starting with . or - (they name
// entries in the pages' addresses), and an id appears once; "staff" and
// "worker" name roles. Errors name the file and the line.
func ReadRoster(path string) (Roster, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readBounded(f, maxRoster)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a spreadsheet's byte-order mark
	var r Roster
	if isCSVRoster(data) {
		r, err = readCSVRoster(path, data)
	} else {
		r, err = readNameRoster(path, data)
	}
	if err != nil {
		return nil, err
	}
	if len(r) == 0 {
		return nil, fmt.Errorf("%s: no student (want a CSV with an id column, or one name a line)", path)
	}
	return r, nil
}

// isCSVRoster: the first line that is not a comment has a comma and
// names an id column.
func isCSVRoster(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return strings.Contains(line, ",")
	}
	return false
}

// readNameRoster reads one name a line.
func readNameRoster(path string, data []byte) (Roster, error) {
	var r Roster
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
		r = append(r, Person{ID: name, Name: name})
		if len(r) > maxStudents {
			return nil, fmt.Errorf("%s:%d: more than %d students", path, line, maxStudents)
		}
	}
	return r, nil
}

// readCSVRoster reads a CSV roster: its header, then a person a row.
// Rows a grade book adds that are not students (Canvas's "Points
// Possible", a test student) are skipped by having no id.
func readCSVRoster(path string, data []byte) (Roster, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: its header: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if k, ok := rosterColumns[h]; ok {
			if _, twice := col[k]; !twice || h == "sis user id" { // Canvas's SIS id over its own ID
				col[k] = i
			}
		}
	}
	if _, ok := col["id"]; !ok {
		return nil, fmt.Errorf("%s:1: no id column (want a header naming id, and any of name, email, section, team; found %s)", path, strings.Join(header, ", "))
	}
	// Canvas's export has ID (its own user number) beside SIS User ID:
	// the SIS id is the student's, the number Canvas's.
	lms := -1
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), "ID") && i != col["id"] {
			lms = i
		}
	}
	var r Roster
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		p := Person{ID: get("id"), Name: get("name"), Email: get("email"), Section: get("section"), Team: get("team"), Login: get("login")}
		if p.ID == "" {
			continue
		}
		if lms >= 0 && lms < len(rec) {
			p.LMSID = strings.TrimSpace(rec[lms])
		}
		if p.Name == "" {
			p.Name = strings.TrimSpace(get("first") + " " + get("last"))
		}
		if p.Name == "" {
			p.Name = p.ID
		}
		for _, f := range []struct{ what, v string }{{"id", p.ID}, {"team", p.Team}} {
			if f.v == "" {
				continue
			}
			if err := checkName(f.v); err != nil {
				return nil, fmt.Errorf("%s:%d: its %s: %v", path, line, f.what, err)
			}
		}
		if len(p.Name) > 100 || len(p.Email) > 200 || len(p.Section) > 60 {
			return nil, fmt.Errorf("%s:%d: a name is at most 100 characters, an email 200, a section 60", path, line)
		}
		if first, ok := seen[p.ID]; ok {
			return nil, fmt.Errorf("%s:%d: id %s is on line %d already", path, line, p.ID, first)
		}
		seen[p.ID] = line
		r = append(r, p)
		if len(r) > maxStudents {
			return nil, fmt.Errorf("%s:%d: more than %d students", path, line, maxStudents)
		}
	}
	// A team's name is not also a student's id: the pages would name both alike.
	for _, p := range r {
		if p.Team != "" && p.Team != p.ID {
			if line, ok := seen[p.Team]; ok {
				return nil, fmt.Errorf("%s:%d: team %s is a student's id too (line %d)", path, seen[p.ID], p.Team, line)
			}
		}
	}
	return r, nil
}

// checkName says why an id, a one-line name or a team is refused.
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
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_@+", r)) {
			return fmt.Errorf("%q: a name is letters, digits and . - _ @ + (not %q)", name, r)
		}
	}
	return nil
}

// Issued is a token given out: to a student by id, or to the staff
// ("staff") or the workers ("worker").
type Issued struct {
	Name  string
	Token string
}

// EnterRoster enters the roster's entries and people (arena ladder
// serve reads the roster each time it starts): new ones are added, and
// those there already take the roster's names, emails, sections and
// teams. A student who left the roster keeps their versions and games.
func (s *Store) EnterRoster(ctx context.Context, r Roster) error {
	return s.tx(ctx, func(t *sql.Tx) error { return enterRoster(t, r) })
}

func enterRoster(t *sql.Tx, r Roster) error {
	display, sections := map[string]string{}, map[string][]string{}
	for _, p := range r {
		e := p.Entry()
		if p.Team != "" {
			display[e] = p.Team
		} else {
			display[e] = p.Name
		}
		if p.Section != "" && !contains(sections[e], p.Section) {
			sections[e] = append(sections[e], p.Section)
		}
	}
	for _, e := range r.Entries() {
		if _, err := t.Exec(`INSERT INTO students (name, display, section) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET display = excluded.display, section = excluded.section`, e, display[e], strings.Join(sections[e], ", ")); err != nil {
			return err
		}
	}
	if _, err := t.Exec(`UPDATE people SET enrolled = 0`); err != nil {
		return err
	}
	for _, p := range r {
		if _, err := t.Exec(`INSERT INTO people (id, entry, name, email, section, lms_id, login, enrolled) VALUES (?, ?, ?, ?, ?, ?, ?, 1)
			ON CONFLICT (id) DO UPDATE SET entry = excluded.entry, name = excluded.name, email = excluded.email, section = excluded.section, lms_id = excluded.lms_id, login = excluded.login, enrolled = 1`,
			p.ID, p.Entry(), p.Name, p.Email, p.Section, p.LMSID, p.Login); err != nil {
			return err
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// IssueTokens enters the roster and gives each of its people a new
// token, and the staff and the workers one each; the tokens given before
// stop working (one student's lost token is replaced by IssueToken, not
// this). Only the tokens' hashes are kept: the returned list is the one
// time they are seen.
func (s *Store) IssueTokens(ctx context.Context, r Roster) ([]Issued, error) {
	var out []Issued
	err := s.tx(ctx, func(t *sql.Tx) error {
		out = out[:0]
		if err := enterRoster(t, r); err != nil {
			return err
		}
		if _, err := t.Exec(`DELETE FROM tokens`); err != nil {
			return err
		}
		for _, p := range r {
			is, err := addToken(t, Student, p.Entry(), p.ID)
			if err != nil {
				return err
			}
			out = append(out, is)
		}
		for _, role := range []string{Staff, Worker} {
			is, err := addToken(t, role, "", "")
			if err != nil {
				return err
			}
			out = append(out, is)
		}
		return nil
	})
	return out, err
}

// IssueToken gives one person of the roster a new token: theirs alone
// stops working, everyone else's keeps working.
func (s *Store) IssueToken(ctx context.Context, person string) (Issued, error) {
	var is Issued
	err := s.tx(ctx, func(t *sql.Tx) error {
		var entry string
		err := t.QueryRow(`SELECT entry FROM people WHERE id = ?`, person).Scan(&entry)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no student with the id %q on the roster", person)
		}
		if err != nil {
			return err
		}
		if _, err := t.Exec(`DELETE FROM tokens WHERE role = ? AND person = ?`, Student, person); err != nil {
			return err
		}
		is, err = addToken(t, Student, entry, person)
		return err
	})
	return is, err
}

// addToken makes a token and keeps its hash.
func addToken(t *sql.Tx, role, entry, person string) (Issued, error) {
	tok := newToken()
	if _, err := t.Exec(`INSERT INTO tokens (hash, role, student, person) VALUES (?, ?, ?, ?)`, hashToken(tok), role, entry, person); err != nil {
		return Issued{}, err
	}
	name := person
	if role != Student {
		name = role
	}
	return Issued{Name: name, Token: tok}, nil
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
	Student string // a student's entry: their team, or their own id
	Person  string // a student's id
}

// MayRead reports whether the holder may read an entry's page: their
// own, or anyone's for the staff.
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
	err := s.db.QueryRowContext(ctx, `SELECT hash, role, student, person FROM tokens WHERE hash = ?`, h).Scan(&kept, &id.Role, &id.Student, &id.Person)
	if errors.Is(err, sql.ErrNoRows) || err == nil && subtle.ConstantTimeCompare([]byte(kept), []byte(h)) != 1 {
		return Identity{}, ErrNoToken
	}
	return id, err
}

// Accommodate gives an entry's versions a clock factor in every game
// they play from now on (1.5: half as much time again on every move; 1
// for none), kept in each game's replay.
func (s *Store) Accommodate(ctx context.Context, student string, factor float64) error {
	if !(factor >= 1 && factor <= play.MaxClockFactor) {
		return fmt.Errorf("a clock factor of %g: want 1 (none) to %d", factor, play.MaxClockFactor)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE students SET clock = ? WHERE name = ?`, factor, student)
	s.changes.Add(1)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no student named %q", student)
	}
	return nil
}

// ClockFactor is an entry's clock factor (1: none).
func (s *Store) ClockFactor(ctx context.Context, student string) (float64, error) {
	f := 1.0
	err := s.db.QueryRowContext(ctx, `SELECT clock FROM students WHERE name = ?`, student).Scan(&f)
	return f, err
}

// Students lists the entries' names, in order.
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

// EntryInfo is an entry as the pages name it.
type EntryInfo struct {
	Name      string `json:"name"`    // its key: a team, or a student's id
	Display   string `json:"display"` // a student's name, or the team's
	Section   string `json:"section,omitempty"`
	Pseudonym string `json:"pseudonym,omitempty"`
}

// Shown is the entry's name as a classmate sees it: its roster name, or
// where the ladder shows pseudonyms the one its student chose, else
// "classmate" and six letters that stay the same all term and say
// nothing of who it is (24 bits: two of 300 students share them once in
// 370 classes).
func (e EntryInfo) Shown(pseudonyms bool) string {
	switch {
	case !pseudonyms:
		return e.Display
	case e.Pseudonym != "":
		return e.Pseudonym
	}
	h := sha256.Sum256([]byte("arena ladder pseudonym\x00" + e.Name))
	return "classmate " + hex.EncodeToString(h[:3])
}

// Entries reads every entry's names, by key.
func (s *Store) Entries(ctx context.Context) (map[string]EntryInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, display, section, pseudonym FROM students`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]EntryInfo{}
	for rows.Next() {
		var e EntryInfo
		if err := rows.Scan(&e.Name, &e.Display, &e.Section, &e.Pseudonym); err != nil {
			return nil, err
		}
		if e.Display == "" {
			e.Display = e.Name
		}
		out[e.Name] = e
	}
	return out, rows.Err()
}

// People reads the roster's people as the ladder keeps them, by id:
// those on the roster it last read.
func (s *Store) People(ctx context.Context) ([]Person, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, entry, name, email, section, lms_id, login FROM people WHERE enrolled = 1 ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Person
	for rows.Next() {
		var p Person
		var entry string
		if err := rows.Scan(&p.ID, &entry, &p.Name, &p.Email, &p.Section, &p.LMSID, &p.Login); err != nil {
			return nil, err
		}
		if entry != p.ID {
			p.Team = entry
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SetPseudonym is the name an entry's student chose to be shown by on
// a leaderboard of pseudonyms: 1 to 24 characters, letters, digits,
// spaces and . - _, not another entry's.
func (s *Store) SetPseudonym(ctx context.Context, entry, pseudonym string) error {
	pseudonym = strings.TrimSpace(pseudonym)
	if pseudonym != "" {
		if len(pseudonym) > 24 {
			return errors.New("a pseudonym is at most 24 characters")
		}
		for _, r := range pseudonym {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" .-_", r)) {
				return fmt.Errorf("a pseudonym is letters, digits, spaces and . - _ (not %q)", r)
			}
		}
	}
	return s.tx(ctx, func(t *sql.Tx) error {
		var n int
		if err := t.QueryRow(`SELECT count(*) FROM students WHERE pseudonym = ? AND name != ? AND ? != ''`, pseudonym, entry, pseudonym).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%q is another student's pseudonym already", pseudonym)
		}
		_, err := t.Exec(`UPDATE students SET pseudonym = ? WHERE name = ?`, pseudonym, entry)
		return err
	})
}
