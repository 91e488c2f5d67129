package life

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arena-playground/arena/assets"
	"github.com/arena-playground/arena/engine/match"
)

// Game is the Life battleground in the registry.
type Game struct{}

func init() { match.Register(Game{}) }

// Info describes the game.
func (Game) Info() match.Info {
	return match.Info{Name: "life", Title: "AI Battleground: two-player Life on a torus (BEST Zagreb 2015)",
		Key: 1, Simultaneous: true, Variants: variants}
}

// Presets are the competition board and two larger boards with mirrored
// random starts.
func (Game) Presets() []match.Preset {
	return presets
}

var presets = []match.Preset{
	preset("competition", "competition.json", "24x24, two 2x2 blocks, 500 iterations (configFinal.json)"),
	preset("64x64", "64x64.json", "64x64, 8 mirrored random still lifes each"),
	preset("128x128", "128x128.json", "128x128, 24 mirrored random still lifes each"),
}

func preset(name, file, desc string) match.Preset {
	data, err := assets.Life.ReadFile("life/" + file)
	if err != nil {
		panic(err) // embedded at build time
	}
	cfg, err := ParseConfig(file, data)
	if err != nil {
		panic(err)
	}
	return match.Preset{Name: name, Description: desc, Config: cfg}
}

// LoadConfig reads a config in the original's config.json shape.
func (Game) LoadConfig(file string, data []byte) (match.Config, error) {
	return ParseConfig(file, data)
}

// Start returns the initial state.
func (Game) Start(cfg match.Config, seed uint64) (match.State, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("life: config of type %T", cfg)
	}
	return NewState(c, seed), nil
}

// DecodeAction reads an action as written in replays: [[row, col], ...].
func (Game) DecodeAction(data []byte) (match.Action, error) {
	var a Action
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, err
	}
	if a == nil {
		a = Action{}
	}
	return a, nil
}

// Clock returns the original's time bucket for a timed player: it holds
// 5 x timer.maxLength, starts full and gains timer.maxLength per move.
func (Game) Clock(cfg match.Config, side match.Side) match.Clock {
	ms := cfg.(*Config).TimerMs[side]
	if ms <= 0 {
		return nil
	}
	L := time.Duration(ms) * time.Millisecond
	return match.NewTimeBucket(L, 5*L)
}

// Conform checks a golden scenario/trace pair; see the package function.
func (Game) Conform(file string, read func(string) ([]byte, error)) (string, error) {
	return Conform(file, read)
}
