package evasion

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/internal/fileerr"
)

// Config is a session's settings: the original's command-line maxWalls
// and delay, and the playground's tick cap and clock.
type Config struct {
	MaxWalls int
	Delay    int
	// TickCap ends a game the original would play forever (a hunter that
	// walled itself off): the prey then scores the cap.
	TickCap int
	// ClockMs is each player's thinking time per game, as the original's
	// 120 s. It rules programs and network players (and built-in bots
	// when a match asks for clocks for all).
	ClockMs int
}

// Limits of a config. The course's range is 2 <= maxWalls <= 10 and
// 1 <= delay <= 50; the original accepts any int, and so do we within
// bounds that keep memory and time finite.
const (
	MaxMaxWalls   = 1000
	MaxDelay      = 1_000_000
	MaxTickCap    = 1_000_000
	DefaultTicks  = 30_000
	DefaultClock  = 120_000
	maxClockMs    = 24 * 3600 * 1000
	ConfigVariant = "2020"
)

// Preset returns the default settings with maxWalls and delay.
func Preset(maxWalls, delay int) *Config {
	return &Config{MaxWalls: maxWalls, Delay: delay, TickCap: DefaultTicks, ClockMs: DefaultClock}
}

// Variant names the rules: the fall-2020 course server.
func (c *Config) Variant() string { return ConfigVariant }

// MaxTurns is not known ahead: the timeline grows with the session.
func (c *Config) MaxTurns() int { return 0 }

type fileConfig struct {
	Variant  string `json:"variant,omitempty"`
	MaxWalls *int   `json:"max_walls"`
	Delay    *int   `json:"delay"`
	TickCap  *int   `json:"tick_cap,omitempty"`
	ClockMs  *int   `json:"clock_ms,omitempty"`
}

// MarshalJSON writes {"variant": "2020", "max_walls": 10, "delay": 10, ...}.
func (c *Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(fileConfig{Variant: c.Variant(), MaxWalls: &c.MaxWalls, Delay: &c.Delay, TickCap: &c.TickCap, ClockMs: &c.ClockMs})
}

// ParseConfig reads {"max_walls": 10, "delay": 10} with optional
// "tick_cap" and "clock_ms". Errors name the file, the line and what was
// expected.
func ParseConfig(file string, data []byte) (*Config, error) {
	var f fileConfig
	if err := fileerr.DecodeJSON(file, data, &f); err != nil {
		return nil, err
	}
	at := func(key string, format string, args ...any) error {
		return fileerr.Errorf(file, data, []any{key}, format, args...)
	}
	if f.Variant != "" && f.Variant != ConfigVariant {
		return nil, at("variant", "variant %q: want %q", f.Variant, ConfigVariant)
	}
	c := Preset(10, 10)
	for _, t := range []struct {
		key    string
		v      *int
		dst    *int
		lo, hi int
		unit   string
	}{
		{"max_walls", f.MaxWalls, &c.MaxWalls, 0, MaxMaxWalls, "walls"},
		{"delay", f.Delay, &c.Delay, 0, MaxDelay, "ticks"},
		{"tick_cap", f.TickCap, &c.TickCap, 1, MaxTickCap, "ticks"},
		{"clock_ms", f.ClockMs, &c.ClockMs, 1, maxClockMs, "milliseconds"},
	} {
		if t.v == nil {
			continue
		}
		if *t.v < t.lo || *t.v > t.hi {
			return nil, at(t.key, "%s is %d: want %d to %d %s", t.key, *t.v, t.lo, t.hi, t.unit)
		}
		*t.dst = *t.v
	}
	return c, nil
}

func (c *Config) String() string {
	return fmt.Sprintf("%d walls, delay %d", c.MaxWalls, c.Delay)
}
