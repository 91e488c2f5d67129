package life

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arena-playground/arena/internal/fileerr"
)

// Rules variants. Arena is the default: collisions cancel, as the game's
// own description says. Original keeps the original code's collision rule,
// under which a cell requested by both players goes to P2 (P1 still pays);
// the golden traces replay with it.
const (
	VariantArena    = "arena"
	VariantOriginal = "original"
)

// Limits on what a config may ask for, so that a typo cannot ask for
// gigabytes.
const (
	MaxSide       = 4096
	MaxIterations = 1000000
	// MaxWork bounds rows x cols x iterations, the cell-generations a
	// match steps: 2^36, a 4096x4096 board for 4,096 iterations (about
	// 20 s of stepping here, before the bots think) or the 24x24 board
	// for the whole million. Past it a match would take hours.
	MaxWork = 1 << 36
	// MaxTimerMs bounds timer.maxLength: the bucket holds five of them,
	// and durations must not overflow.
	MaxTimerMs = 3600 * 1000
)

// Config is the settings of one game, read from and written to the shape
// of the original's config.json: a "game" section and two "players" with
// their starting cells and timers.
type Config struct {
	Rows, Cols int
	Gain       int     // cellGainPerTurn: added to each bank after every turn
	Capacity   int     // maxCellCapacity: a bank never holds more
	Bank       int     // game.startingCells: both banks at iteration 0
	Distance   int     // maxColonisationDistance: Chebyshev radius on the torus
	Iterations int     // maxGameIterations: the state with this index is final
	Ruleset    Ruleset // diff or classic
	Rules      string  // rules variant: VariantArena or VariantOriginal

	Names [2]string
	Start [2][]Cell // players[i].startingCells
	// TimerMs is each player's timer.maxLength in milliseconds: a time
	// bucket of 5 x TimerMs refilled by TimerMs per move. 0: untimed.
	TimerMs [2]int
	// RandomStart, when positive, replaces Start: each player gets this
	// many random still lifes in its half of the board, P2's mirroring
	// P1's, drawn from the match seed.
	RandomStart int
	// Field, when set, replaces the size and the start cells with an
	// explicit board ('#' P1, 'O' P2, '.' dead), as in the golden scenarios.
	Field []string
}

// Variant returns the rules variant.
func (c *Config) Variant() string { return c.Rules }

// Competition returns the settings of the 2015 competition's
// configFinal.json, the playground's default: a 24x24 torus, banks from 3
// gaining 3 up to 15, distance 2, 500 iterations, two 2x2 blocks, and the
// 1500 ms time bucket refilled by 300 ms a move.
func Competition() *Config {
	return &Config{Rows: 24, Cols: 24, Gain: 3, Capacity: 15, Bank: 3, Distance: 2, Iterations: 500,
		Ruleset: Diff, Rules: VariantArena, Names: [2]string{"ai-1", "ai-2"},
		Start: [2][]Cell{
			{{11, 5}, {11, 6}, {12, 5}, {12, 6}},
			{{11, 17}, {11, 18}, {12, 17}, {12, 18}},
		},
		TimerMs: [2]int{300, 300}}
}

// OriginalDefault returns the original's defaultConfig.json under the
// original variant: the competition game without timers. Golden scenarios
// without a config play with it.
func OriginalDefault() *Config {
	c := Competition()
	c.Rules, c.TimerMs, c.Names = VariantOriginal, [2]int{}, [2]string{"p1-dummy", "p2-dummy"}
	return c
}

// fileConfig is the JSON shape. Pointers tell a missing key from a zero.
type fileConfig struct {
	Players []filePlayer `json:"players"`
	Game    *fileGame    `json:"game"`
	Field   []string     `json:"field,omitempty"`
}

type filePlayer struct {
	Name          string   `json:"name,omitempty"`
	StartingCells *[][]int `json:"startingCells"`
	Timer         *struct {
		MaxLength *int `json:"maxLength"`
	} `json:"timer,omitempty"`
}

type fileGame struct {
	Rows                    *int    `json:"rows"`
	Cols                    *int    `json:"cols"`
	CellGainPerTurn         *int    `json:"cellGainPerTurn"`
	MaxCellCapacity         *int    `json:"maxCellCapacity"`
	StartingCells           *int    `json:"startingCells"`
	MaxColonisationDistance *int    `json:"maxColonisationDistance"`
	MaxGameIterations       *int    `json:"maxGameIterations"`
	Ruleset                 *string `json:"ruleset"`
	Variant                 string  `json:"variant,omitempty"`
	RandomStart             int     `json:"randomStart,omitempty"`
}

// MarshalJSON writes the config in the original's shape, with the
// playground's keys (variant, randomStart, field) added.
func (c *Config) MarshalJSON() ([]byte, error) {
	rs := "diff"
	if c.Ruleset == Classic {
		rs = "classic"
	}
	fg := fileGame{Rows: &c.Rows, Cols: &c.Cols, CellGainPerTurn: &c.Gain, MaxCellCapacity: &c.Capacity,
		StartingCells: &c.Bank, MaxColonisationDistance: &c.Distance, MaxGameIterations: &c.Iterations,
		Ruleset: &rs, Variant: c.Rules, RandomStart: c.RandomStart}
	fc := fileConfig{Game: &fg, Field: c.Field}
	for i := range 2 {
		cells := make([][]int, len(c.Start[i]))
		for k, cl := range c.Start[i] {
			cells[k] = []int{cl.Row, cl.Col}
		}
		p := filePlayer{Name: c.Names[i], StartingCells: &cells}
		if c.TimerMs[i] > 0 {
			ms := c.TimerMs[i]
			p.Timer = &struct {
				MaxLength *int `json:"maxLength"`
			}{&ms}
		}
		fc.Players = append(fc.Players, p)
	}
	return json.Marshal(fc)
}

// ParseConfig reads a config in the original's config.json shape (the
// competition's configFinal.json plays as it is; keys the playground does
// not use, such as port or a player's type and command, are ignored). Every
// key of the game section is required, as in the original. Errors name the
// file, the line and what was expected.
func ParseConfig(file string, data []byte) (*Config, error) {
	var fc fileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fc); err != nil {
		return nil, fileerr.JSONError(file, data, err)
	}
	at := func(path []any, format string, args ...any) error {
		return fileerr.Errorf(file, data, path, format, args...)
	}
	g := fc.Game
	if g == nil {
		return nil, at(nil, `missing key "game" (the game section: rows, cols, cellGainPerTurn, ...)`)
	}
	c := &Config{Rules: VariantArena, RandomStart: g.RandomStart, Field: fc.Field}
	if g.Variant != "" {
		c.Rules = g.Variant
	}
	ints := []struct {
		key      string
		v        *int
		dst      *int
		min, max int
	}{
		{"rows", g.Rows, &c.Rows, 1, MaxSide},
		{"cols", g.Cols, &c.Cols, 1, MaxSide},
		{"cellGainPerTurn", g.CellGainPerTurn, &c.Gain, 0, 1 << 20},
		{"maxCellCapacity", g.MaxCellCapacity, &c.Capacity, 0, 1 << 20},
		{"startingCells", g.StartingCells, &c.Bank, 0, 1 << 20},
		{"maxColonisationDistance", g.MaxColonisationDistance, &c.Distance, 0, MaxSide},
		{"maxGameIterations", g.MaxGameIterations, &c.Iterations, 0, MaxIterations},
	}
	for _, f := range ints {
		if f.v == nil {
			return nil, at([]any{"game"}, "game: missing key %q (a whole number from %d to %d)", f.key, f.min, f.max)
		}
		if *f.v < f.min || *f.v > f.max {
			return nil, at([]any{"game", f.key}, "game.%s is %d: want a whole number from %d to %d", f.key, *f.v, f.min, f.max)
		}
		*f.dst = *f.v
	}
	switch {
	case g.Ruleset == nil:
		return nil, at([]any{"game"}, `game: missing key "ruleset" ("diff" or "classic")`)
	case *g.Ruleset == "diff":
		c.Ruleset = Diff
	case *g.Ruleset == "classic":
		c.Ruleset = Classic
	default:
		return nil, at([]any{"game", "ruleset"}, `game.ruleset is %q: want "diff" or "classic"`, *g.Ruleset)
	}
	if !slices.Contains(variants, c.Rules) {
		return nil, at([]any{"game", "variant"}, "game.variant is %q: want %s", c.Rules, quoteList(variants))
	}
	if c.RandomStart < 0 || c.RandomStart > 64 {
		return nil, at([]any{"game", "randomStart"}, "game.randomStart is %d: want 0 to 64 random shapes", c.RandomStart)
	}
	if err := parsePlayers(c, fc.Players, at); err != nil {
		return nil, err
	}
	if c.Field != nil {
		b, err := ParseRows(c.Field)
		if err != nil {
			return nil, at([]any{"field"}, "%v", err)
		}
		c.Rows, c.Cols = b.Rows(), b.Cols()
	}
	if work := int64(c.Rows) * int64(c.Cols) * int64(c.Iterations); work > MaxWork {
		return nil, at([]any{"game", "maxGameIterations"}, "a %dx%d board for %d iterations is %d cell-generations: at most 2^36 (%d), as a 4096x4096 board for 4,096 iterations; at this size at most %d iterations",
			c.Rows, c.Cols, c.Iterations, work, int64(MaxWork), MaxWork/(int64(c.Rows)*int64(c.Cols)))
	}
	return c, nil
}

func parsePlayers(c *Config, ps []filePlayer, at func([]any, string, ...any) error) error {
	if len(ps) != 2 {
		return at([]any{"players"}, "players: want exactly 2 players (P1, P2), found %d", len(ps))
	}
	for i, p := range ps {
		c.Names[i] = p.Name
		if p.Timer != nil {
			if p.Timer.MaxLength == nil || *p.Timer.MaxLength <= 0 || *p.Timer.MaxLength > MaxTimerMs {
				return at([]any{"players", i, "timer"}, "players[%d].timer: want maxLength, 1 to %d milliseconds (an hour)", i, MaxTimerMs)
			}
			c.TimerMs[i] = *p.Timer.MaxLength
		}
		if p.StartingCells == nil {
			if c.RandomStart > 0 || c.Field != nil {
				continue
			}
			return at([]any{"players", i}, `players[%d]: missing key "startingCells" (a list of [row, col] cells)`, i)
		}
		for k, rc := range *p.StartingCells {
			if len(rc) != 2 {
				return at([]any{"players", i, "startingCells", k}, "players[%d].startingCells[%d]: want a cell [row, col], found %d numbers", i, k, len(rc))
			}
			cl := Cell{rc[0], rc[1]}
			if c.Field == nil && (cl.Row < 0 || cl.Row >= c.Rows || cl.Col < 0 || cl.Col >= c.Cols) {
				return at([]any{"players", i, "startingCells", k},
					"players[%d].startingCells[%d]: cell %v is off the %dx%d board", i, k, cl, c.Rows, c.Cols)
			}
			c.Start[i] = append(c.Start[i], cl)
		}
	}
	return nil
}

var variants = []string{VariantArena, VariantOriginal}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, " or ")
}

// MaxTurns is how many turns a game lasts: the timeline's length.
func (c *Config) MaxTurns() int { return c.Iterations }
