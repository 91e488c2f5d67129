package play

import (
	"iter"
	"slices"
	"sync"

	"github.com/arena-playground/arena/engine/match"
)

// Record is a match as played so far: its states, what happened in each
// turn, and the result once it is over. State(k) is the state after k
// turns and Turns[k] what happened in it, so Len() == len(Turns)+1.
//
// A record keeps every state while they fit in StateBudget bytes. Past
// that it keeps a snapshot every so many turns (a stride that doubles
// each time the budget fills again) and rebuilds the states between
// snapshots from the turns when they are asked for: Apply is
// deterministic, so a rebuilt state is the state that was played. A
// 4096x4096 Life board for 3,000 turns thus holds 256 MB, not 12 GB.
//
// A Record is a value that shares its slices with the runner that fills
// it, which only appends; copies may be read from other goroutines.
type Record struct {
	Game    match.Game
	Config  match.Config
	Seed    uint64
	Players [2]string
	// Clock is CPUClock where a program's moves were charged the CPU
	// time they used; "" for the wall clock.
	Clock string
	// ClockFactor is each side's stretched clock (Setup.ClockFactor), 0
	// where it is not.
	ClockFactor [2]float64
	Turns       []TurnLog
	Result      *Result // nil while the match goes on

	states    []match.State // nil where only a snapshot before it is kept
	standings []Standing    // every state's, kept whatever the budget
	head      match.State   // the latest state in full, when states lacks it
	keep      *keeper
}

// StateBudget is how many bytes of states a record keeps before it thins
// them to snapshots. Sizes are the states' own estimates (Weigher).
const StateBudget = 256 << 20

// Standing is what a record remembers of every state, however thin: who
// is ahead and the scores, for timelines and charts.
type Standing struct {
	Winner match.Side
	Scores [2]match.Score
}

// Weigher is implemented by states that know roughly how many bytes they
// hold, beyond what they share with other states. States without it
// count as defaultStateSize.
type Weigher interface {
	Bytes() int
}

const defaultStateSize = 256

// Compacter is implemented by states that hold caches a record need not
// keep for every turn (Evasion's 11 KB occupancy grid). A record keeps
// each state as Compact returns it, and only the latest one in full.
type Compacter interface {
	// Compact returns the state without its caches; Apply on it must
	// give the same states as on the full one.
	Compact() match.State
}

// keeper is the part of a record that all its copies share: the
// accounting of the budget, and the states rebuilt lately.
type keeper struct {
	mu     sync.Mutex
	budget int
	bytes  int // sizes of the states kept
	stride int // 1: every state kept; else every stride-th
	recent [8]rebuilt
	next   int // recent's oldest entry
}

type rebuilt struct {
	k int
	s match.State
}

// newRecord starts a record at the initial state, keeping budget bytes
// of states (0: StateBudget).
func newRecord(g match.Game, cfg match.Config, seed uint64, players [2]string, init match.State, budget int) Record {
	if budget <= 0 {
		budget = StateBudget
	}
	r := Record{Game: g, Config: cfg, Seed: seed, Players: players,
		keep: &keeper{budget: budget, stride: 1}}
	r.push(init, nil)
	return r
}

// Len returns the number of states: one more than the turns played.
func (r *Record) Len() int { return len(r.states) }

// Standing returns who was ahead after k turns, and the scores.
func (r *Record) Standing(k int) Standing { return r.standings[k] }

// Last returns the latest state, in full: the one play goes on from.
func (r *Record) Last() match.State {
	if r.head != nil {
		return r.head
	}
	return r.State(len(r.states) - 1)
}

// State returns the state after k turns (0 <= k < Len()), rebuilding it
// from the snapshot before it when the record no longer keeps it. Going
// forward one turn at a time costs one Apply a turn.
func (r *Record) State(k int) match.State {
	kp := r.keep
	kp.mu.Lock()
	defer kp.mu.Unlock()
	if s := r.states[k]; s != nil {
		return s
	}
	if k == len(r.states)-1 && r.head != nil {
		return r.head
	}
	// Start from the nearest state at or before k that is at hand.
	from := k
	for r.states[from] == nil {
		from--
	}
	s := r.states[from]
	for _, c := range kp.recent {
		if c.s != nil && c.k <= k && c.k > from && c.k < len(r.states) {
			from, s = c.k, c.s
		}
	}
	for i := from; i < k; i++ {
		s = s.Apply(r.Turns[i].Actions)
		if c, ok := s.(Compacter); ok {
			s = c.Compact()
		}
	}
	kp.recent[kp.next] = rebuilt{k, s}
	kp.next = (kp.next + 1) % len(kp.recent)
	return s
}

// All yields the states in order, each with its number of turns.
func (r *Record) All() iter.Seq2[int, match.State] {
	return func(yield func(int, match.State) bool) {
		for k := range r.Len() {
			if !yield(k, r.State(k)) {
				return
			}
		}
	}
}

// push appends the state after a turn (log is nil for the initial state).
func (r *Record) push(s match.State, log *TurnLog) {
	o := s.Outcome()
	r.standings = appendDoubling(r.standings, Standing{o.Winner, o.Scores})
	if log != nil {
		r.Turns = appendDoubling(r.Turns, *log)
	}
	kp := r.keep
	kp.mu.Lock()
	defer kp.mu.Unlock()
	k := len(r.states)
	c, compacts := s.(Compacter)
	r.head = nil
	if compacts || k%kp.stride != 0 {
		r.head = s // the full state, which states holds compacted or not at all
	}
	if k%kp.stride != 0 {
		r.states = appendDoubling(r.states, nil)
		return
	}
	// Compacted only when kept: a long match's stride skips most states.
	kept := s
	if compacts {
		kept = c.Compact()
	}
	r.states = appendDoubling(r.states, kept)
	kp.bytes += sizeOf(kept)
	for kp.bytes > kp.budget && kp.stride < len(r.states) {
		r.thin()
	}
}

// appendDoubling appends v, doubling s's capacity when it is full:
// append grows a long slice by a quarter, so a record of 30,000 turns
// was allocated and copied some five times over, which a page's garbage
// collector then paid for; doubling, about twice.
func appendDoubling[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, len(s)+1)
	}
	return append(s, v)
}

// thin doubles the stride, dropping the states between the new
// snapshots. The latest state is kept in full as the head. The caller
// holds r.keep.mu.
func (r *Record) thin() {
	kp := r.keep
	last := len(r.states) - 1
	if r.head == nil {
		r.head = r.states[last]
	}
	kp.stride *= 2
	for k := kp.stride / 2; k < len(r.states); k += kp.stride {
		if s := r.states[k]; s != nil {
			kp.bytes -= sizeOf(s)
			r.states[k] = nil
		}
	}
}

func sizeOf(s match.State) int {
	if w, ok := s.(Weigher); ok {
		return w.Bytes()
	}
	return defaultStateSize
}

// Replacements counts each side's moves that the game's rules replaced
// (a crash, an illegal move or a time-out where the rules play on:
// Colosseum's random walk, an Evasion or shortest-path game scored as
// lost), with the first one's turn and reason.
type Replacements struct {
	Replaced    [2]int    `json:"replaced,omitzero"`
	ReplacedAt  [2]int    `json:"replaced_at,omitzero"`
	ReplacedWhy [2]string `json:"replaced_why,omitzero"`
}

// Replacements counts the record's replaced moves.
func (r *Record) Replacements() Replacements {
	var rp Replacements
	for k, t := range r.Turns {
		for side, why := range t.Replaced {
			if why == "" {
				continue
			}
			if rp.Replaced[side] == 0 {
				rp.ReplacedAt[side], rp.ReplacedWhy[side] = k, why
			}
			rp.Replaced[side]++
		}
	}
	return rp
}
