package colosseum

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Board sizes a config may ask for. The course draws 6..11; 12 is what
// its text promises; up to 50 is allowed for experiments.
const (
	MinSize = 3
	MaxSize = 50
)

// Config is a game's settings: the board size, or the range the course
// draws it from, and the time rule.
type Config struct {
	// Size is the board's side; 0 means drawn from [SizeMin, SizeMax]
	// with the match's stream, as the course's World does.
	Size             int
	SizeMin, SizeMax int
	// FirstMoveMs and MoveMs are the course's time rule: 30 s for a
	// player's first move, 2 s for each later one. A late move is
	// replaced by the engine's random walk.
	FirstMoveMs, MoveMs int
}

// Variant names the rules: the 2023 course code.
func (c *Config) Variant() string { return "2023" }

// Course returns the course's settings: a random board of 6 to 11 (the
// code's randint(6, 12)), 30 s then 2 s per move.
func Course() *Config {
	return &Config{SizeMin: 6, SizeMax: 11, FirstMoveMs: 30000, MoveMs: 2000}
}

// Sized returns the course's settings with a fixed board size.
func Sized(n int) *Config {
	c := Course()
	c.Size = n
	return c
}

// MaxTurns is not known ahead: a game ends when the players are apart.
// The timeline grows with the game.
func (c *Config) MaxTurns() int { return 0 }

type fileConfig struct {
	Variant     string `json:"variant,omitempty"`
	Size        *int   `json:"size,omitempty"`
	Sizes       []int  `json:"sizes,omitempty"`
	FirstMoveMs *int   `json:"first_move_ms,omitempty"`
	MoveMs      *int   `json:"move_ms,omitempty"`
}

// MarshalJSON writes {"size": 8} or {"sizes": [6, 11]} and the time rule.
func (c *Config) MarshalJSON() ([]byte, error) {
	f := fileConfig{Variant: c.Variant(), FirstMoveMs: &c.FirstMoveMs, MoveMs: &c.MoveMs}
	if c.Size > 0 {
		f.Size = &c.Size
	} else {
		f.Sizes = []int{c.SizeMin, c.SizeMax}
	}
	return json.Marshal(f)
}

// ParseConfig reads a config: {"size": 8}, or {"sizes": [6, 11]} for a
// size drawn per game, with optional "first_move_ms" and "move_ms".
// Errors name the file, the line and what was expected.
func ParseConfig(file string, data []byte) (*Config, error) {
	var f fileConfig
	if err := fileerr.DecodeJSON(file, data, &f); err != nil {
		return nil, err
	}
	at := func(path []any, format string, args ...any) error {
		return fileerr.Errorf(file, data, path, format, args...)
	}
	c := Course()
	if f.Variant != "" && f.Variant != c.Variant() {
		return nil, at([]any{"variant"}, `variant %q: want "2023"`, f.Variant)
	}
	switch {
	case f.Size != nil && f.Sizes != nil:
		return nil, at([]any{"size"}, `give "size" or "sizes", not both`)
	case f.Size != nil:
		if *f.Size < MinSize || *f.Size > MaxSize {
			return nil, at([]any{"size"}, "board size %d: want %d to %d", *f.Size, MinSize, MaxSize)
		}
		c.Size = *f.Size
	case f.Sizes != nil:
		if len(f.Sizes) != 2 || f.Sizes[0] < MinSize || f.Sizes[1] > MaxSize || f.Sizes[0] > f.Sizes[1] {
			return nil, at([]any{"sizes"}, "sizes %v: want [min, max] with %d <= min <= max <= %d", f.Sizes, MinSize, MaxSize)
		}
		c.SizeMin, c.SizeMax = f.Sizes[0], f.Sizes[1]
	}
	for _, t := range []struct {
		key string
		v   *int
		dst *int
	}{{"first_move_ms", f.FirstMoveMs, &c.FirstMoveMs}, {"move_ms", f.MoveMs, &c.MoveMs}} {
		if t.v == nil {
			continue
		}
		if *t.v <= 0 || *t.v > maxTimeLimit*1000 {
			return nil, at([]any{t.key}, "%s is %d: want 1 to %d milliseconds (a day)", t.key, *t.v, maxTimeLimit*1000)
		}
		*t.dst = *t.v
	}
	return c, nil
}

// WithSizes returns cfg drawing its size from lo to hi per game.
func (Game) WithSizes(cfg match.Config, lo, hi int) (match.Config, error) {
	return SizeRange(cfg.(*Config), lo, hi)
}

// SizeRange returns a config drawing sizes from lo to hi, for autoplay's
// -sizes.
func SizeRange(base *Config, lo, hi int) (*Config, error) {
	if lo < MinSize || hi > MaxSize || lo > hi {
		return nil, fmt.Errorf("sizes %d-%d: want %d <= min <= max <= %d", lo, hi, MinSize, MaxSize)
	}
	c := *base
	c.Size, c.SizeMin, c.SizeMax = 0, lo, hi
	return &c, nil
}
