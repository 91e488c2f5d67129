package evasion

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// Game is Evasion in the registry.
type Game struct{}

func init() { match.Register(Game{}) }

// Info describes the game.
func (Game) Info() match.Info {
	return match.Info{Name: "evasion", Title: "Evasion: hunter and prey (NYU Heuristic Problem Solving, 2020)",
		Key: 4, Simultaneous: true, Variants: []string{ConfigVariant}}
}

// Presets are the playground's default and the course's extremes, and
// the upstream README's example (playground decision 1).
func (Game) Presets() []match.Preset {
	return []match.Preset{
		{Name: "default", Description: "10 walls, a new wall every 10 ticks", Config: Preset(10, 10)},
		{Name: "2-1", Description: "2 walls, a new wall every tick", Config: Preset(2, 1)},
		{Name: "10-50", Description: "10 walls, a new wall every 50 ticks", Config: Preset(10, 50)},
		{Name: "readme", Description: "100 walls, every 10 ticks: the course README's example", Config: Preset(100, 10)},
	}
}

// LoadConfig reads a config.
func (Game) LoadConfig(file string, data []byte) (match.Config, error) {
	return ParseConfig(file, data)
}

// Start returns tick 0 of game 0; nothing is left to chance.
func (Game) Start(cfg match.Config, _ uint64) (match.State, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("evasion: config of type %T", cfg)
	}
	return NewState(c), nil
}

// DecodeAction reads a reply's numbers or "timeout".
func (Game) DecodeAction(data []byte) (match.Action, error) {
	if reply, ok := replyWritten(data); ok {
		return Action{Reply: reply}, nil
	}
	var a Action
	err := json.Unmarshal(data, &a)
	return a, err
}

// Clock is the original's: 120 s per player per game, counted while the
// player decides.
func (Game) Clock(cfg match.Config, _ match.Side) match.Clock {
	return &match.PerGame{Per: time.Duration(cfg.(*Config).ClockMs) * time.Millisecond}
}

// Substitute is the original's consequence of a late reply, and the
// playground's for a player that fails otherwise (decision 4): the game
// ends as a time-out, and the session goes on.
func (Game) Substitute(match.State, match.Side, *rand.Rand, error) match.Action {
	return Action{TimeOut: true}
}

// Conform replays a golden transcript.
func (Game) Conform(file string, read func(string) ([]byte, error)) (string, error) {
	return Conform(file, read)
}
