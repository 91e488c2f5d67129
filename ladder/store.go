package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go
)

// DBFile is the ladder's database, in its directory.
const DBFile = "ladder.db"

// Store is a ladder's state. Every change is one transaction, synced
// before it returns (WAL, synchronous=FULL): what a caller was told was
// accepted survives kill -9 and a power cut.
type Store struct {
	// Width is the interval (Elo) below which a version's rating is
	// established (0: DefaultWidth); it is provisional until then, or
	// until it has ProvisionalGames games.
	Width float64
	// Log, when set, is told what the staff should know: a version
	// refused, and why; one the host could not check.
	Log func(string)

	db         *sql.DB
	dir        string
	driller    *Player       // how a new version's suite is played (DrillWith); nil: none
	changes    atomic.Uint64 // writes since opened: what a cached page was made from
	standings  standingsCache
	scheduling sync.Mutex // one Schedule at a time: it reads, then writes
	played     played     // the ladder's results, for the scheduler
}

// schema is the ladder's tables. A version's files are kept in the
// database, as the tar archive upload.go makes, so that a submission is
// accepted whole or not at all.
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students (name TEXT PRIMARY KEY); -- the entries: a team, or a student alone
CREATE TABLE IF NOT EXISTS people (
	id TEXT PRIMARY KEY,         -- the roster's id: what a grade book matches on
	entry TEXT NOT NULL REFERENCES students(name),
	name TEXT NOT NULL DEFAULT '',
	email TEXT NOT NULL DEFAULT '',
	section TEXT NOT NULL DEFAULT '',
	lms_id TEXT NOT NULL DEFAULT '',
	login TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS tokens (
	hash TEXT PRIMARY KEY,
	role TEXT NOT NULL,     -- student, staff or worker
	student TEXT NOT NULL   -- the student's entry; '' for staff and workers
);
CREATE TABLE IF NOT EXISTS versions (
	id INTEGER PRIMARY KEY,
	student TEXT NOT NULL REFERENCES students(name),
	number INTEGER NOT NULL,     -- 1, 2, ... for each student
	submitted INTEGER NOT NULL,  -- Unix milliseconds
	kind TEXT NOT NULL,          -- go or program
	command TEXT NOT NULL,       -- a program's command line, in its folder
	digest TEXT NOT NULL,        -- of its files, short
	size INTEGER NOT NULL,
	files BLOB NOT NULL,         -- a tar archive of checked names
	state TEXT NOT NULL,         -- checking, ready or refused
	reason TEXT NOT NULL DEFAULT '',
	UNIQUE (student, number)
);
CREATE TABLE IF NOT EXISTS games (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,          -- check, ladder or final
	p1 INTEGER NOT NULL,         -- a version; 0 is the built-in random bot
	p2 INTEGER NOT NULL,
	seed INTEGER NOT NULL,
	round INTEGER NOT NULL DEFAULT 0,
	state TEXT NOT NULL,         -- queued, leased or done
	lease TEXT NOT NULL DEFAULT '',
	worker TEXT NOT NULL DEFAULT '',
	until INTEGER NOT NULL DEFAULT 0, -- the lease's end, Unix milliseconds
	result TEXT NOT NULL DEFAULT '',  -- play.Result as JSON, once done
	points1 REAL NOT NULL DEFAULT 0,  -- P1's points
	failure TEXT NOT NULL DEFAULT '', -- a game that could not be played: why
	fault1 TEXT NOT NULL DEFAULT '',  -- P1's first failure to answer (a crash, a time-out), where the rules played on
	fault2 TEXT NOT NULL DEFAULT '',
	replay BLOB,
	finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS workers (
	name TEXT PRIMARY KEY,
	seen INTEGER NOT NULL,            -- its last request for a game, Unix milliseconds
	game INTEGER NOT NULL DEFAULT 0   -- the last game it took
);
CREATE TABLE IF NOT EXISTS reports ( -- a ladder game's report, made when the server has a core to spare
	game INTEGER PRIMARY KEY REFERENCES games(id),
	made INTEGER NOT NULL,  -- Unix milliseconds
	data BLOB NOT NULL      -- a Lesson as JSON: the decisions that lost something, each side's figures
);
CREATE TABLE IF NOT EXISTS suites ( -- a version's drills: its student's past costliest decisions, played by it
	version INTEGER PRIMARY KEY REFERENCES versions(id),
	made INTEGER NOT NULL,  -- Unix milliseconds
	data BLOB NOT NULL      -- a Suite as JSON
);
CREATE INDEX IF NOT EXISTS games_state ON games (state, id);
CREATE INDEX IF NOT EXISTS games_p1 ON games (p1);
CREATE INDEX IF NOT EXISTS games_p2 ON games (p2);
`

// Open opens the ladder in dir, making the directory and its database
// when they are not there.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, DBFile)
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	// Every transaction takes the write lock when it begins, waiting
	// for it as busy_timeout says. A transaction begun deferred reads
	// first and asks for the lock at its first write; if another process
	// (a ladder's report maker) wrote in between, SQLite refuses at once,
	// SQLITE_BUSY, without waiting: a worker's result was lost that way.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	// One connection: SQLite has one writer, and every transaction
	// here is short; a second connection would only wait on the lock.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &Store{db: db, dir: dir}, nil
}

// columns are those added to a table since the ladder's first release:
// a ladder started with an earlier arena gains them, empty.
var columns = []struct{ table, name, def string }{
	// tally: the game's moves, thinking times and replaced moves
	// (tournament.Tally) as JSON, for the final's report.
	{"games", "tally", "TEXT NOT NULL DEFAULT ''"},
	// clock: the student's clock factor, an accommodation the staff give
	// (1.5: half as much time again); 1 for none.
	{"students", "clock", "REAL NOT NULL DEFAULT 1"},
	// The roster's names for an entry: a student's name or a team's,
	// its people's sections, and the pseudonym its student chose.
	{"students", "display", "TEXT NOT NULL DEFAULT ''"},
	{"students", "section", "TEXT NOT NULL DEFAULT ''"},
	{"students", "pseudonym", "TEXT NOT NULL DEFAULT ''"},
	// person: a student's token's holder, by the roster's id (a team's
	// people each have one).
	{"tokens", "person", "TEXT NOT NULL DEFAULT ''"},
	// cause: "host" where a version was refused for want of something on
	// the worker's host (its reason is the staff's).
	{"versions", "cause", "TEXT NOT NULL DEFAULT ''"},
	// host: the game's failure is the worker's host's, not a version's.
	{"games", "host", "INTEGER NOT NULL DEFAULT 0"},
	// enrolled: the person is on the roster the ladder last read (one
	// who left keeps their versions and games, and has no grade row).
	{"people", "enrolled", "INTEGER NOT NULL DEFAULT 1"},
	// file: the name the student gave their upload (bot.go, agent.zip),
	// shown on their page; never used as a path.
	{"versions", "file", "TEXT NOT NULL DEFAULT ''"},
}

func migrate(db *sql.DB) error {
	for _, c := range columns {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, c.table, c.name).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := db.Exec(`ALTER TABLE ` + c.table + ` ADD COLUMN ` + c.name + ` ` + c.def); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// tx runs f in a transaction, committed when f returns nil.
func (s *Store) tx(ctx context.Context, f func(*sql.Tx) error) error {
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(t); err != nil {
		t.Rollback()
		return err
	}
	defer s.changes.Add(1)
	return t.Commit()
}

// Meta reads a setting; "" when unset.
func (s *Store) Meta(key string) (string, error) {
	var v string
	err := s.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta writes a setting.
func (s *Store) SetMeta(key, value string) error {
	_, err := s.db.Exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	s.changes.Add(1)
	return err
}

// now is the store's clock, in Unix milliseconds.
func now() int64 { return time.Now().UnixMilli() }

// Setup fixes the ladder's game, board and config the first time it is
// served; later, it refuses others: the games played are of that game.
func (s *Store) Setup(game, board string, config []byte) error {
	was, err := s.Meta("game")
	if err != nil {
		return err
	}
	if was == "" {
		for k, v := range map[string]string{"game": game, "board": board, "config": string(config)} {
			if err := s.SetMeta(k, v); err != nil {
				return err
			}
		}
		return nil
	}
	wasBoard, _ := s.Meta("board")
	if was != game || wasBoard != board {
		return fmt.Errorf("%s: this ladder plays %s on %s, not %s on %s", filepath.Join(s.dir, DBFile), was, wasBoard, game, board)
	}
	return nil
}

// Board is the name of the board the ladder plays.
func (s *Store) Board() string {
	b, _ := s.Meta("board")
	return b
}
