package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/atomicfile"
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
	dir := opts.Dir
	if err := prepareDir(dir, plan); err != nil {
		return nil, err
	}
	s := NewStandings(plan)
	done := make([]bool, plan.Games())
	path := filepath.Join(dir, JournalFile)
	end, dropped, err := ReadJournal(path, func(e Entry) error {
		if e.Index >= 0 && e.Index < len(done) && done[e.Index] {
			return fmt.Errorf("game %d (%s) is recorded twice", e.Index, e.ID)
		}
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
	j, err := openJournal(path, end)
	if err != nil {
		return nil, err
	}
	defer j.close()

	var todo []int
	for k := range plan.Games() {
		if !done[k] && plan.Shard.Has(k/2) {
			todo = append(todo, k)
		}
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	r := &runner{plan: plan, opts: opts, journal: j, standings: s, left: len(todo)}
	if plan.Format == SPRTMatch && s.Decision != "" {
		return s, nil
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				if err := r.play(ctx, k); err != nil {
					r.fail(err, stop)
				}
			}
		}()
	}
feed:
	for _, k := range todo {
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
func prepareDir(dir string, plan *Plan) error {
	replays := filepath.Join(dir, ReplayDir)
	if err := os.MkdirAll(replays, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(replays, ".writable-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write replays there: %v", replays, err)
	}
	f.Close()
	os.Remove(f.Name())
	// Replays half written when a run was killed (kill -9 leaves them).
	stale, _ := filepath.Glob(filepath.Join(replays, ".*.tmp"))
	for _, s := range stale {
		os.Remove(s)
	}
	old, err := loadPlan(dir)
	if err != nil {
		return err
	}
	if old == nil {
		return savePlan(dir, plan)
	}
	if diff := plan.Same(old); diff != "" || old.Shard != plan.Shard {
		if diff == "" {
			diff = fmt.Sprintf("it is shard %s, not %s", old.Shard, plan.Shard)
		}
		return fmt.Errorf("%s: this directory holds another tournament (%s): give another -o, or the same arguments to resume it", filepath.Join(dir, PlanFile), diff)
	}
	return nil
}

// runner is one run's shared state.
type runner struct {
	plan      *Plan
	opts      Options
	journal   *journal
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
	return r.err != nil || (r.plan.Format == SPRTMatch && r.standings.Decision != "")
}

func (r *runner) fail(err error, stop func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
		stop()
	}
}

// play plays game k, writes its replay and records it.
func (r *runner) play(ctx context.Context, k int) error {
	g := r.plan.At(k)
	setup, err := r.plan.Setup(g)
	if err != nil {
		return err
	}
	setup.Log = r.opts.Log
	rec, err := match.Play(ctx, setup)
	if ctx.Err() != nil {
		return nil // cut short: not recorded, played again next run
	}
	if err != nil {
		r.mu.Lock()
		if r.unplayed == nil {
			r.unplayed = fmt.Errorf("game %s: %v", g.ID(r.plan), err)
		}
		r.nUnplayed++
		r.mu.Unlock()
		return nil
	}
	e := entryOf(r.plan, g, rec)
	replay := filepath.Join(r.opts.Dir, e.Replay)
	if err := atomicfile.Write(replay, func(w io.Writer) error { return match.SaveReplay(w, rec) }); err != nil {
		return fmt.Errorf("%s: %v", replay, err)
	}
	if err := r.journal.append(e); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.standings.Add(e); err != nil {
		return err
	}
	r.left--
	if r.opts.Progress != nil {
		r.opts.Progress(e, r.standings, r.left)
	}
	return nil
}

// entryOf sums up a played game for the journal.
func entryOf(p *Plan, g Game, rec *match.Record) Entry {
	e := Entry{Index: g.Index, ID: g.ID(p), Seed: g.Seed, Result: rec.Result,
		Seats:  [2]string{p.Entrants[g.Seats[0]].Name, p.Entrants[g.Seats[1]].Name},
		Replay: filepath.ToSlash(filepath.Join(ReplayDir, g.ID(p)+".json"))}
	for _, t := range rec.Turns {
		for side := range 2 {
			if t.Actions[side] == nil && t.Think[side] == 0 {
				continue
			}
			e.Moves[side]++
			ms := float64(t.Think[side]) / float64(time.Millisecond)
			e.ThinkMs[side] += ms
			e.MaxMs[side] = max(e.MaxMs[side], ms)
			if why := t.Replaced[side]; why != "" {
				if e.Replaced[side] == 0 {
					e.ReplacedWhy[side] = why
				}
				e.Replaced[side]++
			}
		}
	}
	for side := range 2 {
		e.ThinkMs[side] = round3(e.ThinkMs[side])
		e.MaxMs[side] = round3(e.MaxMs[side])
	}
	return e
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
