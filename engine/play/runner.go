package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// Setup is everything a match depends on. The same setup plays the same
// match on every machine, as long as the bots' budgets count nodes.
type Setup struct {
	Game    match.Game
	Config  match.Config // nil: the game's default config
	Seed    uint64
	Players [2]Spec
	// Bots, when set, are used instead of making bots from Players (a
	// person in the window, a bot under test); Players still names them.
	Bots [2]match.Bot
	// ClockAll puts built-in bots under the game's clock too, as the
	// original servers did for every player. By default only programs
	// (see [Timed]) are timed, so the same setup plays the same match on
	// an idle and on a busy machine.
	ClockAll bool
	// Log, when set, hears what a person waiting on the match must know:
	// the address each network player listens on, once it listens
	// ("P1 listening on 127.0.0.1:9000"), so that scripts can wait for it.
	Log io.Writer
	// Said, when set, hears each line the programs write for people (a
	// student's prints, on their standard error) as it comes, after the
	// seat's name: the command line's standard error, unless -quiet.
	// Each move's lines are kept in its note whether or not.
	Said io.Writer
	// StateBudget is how many bytes of states the record keeps before it
	// thins them to snapshots (0: the package's StateBudget). A process
	// that only streams the turns to another, which keeps the states
	// itself (the page's worker), keeps little.
	StateBudget int
	// Hosting is how the match's programs are run (-python, -caps).
	Hosting Hosting
	// ClockFactor stretches a side's clock (0 is 1): a course's
	// accommodation, 1.5 for half as much time again. The record keeps
	// it.
	ClockFactor [2]float64
}

// TurnLog is what happened in one turn, from the state before it.
type TurnLog struct {
	Actions [2]match.Action // nil for a side that did not move
	Notes   [2]*KeptNote
	// Think is each side's thinking time. It is machine-dependent, so
	// replays leave it out.
	Think [2]time.Duration
	// Replaced says why a side's action was replaced by the game's
	// substitute (games with a Substituter); empty otherwise.
	Replaced [2]string
	// Failed marks a side whose bot gave no action (it crashed, ran out
	// of time or answered nonsense), as against one whose action the
	// rules refused: a ladder refuses a version whose program fails in
	// its check game even where the rules play on. Like Think, it is this
	// run's, and replays leave it out.
	Failed [2]bool
	// Late marks a failure that was an answer past its clock (ErrLate).
	Late [2]bool
}

// Runner plays a match one turn at a time, so that a window can show it as
// it is computed. Step and Record may be called from different goroutines.
type Runner struct {
	setup  Setup
	bots   [2]match.Bot
	budget [2]match.Budget
	rands  [2]*rand.Rand
	clocks [2]match.Clock
	subst  Substituter
	// lastNote is each side's last note: a note equal to it is kept as
	// the same pointer, so that a bot that says the same thing every turn
	// of a million (an Evasion hunter waiting for its cooldown) costs the
	// record one note, not a million.
	lastNote [2]*KeptNote
	// noted is the bytes of the notes kept so far (MaxMatchNotes).
	noted int
	// unstarted is why a side's bot could not begin the match (a go:
	// bot whose package initialisation panics or loops): it loses as a
	// bot that cannot move does, at each turn it is asked.
	unstarted [2]error

	mu  sync.Mutex
	rec Record
}

// StartError is a side's bot that could not be made for a match: a
// program that would not start, an agent file with a Python error. Every
// match with it would fail alike.
type StartError struct {
	Side match.Side
	Err  error
}

func (e *StartError) Error() string { return e.Side.String() + ": " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// HostError is a program that could not start for want of something
// the host provides, not for anything in the program: no Python, NumPy
// missing for it, a runtime not installed. A class ladder tells its
// staff, and checks the version again once the host is fixed, not
// counting it against its student.
type HostError struct{ Err error }

func (e *HostError) Error() string { return e.Err.Error() }
func (e *HostError) Unwrap() error { return e.Err }

// HostFault reports whether err is, or wraps, a HostError.
func HostFault(err error) bool {
	var h *HostError
	return errors.As(err, &h)
}

// NewRunner checks the setup, makes the bots and the initial state.
func NewRunner(s Setup) (*Runner, error) {
	rec, err := s.start()
	if err != nil {
		return nil, err
	}
	s.Config = rec.Config
	r := &Runner{setup: s}
	r.subst, _ = s.Game.(Substituter)
	for _, side := range match.Sides {
		spec := s.Players[side]
		if r.bots[side] = s.Bots[side]; r.bots[side] == nil {
			b, _, opts, err := NewBot(s.Game, spec, s.Hosting)
			if err != nil {
				r.Close()
				return nil, &StartError{Side: side, Err: err}
			}
			r.bots[side], r.budget[side] = b, opts.Budget
			r.rands[side] = match.BotRand(s.Seed, side, opts)
		} else {
			r.rands[side] = match.BotRand(s.Seed, side, match.Options{})
		}
		if r.timed(side) {
			r.clocks[side] = s.Game.Clock(s.Config, side)
		}
	}
	if s.Said != nil {
		for _, side := range match.Sides {
			if sp, ok := r.bots[side].(Speaker); ok {
				sp.SayTo(s.Said, side)
			}
		}
	}
	if s.Log != nil {
		for _, side := range match.Sides {
			if l, ok := r.bots[side].(Logger); ok {
				l.LogTo(s.Log, side)
			}
			if l, ok := r.bots[side].(Listener); ok && l.Listening() != "" {
				fmt.Fprintf(s.Log, "%s listening on %s\n", side, l.Listening())
			}
		}
	}
	if err := r.begin(); err != nil {
		r.Close()
		return nil, err
	}
	r.rec = rec
	if r.finishIfOver() {
		r.tellEnd(rec.Last())
	}
	return r, nil
}

// begin tells the bots that keep a copy of the match (Mirror) how it
// begins; one that cannot begin is kept from moving (unstarted).
func (r *Runner) begin() error {
	var st *Start
	for _, side := range match.Sides {
		m, ok := r.bots[side].(Mirror)
		if !ok {
			continue
		}
		if st == nil {
			s, err := NewStart(r.setup, nil)
			if err != nil {
				return err
			}
			st = &s
		}
		if err := m.Begin(*st, side); err != nil {
			r.unstarted[side] = fmt.Errorf("the bot could not start: %w", err)
		}
	}
	return nil
}

// start returns the record of the setup's match before its first turn:
// the config (the game's default when the setup has none) and the
// initial state.
func (s Setup) start() (Record, error) {
	if s.Config == nil {
		s.Config = match.DefaultConfig(s.Game)
	}
	init, err := s.Game.Start(s.Config, s.Seed)
	if err != nil {
		return Record{}, err
	}
	r := newRecord(s.Game, s.Config, s.Seed, [2]string{s.Players[match.P1].String(), s.Players[match.P2].String()}, init, s.StateBudget)
	for side, f := range s.ClockFactor {
		if f > 0 && f != 1 {
			r.ClockFactor[side] = f
		}
	}
	return r, nil
}

// timed reports whether the game's clock rules side's bot: a program
// always, a built-in bot when the setup asks for clocks for all, a person
// never.
func (r *Runner) timed(side match.Side) bool {
	if t, ok := r.bots[side].(Timed); ok {
		return t.Timed()
	}
	return r.setup.ClockAll && r.setup.Players[side].Name != Person
}

// Done reports whether the match is over.
func (r *Runner) Done() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec.Result != nil
}

// Record returns the match so far. The slices are shared with the runner,
// which only appends, so the snapshot stays valid as the match goes on.
func (r *Runner) Record() *Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	rec := r.rec
	return &rec
}

// Close releases the bots' resources (external processes).
func (r *Runner) Close() {
	for _, b := range r.bots {
		if c, ok := b.(Closer); ok {
			c.Close()
		}
	}
}

// Step plays one turn. It returns the context's error when the match was
// cancelled, and nil otherwise: a bot's failure is part of the result.
func (r *Runner) Step(ctx context.Context) error {
	r.mu.Lock()
	state, done := r.rec.Last(), r.rec.Result != nil
	r.mu.Unlock()
	if done {
		return nil
	}
	// Network players are seated before anyone moves, so that a client
	// hears the opening and every move of its game, the other side's
	// first one too. A failure shows when the side is asked to move.
	for _, side := range match.Sides {
		if c, ok := r.bots[side].(Connecter); ok {
			c.Connect(ctx, state, side, r.left(state, side))
		}
	}
	movers := state.ToMove()
	var log TurnLog
	var faults []Forfeit
	for _, side := range match.Sides {
		if !movers.Has(side) {
			continue
		}
		a, note, think, err := r.ask(ctx, state, side)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		kept := r.lastNote[side]
		switch {
		case note == nil:
			kept = nil
		case kept == nil || !note.Equal(kept.Get()):
			kept = Kept(r.keep(note))
		}
		r.lastNote[side] = kept
		log.Notes[side], log.Think[side] = kept, think
		log.Failed[side] = err != nil
		log.Late[side] = errors.Is(err, match.ErrLate)
		if err == nil {
			err = state.Check(side, a)
		}
		if err != nil && r.subst != nil {
			log.Replaced[side] = err.Error()
			a, err = r.subst.Substitute(state, side, r.rands[side], err), nil
		}
		if err != nil {
			faults = append(faults, Forfeit{Side: side, Turn: state.Turn(), Reason: err.Error(), Action: encodeLoose(a)})
			continue
		}
		log.Actions[side] = a
	}
	if faults != nil {
		r.mu.Lock()
		r.rec.Result = forfeitResult(state, faults)
		r.mu.Unlock()
		r.tellEnd(state)
		return nil
	}
	next := state.Apply(log.Actions)
	r.mu.Lock()
	r.rec.push(next, &log)
	over := r.finishIfOver()
	r.mu.Unlock()
	for _, b := range r.bots {
		if m, ok := b.(Mirror); ok {
			m.Moved(log.Actions)
		}
		if w, ok := b.(Watcher); ok {
			w.Watch(next)
		}
	}
	if over {
		r.tellEnd(next)
	}
	return nil
}

// finishIfOver sets the result when the last state ends the game and
// reports whether it did; the bots are then told with tellEnd, outside
// the lock (a program may be told after a pause). The caller holds r.mu
// (or owns r alone).
func (r *Runner) finishIfOver() bool {
	last := r.rec.Last()
	if last.ToMove() == match.Nobody {
		r.rec.Result = &Result{Outcome: last.Outcome(), Turns: last.Turn()}
		return true
	}
	return false
}

// left is what side's clock leaves for its next move in s, or 0.
func (r *Runner) left(s match.State, side match.Side) time.Duration {
	if c := r.clocks[side]; c != nil {
		return c.Left(s)
	}
	return 0
}

// tellEnd gives the final state to the bots that want it.
func (r *Runner) tellEnd(s match.State) {
	for side, b := range r.bots {
		if e, ok := b.(Ender); ok {
			e.End(s, match.Side(side))
		}
	}
}

// ask gets side's action, turning a panic, an error or an overrun of the
// clock into an error.
func (r *Runner) ask(ctx context.Context, s match.State, side match.Side) (a match.Action, note *match.Note, think time.Duration, err error) {
	bot := r.bots[side]
	if err := r.unstarted[side]; err != nil {
		return nil, nil, 0, err
	}
	if c, ok := bot.(Connecter); ok {
		if err := c.Connect(ctx, s, side, r.left(s, side)); err != nil {
			return nil, nil, r.charged(side), err
		}
	}
	if f, ok := bot.(Flusher); ok {
		if err := f.Flush(ctx); err != nil {
			return nil, nil, r.charged(side), err
		}
	}
	charged := r.charged(side)
	f := r.setup.ClockFactor[side]
	if f <= 0 {
		f = 1
	}
	var allow time.Duration
	if c := r.clocks[side]; c != nil {
		allow = max(time.Duration(float64(c.Begin(s))*f)-charged, time.Millisecond)
	}
	t := match.NewTurnContext(ctx, s, side, r.rands[side], r.budget[side], allow)
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("bot crashed: %v [%s]", p, panicSite(debug.Stack()))
			}
		}()
		a, err = r.bots[side].Act(t)
		if err == nil && a == nil {
			err = errors.New("bot returned no action")
		}
	}()
	think = charged + t.Elapsed()
	if m, ok := bot.(Metered); ok {
		if d, ok := m.Spent(); ok {
			think = charged + d
			r.mu.Lock()
			r.rec.Clock = CPUClock
			r.mu.Unlock()
		}
	}
	if c := r.clocks[side]; c != nil && ctx.Err() == nil {
		// The clock's rule counts in its own time: a side's stretched
		// clock runs slower by its factor.
		if cerr := c.End(time.Duration(float64(think) / f)); cerr != nil && err == nil {
			if f != 1 {
				cerr = match.Late(fmt.Sprintf("%v (its clock stretched %gx)", cerr, f))
			}
			err = cerr
		}
	}
	if !t.Note.Empty() {
		n := t.Note
		n.Bound()
		note = &n
	}
	return a, note, think, err
}

// keep counts a new note against the match's MaxMatchNotes, and returns
// it, or, once past, the note that says the rest are not kept (once), or
// nil.
func (r *Runner) keep(n *match.Note) *match.Note {
	if r.noted > MaxMatchNotes {
		return nil
	}
	if r.noted += n.Size(); r.noted > MaxMatchNotes {
		return &match.Note{Text: fmt.Sprintf("the bots' notes of this match passed %d MB here: from this move on they are not kept", MaxMatchNotes>>20)}
	}
	return n
}

// charged is what side's bot spent outside its moves that its clock pays.
func (r *Runner) charged(side match.Side) time.Duration {
	if c, ok := r.bots[side].(Charger); ok {
		return c.Charged()
	}
	return 0
}

// panicSite returns the function and line where a panic started: the
// first frame after the last panic call in the stack that is not in the
// runtime, so that a forfeit says where the bot broke.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	start := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			start = i + 2 // skip the panic frame's file line
		}
	}
	for i := start; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if fn == "" || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if k := strings.LastIndex(file, " +0x"); k > 0 {
			file = file[:k]
		}
		if k := strings.LastIndexByte(fn, '('); k > 0 {
			fn = fn[:k]
		}
		return fn + " at " + file
	}
	return "unknown site"
}

// encodeLoose writes an action for a forfeit record, or nothing when it
// cannot be written.
func encodeLoose(a match.Action) []byte {
	if a == nil {
		return nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil
	}
	return b
}

// Play runs a whole match.
func Play(ctx context.Context, s Setup) (*Record, error) {
	r, err := NewRunner(s)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for !r.Done() {
		if err := r.Step(ctx); err != nil {
			return r.Record(), err
		}
	}
	return r.Record(), nil
}

// forfeitResult makes the result of a match lost by forfeit at state s.
func forfeitResult(s match.State, fs []Forfeit) *Result {
	r := &Result{Turns: s.Turn(), Forfeits: fs}
	r.Scores = s.Outcome().Scores
	var reasons []string
	for _, f := range fs {
		reasons = append(reasons, fmt.Sprintf("%s forfeits at turn %d: %s", f.Side, f.Turn, f.Reason))
	}
	r.Reason = strings.Join(reasons, "; ")
	r.Winner = match.NoSide
	if len(fs) == 1 {
		r.Winner = fs[0].Side.Other()
	}
	return r
}

// Substituter is implemented by games whose rules replace a late, invalid or
// crashing move instead of forfeiting the game (Colosseum's random walk).
type Substituter interface {
	// Substitute returns the action played in place of side's, drawn from
	// the match's source r; why is what was wrong with side's.
	Substitute(s match.State, side match.Side, r *rand.Rand, why error) match.Action
}
