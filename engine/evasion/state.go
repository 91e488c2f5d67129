package evasion

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/jsonwire"
)

// Action is what one side plays in a tick: its reply as the server reads
// it, the whole numbers of "game tick wallType [deleteIndex...]" (hunter)
// or "game tick dx dy" (prey); or a time-out. A reply for another tick or
// game, or too short, is ignored as the original ignores it (spec §2).
type Action struct {
	Reply []int
	// TimeOut ends the game as the original's time-out does: a late
	// player, or (playground decision 4) one whose reply would have
	// crashed the original server.
	TimeOut bool
}

// HunterAction is a hunter's reply in state s: build kind (NoWall for
// none) and delete the walls at the given indices.
func HunterAction(s State, build Kind, del ...int) Action {
	r := append(make([]int, 0, 3+len(del)), s.game, s.f.Tick, int(build)+1)
	if build == NoWall {
		r[2] = 0
	}
	return Action{Reply: append(r, del...)}
}

// PreyAction is a prey's reply in state s: move by (dx, dy).
func PreyAction(s State, dx, dy int) Action {
	return Action{Reply: []int{s.game, s.f.Tick, dx, dy}}
}

// Equal reports whether a and b are the same action as a replay keeps
// them (match.SameAction), without writing their JSON: a report asks it
// of every option of every tick.
func (a Action) Equal(b match.Action) bool {
	c, ok := b.(Action)
	if !ok || a.TimeOut || c.TimeOut {
		return ok && a.TimeOut == c.TimeOut
	}
	return slices.Equal(a.Reply, c.Reply)
}

// MarshalJSON writes the reply's numbers, or "timeout".
func (a Action) MarshalJSON() ([]byte, error) {
	if a.TimeOut {
		return []byte(`"timeout"`), nil
	}
	if a.Reply == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(a.Reply)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Action) UnmarshalJSON(b []byte) error {
	if string(b) == `"timeout"` {
		*a = Action{TimeOut: true}
		return nil
	}
	var r []int
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf(`action %.40s: want the reply's numbers such as [0, 12, 1] or "timeout"`, b)
	}
	*a = Action{Reply: r}
	return nil
}

// replyWritten reads a reply's numbers as json.Marshal writes them
// ([0,845,-1,1]); ok is false for anything else, which encoding/json
// then reads. A page following a session reads thousands of ticks a
// second, two actions a tick.
func replyWritten(data []byte) (reply []int, ok bool) {
	if reply, ok := shortReply(data); ok {
		return reply, true
	}
	r := jsonwire.New(data)
	reply = jsonwire.List(r, func(r *jsonwire.Reader) int { return int(r.Int()) })
	return reply, r.Done()
}

// shortReply reads a reply of at most eight numbers of at most nine
// digits each, as json.Marshal writes them, with nothing but its result
// allocated: a Reader handed to a read function is on the heap, and two
// of them a tick were a third of following a session's ticks. ok is
// false for anything else, which replyWritten's Reader then reads.
func shortReply(data []byte) (reply []int, ok bool) {
	if len(data) < 2 || data[0] != '[' || data[len(data)-1] != ']' {
		return nil, false
	}
	if len(data) == 2 {
		return []int{}, true
	}
	var nums [8]int
	n, i := 0, 1
	for {
		neg := data[i] == '-'
		if neg {
			i++
		}
		start, v := i, 0
		for ; '0' <= data[i] && data[i] <= '9'; i++ { // the closing ']' ends it
			v = 10*v + int(data[i]-'0')
		}
		if d := i - start; d == 0 || d > 9 || d > 1 && data[start] == '0' || n == len(nums) {
			return nil, false
		}
		if neg {
			v = -v
		}
		nums[n], n = v, n+1
		switch {
		case i == len(data)-1:
			return append([]int(nil), nums[:n]...), true
		case data[i] != ',':
			return nil, false
		}
		i++
	}
}

// String writes the reply line, as a player would send it.
func (a Action) String() string {
	if a.TimeOut {
		return "timeout"
	}
	var b []byte
	for i, v := range a.Reply {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return string(b)
}

// Infinity is the score of a game whose hunter timed out: Java's
// Long.MAX_VALUE, as the original writes it.
const Infinity = math.MaxInt64

// GameEnd is how one game of the session ended.
type GameEnd struct {
	Score    int64 // the ticks the hunter needed: the prey's score
	Captured bool
	Capped   bool    // the tick cap ended it
	TimedOut [2]bool // by side: who timed out (or forfeited)
	Final    Field   // the state after the last tick
}

// State is a position in a session: two games, the first with P1 as the
// hunter, the second with the roles swapped. A State never changes; it
// shares its walls and grid with the states before it until they change.
type State struct {
	cfg  *Config
	game int // 0, 1; 2 once the session is over
	f    Field
	turn int
	ends [2]*GameEnd
}

// NewState returns the start of a session.
func NewState(cfg *Config) State {
	s := State{cfg: cfg, f: NewField(cfg.MaxWalls, cfg.Delay)}
	s.f.own = false // a state's field is shared by every copy of the state
	return s
}

// Config returns the session's settings.
func (s State) Config() *Config { return s.cfg }

// GameNum is the game being played: 0, 1, or 2 once the session is over.
func (s State) GameNum() int { return s.game }

// Field returns the game in progress (the last game's final state once
// the session is over). Its walls are shared: Fork it before stepping.
func (s State) Field() Field {
	if s.game == 2 {
		return s.ends[1].Final
	}
	return s.f
}

// End returns how game g ended, or nil while it goes on.
func (s State) End(g int) *GameEnd { return s.ends[g] }

// HunterSide returns the side that hunts in game g: P1 in game 0.
func HunterSide(g int) match.Side { return match.Side(g & 1) }

// Hunter returns the side hunting in the current game.
func (s State) Hunter() match.Side { return HunterSide(s.game) }

// Message is the state message of the game in progress, without the
// time field (spec §2.6).
func (s State) Message() string { return string(s.f.AppendState(nil, s.game)) }

// Turn counts the ticks played in the session, time-outs included.
func (s State) Turn() int { return s.turn }

// ToMove is both sides until the session is over.
func (s State) ToMove() match.Movers {
	if s.game == 2 {
		return match.Nobody
	}
	return match.Both
}

// maxReply bounds a reply's numbers: a hunter never needs to delete more
// walls than there are.
const maxReply = 3 + MaxMaxWalls

// Check accepts any reply of at least two numbers (the original reads
// tokens 0 and 1 of every reply, and crashes on fewer).
func (s State) Check(side match.Side, a match.Action) error {
	act, ok := a.(Action)
	switch {
	case !ok:
		return fmt.Errorf("action of type %T", a)
	case act.TimeOut:
		return nil
	case len(act.Reply) < 2:
		return fmt.Errorf("reply %q has fewer than 2 numbers (want game and tick first)", act)
	case len(act.Reply) > maxReply:
		return fmt.Errorf("reply has %d numbers; at most %d make sense", len(act.Reply), maxReply)
	}
	return nil
}

// Orders validates the replies as the original does (spec §2, "Reply
// validation") and says why a reply is ignored: "lagging" for a wrong
// tick, "ignored" for a wrong game or a short reply.
func (s State) Orders(hunter, prey Action) (HunterMove, PreyMove, [2]string) {
	return Orders(s.game, s.f.Tick, hunter.Reply, prey.Reply)
}

// Orders validates a hunter's and a prey's reply (each of at least two
// numbers) to the state of tick in game.
func Orders(game, tick int, hunter, prey []int) (HunterMove, PreyMove, [2]string) {
	h, p := HunterMove{Build: NoWall}, PreyMove{}
	var why [2]string
	r := hunter
	switch {
	case r[1] != tick:
		why[0] = "lagging"
	case len(r) < 3 || r[0] != game:
		why[0] = "ignored"
	default:
		if r[2] >= 1 && r[2] <= 4 {
			h.Build = Kind(r[2] - 1)
		}
		h.Delete = r[3:]
	}
	r = prey
	switch {
	case r[1] != tick:
		why[1] = "lagging"
	case len(r) < 4 || r[0] != game:
		why[1] = "ignored"
	default:
		p = PreyMove{r[2], r[3]}
	}
	return h, p, why
}

// Apply plays one tick, or ends the game on a time-out.
func (s State) Apply(acts [2]match.Action) match.State {
	hs := s.Hunter()
	ha, pa := acts[hs].(Action), acts[hs.Other()].(Action)
	s.turn++
	if ha.TimeOut || pa.TimeOut {
		e := &GameEnd{Score: int64(s.f.Tick), Final: s.f}
		if ha.TimeOut && !pa.TimeOut {
			e.Score = Infinity
		}
		e.TimedOut[hs], e.TimedOut[hs.Other()] = ha.TimeOut, pa.TimeOut
		return s.endGame(e)
	}
	h, p, _ := s.Orders(ha, pa)
	s.f.own = false // the walls and grid are the previous state's: copy before changing them
	s.f.Index()
	captured := s.f.Step(h, p)
	s.f.own = false
	if captured {
		return s.endGame(&GameEnd{Score: int64(s.f.Tick), Captured: true, Final: s.f})
	}
	if s.f.Tick >= s.cfg.TickCap {
		return s.endGame(&GameEnd{Score: int64(s.f.Tick), Capped: true, Final: s.f})
	}
	return s
}

// endGame records the game's end and starts the next one.
func (s State) endGame(e *GameEnd) State {
	s.ends[s.game] = e
	s.game++
	if s.game < 2 {
		s.f = NewField(s.cfg.MaxWalls, s.cfg.Delay)
		s.f.own = false
	} else {
		s.f = Field{}
	}
	return s
}

// Outcome compares the scores each side earned as the prey: the faster
// hunter wins the session, equal scores draw (spec §7). Scores[side] is
// the ticks side survived as the prey.
func (s State) Outcome() match.Outcome {
	var prey [2]int64 // by side
	for g := range 2 {
		switch {
		case s.ends[g] != nil:
			prey[HunterSide(g).Other()] = s.ends[g].Score
		case g == s.game:
			prey[HunterSide(g).Other()] = int64(s.f.Tick)
		}
	}
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Count(prey[0]), match.Count(prey[1])}}
	switch {
	case prey[match.P1] > prey[match.P2]:
		o.Winner = match.P1
	case prey[match.P2] > prey[match.P1]:
		o.Winner = match.P2
	}
	if s.game < 2 {
		if s.game == 0 || prey[match.P1] <= prey[match.P2] {
			o.Winner = match.NoSide // undecided while the second hunter can still do better
		}
		o.Reason = "session in progress"
		return o
	}
	o.Reason = fmt.Sprintf("P1 as hunter = %s, P2 as hunter = %s", ticks(s.ends[0].Score), ticks(s.ends[1].Score))
	if o.Winner == match.NoSide {
		o.Reason = "tied: " + o.Reason
	} else {
		o.Reason = "the faster hunter: " + o.Reason
	}
	return o
}

// ticks writes a score, "infinity" for a hunter's time-out.
func ticks(n int64) string {
	if n == Infinity {
		return "infinity"
	}
	return strconv.FormatInt(n, 10) + " ticks"
}

// Compact returns the state as a record keeps it: without the occupancy
// grid, which Apply builds again when play goes on from it.
func (s State) Compact() match.State {
	s.f.Scan()
	return s
}

// Bytes is what the state holds (play.Weigher): its walls, and the
// occupancy grid when it has one (a record keeps states compacted).
func (s State) Bytes() int {
	n := 64*len(s.f.walls) + 256
	if s.f.occ != nil {
		n += int(unsafe.Sizeof(*s.f.occ))
	}
	return n
}
