package match

import (
	"context"
	"math/rand/v2"
	"time"

	// A bot built with Go loads its filter before any of its code runs:
	// every bot imports this package (see internal/confine).
	_ "github.com/arena-playground/arena/internal/confine"
)

// Turn is what a bot is given when asked to act: the state, its side, its
// random source and budget. The bot reports back through Note and counts
// its work with Spend, which is also where a thinking bot notices a
// cancelled match.
type Turn struct {
	State  State
	Side   Side
	Rand   *rand.Rand // the bot's own seeded source: the only randomness it may use
	Budget Budget
	// Clock is the time the side's clock leaves for this move; zero when
	// the game or the bot is untimed. Bots with a time budget stop before it.
	Clock time.Duration
	Note  Note

	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: no time bound
	nodes    int64
	calls    uint32
	stopped  bool
}

// spendCheckEvery is how many Spend calls pass between looks at the clock,
// the context: often enough to stop within a
// millisecond, rarely enough to cost nothing next to a search node.
const spendCheckEvery = 64

// NewTurnContext makes a turn of a match: ctx cancels it, and clock is
// what the side's clock allows for the move (0: no clock).
func NewTurnContext(ctx context.Context, s State, side Side, r *rand.Rand, b Budget, clock time.Duration) *Turn {
	t := &Turn{State: s, Side: side, Rand: r, Budget: b, Clock: clock, ctx: ctx, start: time.Now()}
	limit := b.Time
	if clock > 0 && b.Time > 0 {
		// Keep a margin for the reply, as a person would with a chess clock.
		limit = min(limit, clock*9/10)
	}
	if limit > 0 {
		t.deadline = t.start.Add(limit)
	}
	return t
}

// NewTurn makes a turn outside a match, for tests and benchmarks of bots.
func NewTurn(s State, side Side, r *rand.Rand, b Budget) *Turn {
	return NewTurnContext(context.Background(), s, side, r, b, 0)
}

// Spend counts n nodes of search and reports whether the bot may go on:
// false once the node budget is used, the time budget has passed or the
// match was cancelled. Once false, it stays false for this turn.
func (t *Turn) Spend(n int64) bool {
	if t.stopped {
		return false
	}
	t.nodes += n
	if t.Budget.Nodes > 0 && t.nodes >= t.Budget.Nodes {
		t.stopped = true
		return false
	}
	t.calls++
	if t.calls%spendCheckEvery == 0 {
		t.check()
	}
	return !t.stopped
}

// check looks at the context and the deadline.
func (t *Turn) check() {
	if t.ctx != nil && t.ctx.Err() != nil {
		t.stopped = true
	}
	if !t.deadline.IsZero() && time.Now().After(t.deadline) {
		t.stopped = true
	}
}

// Limit lowers a node budget to n: a bot that shares a whole game's work
// over its moves (a long game would otherwise outlast the original's
// clock) asks for its share. A budget in time alone is left as it is.
func (t *Turn) Limit(n int64) {
	if t.Budget.Nodes > 0 {
		t.Budget.Nodes = min(t.Budget.Nodes, max(n, 1))
	}
}

// Nodes is the count of nodes spent so far.
func (t *Turn) Nodes() int64 { return t.nodes }

// Elapsed is the bot's thinking time so far: wall time since the turn
// began.
func (t *Turn) Elapsed() time.Duration { return time.Since(t.start) }

// Context is the match's context: bots that wait (people, processes)
// select on its Done channel.
func (t *Turn) Context() context.Context {
	if t.ctx == nil {
		return context.Background()
	}
	return t.ctx
}
