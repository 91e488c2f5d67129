// Package tournament runs class competitions between any number of
// entrants: round robins, gauntlets and SPRT matches, over many cores and
// many machines. It knows games only through match.Game and players only
// through their specs, as fastchess knows engines only through UCI.
//
// A tournament is a [Plan]: the arguments, from which the schedule follows
// as a pure function, so that any game can be replayed alone with `arena
// play`, and a shard of it played on another machine. Finished games go
// to a [Journal] in the tournament's directory, one JSON line each,
// synced; a run killed at any moment is resumed by running it again,
// which plays only the games missing. [Standings] are computed from the
// journal as it streams by: points, ratings by maximum likelihood with
// their intervals, a cross-table, each entrant's forfeits and move times.
package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The formats.
const (
	RoundRobin = "roundrobin" // every pair of entrants, both seats
	Gauntlet   = "gauntlet"   // the first entrant against each of the others
	SPRTMatch  = "sprt"       // two entrants, until the SPRT decides
)

// Entrant is a player of the tournament: a name and the spec that makes it.
type Entrant struct {
	Name string `json:"name"`
	Spec string `json:"spec"`
}

// Plan is a tournament's arguments. Everything else follows from it: the
// schedule, each game's seats and seed, and so its result when the
// players are deterministic.
type Plan struct {
	Game string `json:"game"`
	// Board names the config for people: its preset's name, or its
	// file's. A label: the config is what is played.
	Board    string          `json:"board,omitempty"`
	Config   json.RawMessage `json:"config"`
	Seed     uint64          `json:"seed"`
	Format   string          `json:"format"`
	Rounds   int             `json:"rounds"` // for an SPRT match: the most pairs of games
	Entrants []Entrant       `json:"entrants"`
	SPRT     *SPRT           `json:"sprt,omitempty"`
	ClockAll bool            `json:"clock_all,omitzero"`
	// Caps are what each program may take (memory, processes, CPU time),
	// as the command line gave them ("memory=2G,procs=256,cpu=10m,disk=256M,files=4096"), kept
	// with the tournament so that a course can say under which rules its
	// entrants played.
	Caps string `json:"caps,omitempty"`
	// Clock is what its programs' clocks counted: cpu (the CPU time each
	// move used, the side not on move stopped) or wall.
	Clock string `json:"clock,omitempty"`
	// Shard is the slice of the schedule this run plays: the pairs whose
	// index is I modulo N. The zero Shard is the whole schedule.
	Shard Shard `json:"shard,omitzero"`
}

// Rules says, for a report, under which rules its programs played: what
// their clocks counted and their caps; "" where no program played.
func (p *Plan) Rules() string {
	var parts []string
	switch p.Clock {
	case "cpu":
		parts = append(parts, "programs' clocks: the CPU time each move used, read from the kernel, the side not on move stopped")
	case "wall":
		parts = append(parts, "programs' clocks: the wall clock, as the course's server counted")
	}
	if p.Caps != "" {
		parts = append(parts, "caps: "+p.Caps)
	}
	return strings.Join(parts, "; ")
}

// Shard is a slice of a schedule: I of N, from 0.
type Shard struct {
	I int `json:"i"`
	N int `json:"n"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, max(s.N, 1)) }

// Has reports whether the shard plays pair p.
func (s Shard) Has(p int) bool { return s.N <= 1 || p%s.N == s.I }

// ParseShard reads "i/n".
func ParseShard(v string) (Shard, error) {
	var s Shard
	if _, err := fmt.Sscanf(v, "%d/%d", &s.I, &s.N); err != nil || s.N < 1 || s.I < 0 || s.I >= s.N || fmt.Sprintf("%d/%d", s.I, s.N) != v {
		return Shard{}, fmt.Errorf("-shard %q: want i/n with 0 <= i < n, as 3/16", v)
	}
	return s, nil
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}$`)

// ParseEntrant reads NAME=SPEC.
func ParseEntrant(arg string) (Entrant, error) {
	name, spec, ok := strings.Cut(arg, "=")
	if !ok || spec == "" {
		return Entrant{}, fmt.Errorf("entrant %q: want NAME=SPEC, as alice=strong:nodes=20000 or bob='cmd:python3 bob.py'", arg)
	}
	if !namePattern.MatchString(name) {
		return Entrant{}, fmt.Errorf("entrant name %q: want 1 to 32 letters, digits, and . _ + - (not first)", name)
	}
	if _, err := play.ParseSpec(spec); err != nil {
		return Entrant{}, fmt.Errorf("entrant %s: %v", name, err)
	}
	return Entrant{Name: name, Spec: spec}, nil
}

// Check refuses a plan that cannot be played: a format it does not know,
// too few entrants, two with one name, a name that is not a name (the
// plan is read back from a directory others can write, and the names
// reach the operator's terminal).
func (p *Plan) Check() error {
	seen := map[string]bool{}
	for _, e := range p.Entrants {
		if !namePattern.MatchString(e.Name) {
			return fmt.Errorf("entrant name %q: want 1 to 32 letters, digits, and . _ + - (not first)", e.Name)
		}
		if seen[e.Name] {
			return fmt.Errorf("two entrants are named %s: give each its own name", e.Name)
		}
		seen[e.Name] = true
	}
	switch p.Format {
	case RoundRobin, Gauntlet:
		if len(p.Entrants) < 2 {
			return fmt.Errorf("a %s needs two entrants or more, got %d", p.Format, len(p.Entrants))
		}
		if len(p.Entrants) > 1000 {
			return fmt.Errorf("%d entrants: at most 1000", len(p.Entrants))
		}
	case SPRTMatch:
		if len(p.Entrants) != 2 {
			return fmt.Errorf("an SPRT match is between two entrants, got %d", len(p.Entrants))
		}
		if p.SPRT == nil {
			return fmt.Errorf("an SPRT match needs -sprt elo0=0,elo1=10,alpha=0.05,beta=0.05")
		}
	default:
		return fmt.Errorf("format %q: want %s, %s or %s", p.Format, RoundRobin, Gauntlet, SPRTMatch)
	}
	if p.Rounds < 1 || p.Rounds > 1_000_000 {
		return fmt.Errorf("-rounds %d: want 1 to 1000000", p.Rounds)
	}
	if p.Shard.N > 1 && p.Format == SPRTMatch {
		return fmt.Errorf("an SPRT match stops when it decides: it cannot be sharded")
	}
	if p.Games() > 100_000_000 {
		return fmt.Errorf("%d games: at most 100,000,000", p.Games())
	}
	return nil
}

// Same reports how two plans differ, other than by shard or the board's
// label; "" when they are the same tournament.
func (p *Plan) Same(q *Plan) string {
	a, b := *p, *q
	a.Shard, b.Shard = Shard{}, Shard{}
	a.Board, b.Board = "", ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		return ""
	}
	switch {
	case a.Game != b.Game:
		return fmt.Sprintf("the game is %s, not %s", b.Game, a.Game)
	case a.Format != b.Format:
		return fmt.Sprintf("the format is %s, not %s", b.Format, a.Format)
	case a.Seed != b.Seed:
		return fmt.Sprintf("the seed is %d, not %d", b.Seed, a.Seed)
	case a.Rounds != b.Rounds:
		return fmt.Sprintf("-rounds is %d, not %d", b.Rounds, a.Rounds)
	case compact(a.Config) != compact(b.Config):
		return "the config differs"
	case a.Caps != b.Caps:
		return fmt.Sprintf("the programs' caps are %s, not %s", b.Caps, a.Caps)
	case a.Clock != b.Clock:
		return fmt.Sprintf("the programs' clock is %s, not %s", b.Clock, a.Clock)
	}
	ea, _ := json.Marshal(a.Entrants)
	eb, _ := json.Marshal(b.Entrants)
	if !bytes.Equal(ea, eb) {
		return fmt.Sprintf("the entrants are %s, not %s", names(b.Entrants), names(a.Entrants))
	}
	return "the arguments differ"
}

func compact(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}

func names(es []Entrant) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name+"="+e.Spec)
	}
	return strings.Join(out, " ")
}

// Pairs is the number of pairs of games in one round.
func (p *Plan) Pairs() int {
	n := len(p.Entrants)
	switch p.Format {
	case RoundRobin:
		return n * (n - 1) / 2
	case Gauntlet:
		return n - 1
	}
	return 1
}

// Games is the number of games of the whole schedule (for an SPRT match,
// the most it may play).
func (p *Plan) Games() int { return 2 * p.Pairs() * p.Rounds }

// Game is one game of the schedule.
type Game struct {
	Index int    // in the schedule, from 0
	Round int    // from 0
	Pair  int    // the pair of games it belongs to, over all rounds, from 0
	Seats [2]int // the entrants in P1's and P2's seats
	Seed  uint64 // both games of a pair play on the same seed
}

// ID names the game in the journal and its replay's file: round, pair in
// the round, and seat ("r1-p3-b": round 1, pair 3, the second game, where
// the pair's second entrant plays P1).
func (g Game) ID(p *Plan) string {
	return fmt.Sprintf("r%d-p%d-%c", g.Round, g.Pair%p.Pairs(), "ab"[g.Index%2])
}

// At is game k of the schedule. The pairs of a round come in order (for
// a round robin, 0-1, 0-2, ..., 1-2, ...); in a pair's first game its
// first entrant plays P1, in the second the other; both on the pair's seed.
func (p *Plan) At(k int) Game {
	per := p.Pairs()
	pair := k / 2
	round, within := pair/per, pair%per
	var a, b int
	switch p.Format {
	case RoundRobin:
		a, b = pairAt(len(p.Entrants), within)
	default:
		a, b = 0, within+1
	}
	g := Game{Index: k, Round: round, Pair: pair, Seats: [2]int{a, b}, Seed: p.Seed + uint64(pair)}
	if k%2 == 1 {
		g.Seats = [2]int{b, a}
	}
	return g
}

// pairAt is the i-th pair (a < b) of n entrants in lexicographic order.
func pairAt(n, i int) (int, int) {
	for a := 0; a < n; a++ {
		if row := n - 1 - a; i < row {
			return a, a + 1 + i
		} else {
			i -= row
		}
	}
	panic("tournament: pair out of range")
}

// Setup is the match of game g.
func (p *Plan) Setup(g Game) (play.Setup, error) {
	gm, err := match.Lookup(p.Game)
	if err != nil {
		return play.Setup{}, err
	}
	cfg, err := gm.LoadConfig("the tournament's config", p.Config)
	if err != nil {
		return play.Setup{}, err
	}
	s := play.Setup{Game: gm, Config: cfg, Seed: g.Seed, ClockAll: p.ClockAll}
	for side, e := range g.Seats {
		if s.Players[side], err = play.ParseSpec(p.Entrants[e].Spec); err != nil {
			return s, err
		}
	}
	return s, nil
}
