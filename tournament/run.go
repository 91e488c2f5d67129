package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
)

// Options are how a run is carried out; they change no result.
type Options struct {
	Dir  string // the tournament's directory
	Jobs int    // games played at once; 0: one per core
	// Progress, when set, hears each game recorded, with the standings so
	// far (read-only) and the count of games this run has left.
	Progress func(e Entry, s *Standings, left int)
	// Log hears what a person must know (where network players listen).
	Log io.Writer
	// Hosting is how the entrants' programs run (-python, -caps).
	Hosting play.Hosting
}

// ErrUnplayed is returned, wrapped, when games could not be played (a
// program that would not start): a rerun tries them again.
var ErrUnplayed = errors.New("games not played")

// Run plays the games of the plan that its directory's journal lacks,
// records each as it ends and returns the standings of every game
// recorded. Run again after a crash, an interrupt or kill -9, it plays
// only what is missing, and the standings are those of an uninterrupted
// run. A cancelled context stops it between games' moves; the games cut
// short are not recorded.
func Run(ctx context.Context, plan *Plan, opts Options) (*Standings, error) {
	if err := plan.Check(); err != nil {
		return nil, err
	}
	d, err := safefile.OpenDir(opts.Dir, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	unlock, err := lockDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := prepareDir(d, plan); err != nil {
		return nil, err
	}
	s := NewStandings(plan)
	done := make([]bool, plan.Games())
	end, dropped, err := readJournal(d, JournalFile, func(e Entry) error {
		if err := s.Add(e); err != nil {
			return err
		}
		done[e.Index] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if dropped != "" && opts.Log != nil {
		fmt.Fprintln(opts.Log, dropped)
	}
	j, err := openJournal(d, end)
	if err != nil {
		return nil, err
	}
	s, err = playMissing(ctx, plan, opts, d, s, done, j)
	if cerr := j.close(); err == nil && cerr != nil {
		err = cerr
	}
	return s, err
}

// playMissing plays the games of the plan that are not done in this
// process, and one goroutine writes what they played, each game's replay
// and then its journal line, so that no game waits for the disk.
func playMissing(ctx context.Context, plan *Plan, opts Options, d *safefile.Dir, s *Standings, done []bool, j *journal) (*Standings, error) {
	gs := Games{Plan: plan, Jobs: opts.Jobs, Progress: opts.Progress,
		Play: func(ctx context.Context, g Game) (*play.Record, error) {
			setup, err := plan.Setup(g)
			if err != nil {
				return nil, err
			}
			setup.Log, setup.Hosting = opts.Log, opts.Hosting
			return play.Play(ctx, setup)
		},
		Keep: func(e Entry, rec *play.Record) error {
			if err := d.WriteFile(e.Replay, func(w io.Writer) error { return play.SaveReplay(w, rec) }); err != nil {
				return fmt.Errorf("%s: %v", d.Join(e.Replay), err)
			}
			return j.append(e)
		}}
	return gs.Run(ctx, s, done)
}

// Games plays a plan's games with the playing and the keeping given: Run
// plays them in this process and keeps them in a directory; the page
// plays each in a worker of its own and keeps them in the browser. The
// schedule, the seeds, the counting and the standings are the same.
type Games struct {
	Plan *Plan
	Jobs int // games played at once; 0: one per core
	// Play plays one game of the schedule. An error is a game that could
	// not be played (a program that would not start): it is not recorded,
	// and a later run plays it again.
	Play func(ctx context.Context, g Game) (*play.Record, error)
	// Keep records a game played, its entry (EntryOf) and its record, one
	// game at a time; an error stops the run.
	Keep func(e Entry, rec *play.Record) error
	// Progress, when set, hears each game kept, as Options.Progress.
	Progress func(e Entry, s *Standings, left int)
}

// Run plays the games of the plan that are not done (done[k] for game
// k), adding each to s once kept, jobs goroutines playing them and one
// keeping them. It returns s, and why it stopped early: ctx ended (the
// games cut short are not kept), Keep failed, or games could not be
// played (ErrUnplayed).
func (gs Games) Run(ctx context.Context, s *Standings, done []bool) (*Standings, error) {
	plan := gs.Plan
	missing := func(k int) bool { return !done[k] && plan.Shard.Has(k/2) }
	left := 0
	for k := range plan.Games() {
		if missing(k) {
			left++
		}
	}
	if left == 0 || (plan.Format == SPRTMatch && s.Decision != "") {
		return s, nil
	}
	jobs := gs.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	r := &runner{games: gs, standings: s, left: left}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	next := make(chan int)
	played := make(chan playedGame, 2*jobs) // bounded: each holds a whole match
	written := make(chan struct{})
	go func() {
		defer close(written)
		for p := range played {
			if err := r.record(p); err != nil {
				r.fail(err, stop)
			}
		}
	}()
	var wg sync.WaitGroup
	for range min(jobs, left) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				if p, ok := r.play(ctx, k); ok {
					played <- p
				}
			}
		}()
	}
feed:
	for k := range plan.Games() {
		if !missing(k) {
			continue
		}
		if r.decided() {
			break
		}
		select {
		case next <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(played)
	<-written
	if r.err != nil {
		return s, r.err
	}
	if r.unplayed != nil {
		return s, fmt.Errorf("%w: %d (the first: %v); run again to play them", ErrUnplayed, r.nUnplayed, r.unplayed)
	}
	return s, ctx.Err()
}

// prepareDir makes the directory and its replays' directory, checks that
// both can be written, and keeps the plan there, or checks that the plan
// there is this one.
func prepareDir(d *safefile.Dir, plan *Plan) error {
	if err := d.MkdirAll(ReplayDir); err != nil {
		return err
	}
	probe := ReplayDir + "/.writable"
	if err := d.WriteFile(probe, func(io.Writer) error { return nil }); err != nil {
		return fmt.Errorf("%s: cannot write replays there: %v", d.Join(ReplayDir), err)
	}
	d.Remove(probe)
	// Replays half written when a run was killed (kill -9 leaves them).
	d.RemoveTemps(ReplayDir)
	d.RemoveTemps(".")
	old, err := loadPlan(d)
	if err != nil {
		return err
	}
	if old == nil {
		return savePlan(d, plan)
	}
	if diff := plan.Same(old); diff != "" || old.Shard != plan.Shard {
		if diff == "" {
			diff = fmt.Sprintf("it is shard %s, not %s", old.Shard, plan.Shard)
		}
		return fmt.Errorf("%s: this directory holds another tournament (%s): give another -o, or the same arguments to resume it", d.Join(PlanFile), diff)
	}
	return nil
}

// runner is one run's shared state.
type runner struct {
	games     Games
	mu        sync.Mutex // guards what follows
	standings *Standings
	left      int
	err       error
	unplayed  error
	nUnplayed int
}

func (r *runner) decided() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil || (r.games.Plan.Format == SPRTMatch && r.standings.Decision != "")
}

func (r *runner) fail(err error, stop func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
		stop()
	}
}

// playedGame is a game played, on its way to the disk.
type playedGame struct {
	g   Game
	rec *play.Record
}

// play plays game k; false when it was cut short or could not be played.
func (r *runner) play(ctx context.Context, k int) (playedGame, bool) {
	g := r.games.Plan.At(k)
	rec, err := r.games.Play(ctx, g)
	if ctx.Err() != nil {
		return playedGame{}, false // cut short: not recorded, played again next run
	}
	if err == nil {
		return playedGame{g, rec}, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unplayed == nil {
		r.unplayed = fmt.Errorf("game %s: %v", g.ID(r.games.Plan), err)
	}
	r.nUnplayed++
	return playedGame{}, false
}

// record keeps a played game (in Run, its replay is written in place,
// not renamed into it, and then its journal line: until the journal line
// names it, a replay cut short by a crash is not part of the tournament,
// and the game that rewrites it is played again), and counts it.
func (r *runner) record(p playedGame) error {
	e := EntryOf(r.games.Plan, p.g, p.rec)
	if err := r.games.Keep(e, p.rec); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.standings.Add(e); err != nil {
		return err
	}
	r.left--
	if r.games.Progress != nil {
		r.games.Progress(e, r.standings, r.left)
	}
	return nil
}

// EntryOf sums up a played game for the journal.
func EntryOf(p *Plan, g Game, rec *play.Record) Entry {
	e := Tally(rec)
	e.Index, e.ID, e.Seed = g.Index, g.ID(p), g.Seed
	e.Seats = [2]string{p.Entrants[g.Seats[0]].Name, p.Entrants[g.Seats[1]].Name}
	e.Replay = replayName(p, g)
	return e
}

// Tally is what a played game's entry counts of its record: its result,
// each seat's moves, their thinking time in all and at the longest, and
// the moves the rules replaced, with the first reason. A class ladder
// keeps it for each game its workers play, as a tournament's journal
// does.
func Tally(rec *play.Record) Entry {
	e := Entry{Result: rec.Result}
	for _, t := range rec.Turns {
		for side := range 2 {
			if t.Actions[side] == nil && t.Think[side] == 0 {
				continue
			}
			e.Moves[side]++
			ms := float64(t.Think[side]) / float64(time.Millisecond)
			e.ThinkMs[side] += ms
			e.MaxMs[side] = max(e.MaxMs[side], ms)
		}
	}
	rp := rec.Replacements()
	e.Replaced, e.ReplacedWhy = rp.Replaced, rp.ReplacedWhy
	for side := range 2 {
		e.ThinkMs[side] = round3(e.ThinkMs[side])
		e.MaxMs[side] = round3(e.MaxMs[side])
	}
	return e
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
