package pathgame

import (
	"bytes"
	"fmt"
	"path"
	"time"

	"github.com/arena-playground/arena/assets"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Config is a pairing's settings: the graph (a course file, a generated
// one, or a file given), the factor's rule and the clock.
type Config struct {
	// Graph names an embedded course graph ("advshort", "advshort-2016",
	// "short"); empty when Nodes or Text gives the graph.
	Graph string `json:"graph,omitempty"`
	// Nodes, when set, generates a course-style graph of that many nodes
	// from the match's seed.
	Nodes int `json:"nodes,omitempty"`
	// Text is a graph file's content, kept in the config so that replays
	// and links carry it; Name is the file's name.
	Text string `json:"text,omitempty"`
	Name string `json:"name,omitempty"`
	// Rule is "min" (the 2017 code and course page) or "max" (the
	// README's stale sentence, playground decision 1).
	Rule    string `json:"rule,omitempty"`
	ClockMs int    `json:"clock_ms,omitempty"`
}

// Course graphs embedded in arena, by config name.
var courseGraphs = map[string]string{
	"advshort":      "pathgame/advshort.txt",
	"advshort-2016": "pathgame/advshort_2016.txt",
	"short":         "pathgame/short_game.txt",
}

// DefaultClock is each side's thinking time per game, as the original's.
const DefaultClock = 120_000

// Variant names the factor's rule.
func (c *Config) Variant() string {
	if c.Rule == "max" {
		return "max"
	}
	return "min"
}

// MaxTurns is not known ahead.
func (c *Config) MaxTurns() int { return 0 }

// Clock is each side's thinking time per game.
func (c *Config) Clock() time.Duration {
	ms := DefaultClock
	if c.ClockMs > 0 {
		ms = c.ClockMs
	}
	return time.Duration(ms) * time.Millisecond
}

// graph reads or makes the config's graph.
func (c *Config) graph(seed uint64) (*Graph, error) {
	switch {
	case c.Graph != "":
		name, ok := courseGraphs[c.Graph]
		if !ok {
			return nil, fmt.Errorf("graph %q: want advshort, advshort-2016 or short", c.Graph)
		}
		data, err := assets.PathGame.ReadFile(name)
		if err != nil {
			return nil, err
		}
		return ParseGraph(path.Base(name), data)
	case c.Nodes > 0:
		data, err := Generate(c.Nodes, seed)
		if err != nil {
			return nil, err
		}
		return ParseGraph(fmt.Sprintf("generated-%d-seed-%d.txt", c.Nodes, seed), data)
	case c.Text != "":
		name := c.Name
		if name == "" {
			name = "graph.txt"
		}
		return ParseGraph(name, []byte(c.Text))
	}
	return nil, fmt.Errorf("a config with no graph: give graph, nodes or text")
}

// ParseConfig reads a graph file in the course's format, or a JSON config
// {"graph": "advshort"} / {"nodes": 300} / {"text": "...", "name": "..."}
// with optional "rule" ("min" or "max") and "clock_ms".
func ParseConfig(file string, data []byte) (*Config, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		if _, err := ParseGraph(file, data); err != nil {
			return nil, err
		}
		return &Config{Text: string(data), Name: path.Base(file)}, nil
	}
	var c Config
	if err := fileerr.DecodeJSON(file, data, &c); err != nil {
		return nil, err
	}
	at := func(key, format string, args ...any) error {
		return fileerr.Errorf(file, data, []any{key}, format, args...)
	}
	switch c.Rule {
	case "", "min", "max":
	default:
		return nil, at("rule", "rule %q: want min or max", c.Rule)
	}
	if c.ClockMs < 0 || c.ClockMs > 24*3600*1000 {
		return nil, at("clock_ms", "clock_ms %d: want 1 to 86400000", c.ClockMs)
	}
	if c.Nodes < 0 || c.Nodes > MaxNodes {
		return nil, at("nodes", "nodes %d: want 2 to %d", c.Nodes, MaxNodes)
	}
	if _, err := c.graph(1); err != nil {
		return nil, &fileerr.FileError{File: file, Msg: err.Error()}
	}
	return &c, nil
}
