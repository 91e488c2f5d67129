package match

import (
	"errors"
	"fmt"
	"time"
)

// ErrLate marks an answer that came past its clock: a move the game's
// rules then punish (Colosseum's random walk, a forfeit), as against a
// program that failed (errors.Is(err, ErrLate)).
var ErrLate = errors.New("past its clock")

// Late is an error that says msg and is ErrLate.
func Late(msg string) error { return lateError(msg) }

type lateError string

func (e lateError) Error() string        { return string(e) }
func (e lateError) Is(target error) bool { return target == ErrLate }

// Clock enforces one side's time rule over a match: the original games'
// wall-clock limits, kept for fidelity. The match asks Begin before each
// move of the side and End with the thinking time used.
type Clock interface {
	// Begin returns the time available for the move about to be asked in
	// s (a clock may start afresh with each game of a session).
	Begin(s State) time.Duration
	// Left is what Begin would return, without starting the move: the
	// bound of what a player may spend before it (its name, its hello).
	Left(s State) time.Duration
	// End charges the time used and reports an error when it was too much.
	End(used time.Duration) error
}

// TimeBucket is the clock of the Life battleground (and of its server
// core): a bucket of time that starts full at Cap, gains Gain before each
// move without exceeding Cap, and loses the time each move takes. A side
// whose bucket goes below zero is out of time.
type TimeBucket struct {
	Gain, Cap time.Duration
	left      time.Duration
	started   bool
}

// NewTimeBucket returns a full bucket.
func NewTimeBucket(gain, capacity time.Duration) *TimeBucket {
	return &TimeBucket{Gain: gain, Cap: capacity}
}

// Begin refills the bucket by Gain, up to Cap, and returns its content.
func (b *TimeBucket) Begin(s State) time.Duration {
	b.left, b.started = b.Left(s), true
	return b.left
}

// Left is the bucket's content once refilled for the coming move.
func (b *TimeBucket) Left(State) time.Duration {
	if !b.started {
		return b.Cap
	}
	return min(b.Cap, b.left+b.Gain)
}

// End takes the time used out of the bucket.
func (b *TimeBucket) End(used time.Duration) error {
	avail := b.left
	b.left -= used
	if b.left < 0 {
		return Late(fmt.Sprintf("out of time: took %s with %s left", roundMs(used), roundMs(avail)))
	}
	return nil
}

// PerMove is a clock with a fixed limit for each move and a larger one for
// the side's first move (Colosseum: 30 s, then 2 s).
type PerMove struct {
	First, Each time.Duration
	moves       int
}

// Begin returns the limit of the coming move.
func (p *PerMove) Begin(s State) time.Duration { return p.Left(s) }

// Left is the limit of the coming move.
func (p *PerMove) Left(State) time.Duration {
	if p.moves == 0 {
		return p.First
	}
	return p.Each
}

// End checks the time used against the limit.
func (p *PerMove) End(used time.Duration) error {
	limit := p.Begin(nil)
	p.moves++
	if used > limit {
		return Late(fmt.Sprintf("out of time: took %s, the limit is %s", roundMs(used), roundMs(limit)))
	}
	return nil
}

func roundMs(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// Sessioner is implemented by the states of matches made of several games
// (an Evasion session, a shortest-path pairing): clocks that start afresh
// with each game ask which game a state is in.
type Sessioner interface {
	GameNum() int
}

// PerGame is a clock with a fixed budget for each game of a match (the
// 120 s per player per game of Evasion and the shortest-path game). The
// budget is checked as the originals did: a move that leaves less than
// zero is out of time; exactly zero is in time.
type PerGame struct {
	Per  time.Duration
	left time.Duration
	game int
	set  bool
}

// Begin returns what is left of this game's budget, full at a game's
// first move.
func (c *PerGame) Begin(s State) time.Duration {
	c.left, c.game, c.set = c.Left(s), GameNum(s), true
	return c.left
}

// Left is what is left of the budget of s's game.
func (c *PerGame) Left(s State) time.Duration {
	if !c.set || GameNum(s) != c.game {
		return c.Per
	}
	return c.left
}

// GameNum is the game of a session s is in (see [Sessioner]); 0 for a
// match of one game.
func GameNum(s State) int {
	if st, ok := s.(Sessioner); ok {
		return st.GameNum()
	}
	return 0
}

// End charges the time used.
func (c *PerGame) End(used time.Duration) error {
	had := c.left
	c.left -= used
	if c.left < 0 {
		return Late(fmt.Sprintf("out of time: took %s with %s left in this game", roundMs(used), roundMs(had)))
	}
	return nil
}
