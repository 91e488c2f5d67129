package evasion

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// The course's text protocol (spec §2), one line each way:
//
//	host: sendname              player: <its name>
//	host: hunter | prey         (the role for the game; no answer)
//	host: <msLeft> <state>      player: <game> <tick> <wallType> [del...]   (hunter)
//	                            player: <game> <tick> <dx> <dy>             (prey)
//	host: done                  (after the second game)
//
// The state is "game tick maxWalls delay 300 300 timer hx hy hvx hvy px py
// n walls...". No state is sent after a game's last tick.

// Greeting asks a player its name.
func (Game) Greeting() []byte { return []byte("sendname\n") }

// Herald is the role line side hears when s starts a game, in a write of
// its own: the 2020 server sent "hunter" and "prey", slept 1000/60 ms,
// then sent the first state (GameHost), and its students' clients read
// each with one recv().
func (Game) Herald(ms match.State, side match.Side) []byte {
	s := ms.(State)
	switch {
	case s.f.Tick != 0 || s.ToMove() == match.Nobody:
		return nil
	case s.Hunter() == side:
		return []byte("hunter\n")
	}
	return []byte("prey\n")
}

// Pause is the 2020 server's Thread.sleep(1000 / 60): after the role
// lines, and after each game.
func (Game) Pause() time.Duration { return 1000 / 60 * time.Millisecond }

// Request writes the state for side: "<msLeft> <state>".
func (Game) Request(ms match.State, side match.Side, _ int, limit time.Duration) []byte {
	s := ms.(State)
	var b []byte
	if limit <= 0 {
		limit = time.Duration(s.cfg.ClockMs) * time.Millisecond
	}
	b = strconv.AppendInt(b, limit.Milliseconds(), 10)
	b = append(b, ' ')
	b = s.f.AppendState(b, s.game)
	return append(b, '\n')
}

// Reply reads a reply line as the original server does. Replies carry no
// request id: each request takes one line, as on the original's sockets.
func (Game) Reply(line []byte) (match.Action, int, error) {
	a, err := ParseReply(string(line))
	if err != nil {
		return nil, -1, err
	}
	return a, -1, nil
}

// Final ends the session: "done".
func (Game) Final(match.State, match.Side) []byte { return []byte("done\n") }

// ParseRequest cannot read a state line on its own (the role comes on an
// earlier line): players read the host through NewClient.
func (Game) ParseRequest([]byte) (match.State, int, time.Duration, error) {
	return nil, 0, 0, fmt.Errorf("evasion players read the host's lines through a client")
}

// WriteReply writes the reply line.
func (Game) WriteReply(a match.Action, _ int) []byte { return []byte(a.(Action).String() + "\n") }

// NewClient returns the player's end of the protocol.
func (Game) NewClient(name string) match.Client { return &client{name: name} }

// client remembers the role the host gave.
type client struct {
	name string
	role string
}

func (c *client) Hear(line []byte) (match.Heard, error) {
	text := strings.TrimSpace(string(line))
	switch text {
	case "sendname":
		return match.Heard{Say: []byte(c.name + "\n")}, nil
	case "hunter", "prey":
		c.role = text
		return match.Heard{}, nil
	case "done":
		return match.Heard{Done: true}, nil
	}
	if c.role == "" {
		return match.Heard{}, fmt.Errorf("a state before the role line (hunter or prey)")
	}
	ms, rest, ok := strings.Cut(text, " ")
	left, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil {
		return match.Heard{}, fmt.Errorf("line %q: want sendname, hunter, prey, done or <msLeft> <state>", clip(text))
	}
	s, err := ParseState(rest)
	if err != nil {
		return match.Heard{}, err
	}
	side := s.Hunter()
	if c.role == "prey" {
		side = side.Other()
	}
	return match.Heard{State: s, Side: side, Limit: time.Duration(max(left, 1)) * time.Millisecond}, nil
}

// ParseState reads a state message (without its time field) into the
// state of a session at that game and tick: what a player knows.
func ParseState(msg string) (State, error) {
	fields := strings.Fields(msg)
	if len(fields) > 14+6*(MaxMaxWalls+1) {
		return State{}, fmt.Errorf("state message of %d numbers is too long", len(fields))
	}
	v := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < -1 || n > MaxTickCap*10 {
			return State{}, fmt.Errorf("state field %d %q is not a whole number in range", i+1, clip(f))
		}
		v[i] = n
	}
	if len(v) < 14 {
		return State{}, fmt.Errorf("state message %q: want at least 14 numbers", clip(msg))
	}
	game, tick, maxWalls, delay := v[0], v[1], v[2], v[3]
	switch {
	case game != 0 && game != 1:
		return State{}, fmt.Errorf("game %d: want 0 or 1", game)
	case v[4] != Size || v[5] != Size:
		return State{}, fmt.Errorf("board %dx%d: the game is played on %dx%d", v[4], v[5], Size, Size)
	case maxWalls < 0 || maxWalls > MaxMaxWalls || delay < 0 || tick < 0:
		return State{}, fmt.Errorf("maxWalls %d, delay %d, tick %d: out of range", maxWalls, delay, tick)
	}
	f := Field{MaxWalls: maxWalls, Delay: delay, Tick: tick, Timer: v[6],
		Hunter: Point{v[7], v[8]}, HunterVel: Point{v[9], v[10]}, Prey: Point{v[11], v[12]}}
	n := v[13]
	if n < 0 || n > MaxMaxWalls {
		return State{}, fmt.Errorf("%d walls: out of range", n)
	}
	rest := v[14:]
	for i := range n {
		w, used, err := parseWall(rest)
		if err != nil {
			return State{}, fmt.Errorf("wall %d: %v", i, err)
		}
		f.walls = append(f.walls, w)
		rest = rest[used:]
	}
	if len(rest) > 0 {
		return State{}, fmt.Errorf("%d numbers after the last wall", len(rest))
	}
	for _, p := range []Point{f.Hunter, f.Prey} {
		if uint(p.X) >= Size || uint(p.Y) >= Size {
			return State{}, fmt.Errorf("player at (%d,%d) is off the board", p.X, p.Y)
		}
	}
	f.Index()
	f.own = false
	cfg := Preset(maxWalls, delay)
	return State{cfg: cfg, game: game, f: f, turn: tick}, nil
}
