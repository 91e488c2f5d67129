package ladder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/tournament"
)

// Work is a leased game with what a worker needs to play it anywhere:
// the game's config and both seats' programs.
type Work struct {
	Lease
	Game   string          `json:"game"`
	Config json.RawMessage `json:"config"`
	Seats  [2]*Program     `json:"programs"` // nil: the built-in random bot
}

// Program is a version as a worker plays it.
type Program struct {
	Version int64 `json:"version"`
	// Name is the version as its student knows it ("alice v3"), for what
	// the worker says of it.
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Command string `json:"command,omitempty"`
	Digest  string `json:"digest"`
	Files   []byte `json:"files"`
	// Clock is its student's clock factor, an accommodation (0 or 1:
	// none).
	Clock float64 `json:"clock,omitzero"`
}

// Source is where a worker's games come from: the ladder's own store
// (arena ladder serve -j N) or its server (arena ladder work).
type Source interface {
	// Next leases the next game, or returns nil when none is queued.
	Next(ctx context.Context) (*Work, error)
	// Send returns the game's outcome under its lease.
	Send(ctx context.Context, lease string, o Outcome) error
}

// LeaseTime is how long a worker holds a game before it goes to another:
// longer than any game's clocks allow.
const LeaseTime = 30 * time.Minute

// Work makes a lease into the work a worker is sent.
func (s *Store) Work(ctx context.Context, l *Lease) (*Work, error) {
	w := &Work{Lease: *l}
	w.Game, _ = s.Meta("game")
	cfg, _ := s.Meta("config")
	w.Config = json.RawMessage(cfg)
	for side, id := range l.Seats {
		if id == RandomBot {
			continue
		}
		p, err := s.program(ctx, id)
		if err != nil {
			return nil, err
		}
		w.Seats[side] = p
	}
	return w, nil
}

// program is version id as a worker plays it.
func (s *Store) program(ctx context.Context, id int64) (*Program, error) {
	p := &Program{Version: id}
	var student string
	var number int
	err := s.db.QueryRowContext(ctx, `SELECT v.student, v.number, v.kind, v.command, v.digest, v.files, s.clock FROM versions v JOIN students s ON s.name = v.student WHERE v.id = ?`, id).Scan(&student, &number, &p.Kind, &p.Command, &p.Digest, &p.Files, &p.Clock)
	if err != nil {
		return nil, fmt.Errorf("version %d: %v", id, err)
	}
	p.Name = fmt.Sprintf("%s v%d", student, number)
	return p, nil
}

// Local is the store as a worker's source, for the server's own workers.
type Local struct {
	Store  *Store
	Name   string
	Width  float64 // the scheduler's target width
	Queued int     // pairs kept queued
}

func (l Local) Next(ctx context.Context) (*Work, error) {
	if _, err := l.Store.Schedule(ctx, l.Width, l.Queued); err != nil {
		return nil, err
	}
	lease, err := l.Store.TakeLease(ctx, l.Name, LeaseTime)
	if err != nil || lease == nil {
		return nil, err
	}
	return l.Store.Work(ctx, lease)
}

func (l Local) Send(ctx context.Context, lease string, o Outcome) error {
	return l.Store.Finish(ctx, lease, o)
}

// Player plays leased games: it unpacks each version's files once into a
// folder of its own under Dir (named for the version and its digest,
// never for anything the student named), and plays the game with arena's
// players, every program in its box.
type Player struct {
	Dir string
	// Hosting is how the programs run (-python).
	Hosting play.Hosting
	// Runtimes are the programs a version's command may start beside its
	// own files (nil: DefaultRuntimes); a version that names another
	// fails its game here, whatever the server let through.
	Runtimes Runtimes
}

// Play plays a game of the ladder and says its outcome: a failure is a
// game that could not be played (a program that would not start, a go:
// file that does not compile), which the ladder does not rate.
func (p Player) Play(ctx context.Context, w *Work) Outcome {
	g, err := match.Lookup(w.Game)
	if err != nil {
		return Outcome{Failure: err.Error()}
	}
	cfg, err := g.LoadConfig("the ladder's config", w.Config)
	if err != nil {
		return Outcome{Failure: err.Error()}
	}
	setup := play.Setup{Game: g, Config: cfg, Seed: w.Seed, Hosting: p.Hosting}
	setup.Hosting.CPUClock = true // fair clocks: the worker's load decides no game
	for side, prog := range w.Seats {
		setup.Players[side] = play.Spec{Name: "random"}
		if prog != nil {
			if setup.Players[side], err = p.spec(prog); err != nil {
				return Outcome{Failure: p.words(w, err)}
			}
			if prog.Clock > 1 && prog.Clock <= play.MaxClockFactor {
				setup.ClockFactor[side] = prog.Clock
			}
		}
	}
	rec, err := play.Play(ctx, setup)
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{Failure: "the worker stopped: " + ctx.Err().Error(), Host: true}
		}
		return Outcome{Failure: p.words(w, err), Host: play.HostFault(err)}
	}
	// The ladder's replays keep each move's thinking time: a student
	// reads where their program spent its clock.
	var buf bytes.Buffer
	rp, err := rec.Replay()
	if err == nil {
		_, err = rp.WithTimes(rec).WriteTo(&buf)
	}
	if err != nil {
		return Outcome{Failure: "its replay: " + err.Error()}
	}
	replay := buf.Bytes()
	if len(replay) > MaxReplay {
		replay = nil // the result stands; the replay is too big to keep
	}
	tally := tournament.Tally(rec)
	tally.Result = nil // the result has a column of its own
	o := Outcome{Result: rec.Result, Replay: replay, Tally: &tally}
	o.Faults, o.Broke = faults(rec)
	for side := range 2 {
		o.Faults[side], o.Broke[side] = p.clean(w, o.Faults[side]), p.clean(w, o.Broke[side])
	}
	o.Result.Reason = p.clean(w, o.Result.Reason)
	for i := range o.Result.Forfeits {
		o.Result.Forfeits[i].Reason = p.clean(w, o.Result.Forfeits[i].Reason)
	}
	return o
}

// words says a game's failure as its students read it: each seat named
// by its version ("alice v3", not P1), and no folder of this worker's
// (a compiler's bot.go:12:2, not the unpacked folder's whole path).
func (p Player) words(w *Work, err error) string {
	msg := err.Error()
	var se *play.StartError
	if errors.As(err, &se) {
		name := "random"
		if prog := w.Seats[se.Side]; prog != nil {
			name = prog.Name
		}
		msg = name + ": " + se.Err.Error()
	}
	return p.clean(w, msg)
}

// clean takes this worker's folders out of what a program said.
func (p Player) clean(w *Work, msg string) string {
	for _, prog := range w.Seats {
		if prog == nil {
			continue
		}
		dir := filepath.Join(p.Dir, "v"+strconv.FormatInt(prog.Version, 10)+"-"+prog.Digest)
		msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, dir, ".")
	}
	return msg
}

// faults are each side's first failure to answer in a record, and its
// first other than an answer past its clock.
func faults(rec *play.Record) (first, broke [2]string) {
	for k, t := range rec.Turns {
		for side := range 2 {
			if !t.Failed[side] {
				continue
			}
			why := fmt.Sprintf("turn %d: %s", k, t.Replaced[side])
			if first[side] == "" {
				first[side] = why
			}
			if !t.Late[side] && broke[side] == "" {
				broke[side] = why
			}
		}
	}
	return first, broke
}

// spec is a program's seat: its files unpacked, and its command's words
// that name its own files made absolute (the program runs in a box of
// its own, where its folder is bound where it is). The box is told the
// folder is a student's upload: it gives the program that folder and its
// runtime alone, nothing another word names.
func (p Player) spec(prog *Program) (play.Spec, error) {
	dir, err := p.unpacked(prog)
	if err != nil {
		return play.Spec{}, err
	}
	switch {
	case prog.Kind == "go":
		return play.Spec{Name: "go", Command: filepath.Join(dir, "bot.go")}, nil
	case strings.HasPrefix(prog.Command, "py:"):
		file := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(prog.Command, "py:")))
		return play.Spec{Name: "py", Command: file, Upload: dir}, nil
	}
	words := strings.Fields(prog.Command)
	for i, w := range words {
		if name, err := cleanName(path.Clean(w)); err == nil {
			if st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil && st.Mode().IsRegular() {
				words[i] = filepath.Join(dir, filepath.FromSlash(name))
				continue
			}
		}
		if i == 0 && !p.Runtimes.orDefault().Allows(w) {
			return play.Spec{}, fmt.Errorf("%s: its command starts %q, neither a file of its upload nor a runtime this ladder allows", prog.Name, w)
		}
	}
	// A spec as a value: its words as they are (the folder's path may
	// hold spaces), never written to a string to be parsed again.
	return play.Spec{Name: "cmd", Command: strings.Join(words, " "), Args: words, Upload: dir}, nil
}

// unpacked is the folder of a version's files, unpacked once: into a
// temporary folder first, renamed when whole, so that a worker killed
// while unpacking leaves nothing half-made to play.
func (p Player) unpacked(prog *Program) (string, error) {
	dir := filepath.Join(p.Dir, "v"+strconv.FormatInt(prog.Version, 10)+"-"+prog.Digest)
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(p.Dir, ".unpacking-")
	if err != nil {
		return "", err
	}
	os.Chmod(tmp, 0o755)
	if err := Unpack(prog.Files, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("%s: its files: %v", prog.Name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(dir); serr == nil {
			return dir, nil // another worker of this machine made it first
		}
		return "", err
	}
	return dir, nil
}

// Serve plays the source's games until ctx ends: one at a time, waiting
// idle between polls when none is queued, or until wake (which may be
// nil) says one was. A game cut short by ctx is not sent: its lease ends
// and another worker plays it.
func (p Player) Serve(ctx context.Context, src Source, idle time.Duration, wake <-chan struct{}, log func(string)) error {
	for ctx.Err() == nil {
		w, err := src.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			log("leasing a game: " + err.Error())
			sleep(ctx, idle, wake)
			continue
		}
		if w == nil {
			sleep(ctx, idle, wake)
			continue
		}
		o := p.Play(ctx, w)
		if ctx.Err() != nil {
			return nil
		}
		if err := send(ctx, src, w, o, log); err != nil && ctx.Err() == nil {
			if errors.Is(err, ErrLeaseGone) {
				log(fmt.Sprintf("game %d: %v", w.ID, err))
				continue
			}
			log(fmt.Sprintf("game %d: its result is lost: %v", w.ID, err))
		}
	}
	return nil
}

// Resends are how long a worker waits before sending a result again
// that could not be taken: the first wait, and the longest.
var resendFirst, resendMost = time.Second, 30 * time.Second

// send sends a game's outcome, and sends it again, waiting longer each
// time, while the store or the network fails and its lease holds: a
// result is an hour of a student's program's play, and a busy server is
// no reason to lose it.
func send(ctx context.Context, src Source, w *Work, o Outcome, log func(string)) error {
	until := time.UnixMilli(w.Until)
	for wait := resendFirst; ; wait = min(2*wait, resendMost) {
		err := src.Send(ctx, w.Lease.Lease, o)
		var refused Refusal
		if err == nil || errors.Is(err, ErrLeaseGone) || errors.As(err, &refused) || ctx.Err() != nil {
			return err
		}
		if w.Until != 0 && time.Now().Add(wait).After(until) {
			return err
		}
		log(fmt.Sprintf("game %d: sending its result: %v; again in %v", w.ID, err, wait))
		sleep(ctx, wait, nil)
	}
}

func sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-wake:
	}
}
