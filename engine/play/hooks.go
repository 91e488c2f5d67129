package play

import (
	"context"
	"github.com/arena-playground/arena/engine/match"
	"io"
	"time"
)

// Timed is implemented by bots that the game's clock rules by default:
// programs and network players, for whom the original games set their
// clocks. Built-in bots count their budgets in nodes and are not timed
// unless [Setup.ClockAll] asks for it, so that a busy or paused machine
// never changes their match; a person is never timed.
type Timed interface {
	Timed() bool
}

// Metered is implemented by bots that measure their own moves: a
// program whose clock is the CPU time its processes used (a fair clock,
// Hosting.CPUClock), read from the kernel. When Spent's ok is true, the
// match charges the side's clock with it, not with the wall clock's time
// the move took.
type Metered interface {
	Spent() (d time.Duration, ok bool)
}

// Connecter is implemented by bots that must be reached before they play
// (a network player that has yet to connect, or to connect again for a
// new game, or to hear its role). The match calls Connect before each
// turn for both sides, so that every player hears a game start before
// anyone moves in it, with the state and what the side's clock leaves
// for its next move (0: no clock). Connecting is not charged to the
// clock; what the player must say first (a name, a hello) is, through
// [Charger].
type Connecter interface {
	Connect(ctx context.Context, s match.State, side match.Side, left time.Duration) error
}

// Charger is implemented by bots that spend part of their clock outside
// Act: a network player's wait for its name or hello, which the originals
// did not time but arena does, so that a silent client cannot hold a
// match. The match adds Charged to the side's next thinking time.
type Charger interface {
	Charged() time.Duration
}

// Flusher is implemented by bots whose messages are written after a
// pause (a protocol that is a players.Herald, and the shortest-path game's pacing): the match
// calls Flush before the side's clock starts and asks it to move, so that
// the pauses are charged to no one.
type Flusher interface {
	Flush(ctx context.Context) error
}

// Mirror is implemented by bots that think from a copy of the match kept
// in another process (a bot interpreted in a child process, or in another
// Web Worker of the page): a state does not travel between processes, so
// the match tells the bot how the match began, then every turn's actions,
// from which the copy is rebuilt with the game's own Start and Apply.
type Mirror interface {
	// Begin is called once, before the first turn, with the match as
	// data and the bot's side; an error (a bot that does not compile)
	// refuses the match before it starts.
	Begin(st Start, side match.Side) error
	// Moved is called with each turn's actions as they were applied
	// (a side that did not move has nil; a replaced action is the
	// substitute).
	Moved(acts [2]match.Action)
}

// Watcher is implemented by bots that hear every turn as it is played,
// their opponent's too (the shortest-path server sent each update to both
// clients). The match calls Watch with each new state.
type Watcher interface {
	Watch(s match.State)
}

// Closer is implemented by bots that hold resources (external processes);
// the match calls Close when it ends.
type Closer interface {
	Close() error
}

// Ender is implemented by bots that want to hear the final state (a
// program told the game is over).
type Ender interface {
	End(s match.State, side match.Side)
}

// Logger is implemented by players that may have something to tell the
// person running the match as it goes (a connection refused at their
// seat): they tell it to w, naming side.
type Logger interface {
	LogTo(w io.Writer, side match.Side)
}

// Speaker is implemented by programs that write lines for people: the
// match hands it Setup.Said, to pass each line to as it comes.
type Speaker interface {
	SayTo(w io.Writer, side match.Side)
}

// Listener is implemented by network players that arena awaits on an
// address a person (or a script) points a client at; "" when arena
// starts the client itself.
type Listener interface {
	Listening() string
}
