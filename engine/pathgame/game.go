package pathgame

import (
	"fmt"
	"math/rand/v2"

	"github.com/arena-playground/arena/engine/match"
)

// Game is Adversarial Shortest Path in the registry.
type Game struct{}

func init() { match.Register(Game{}) }

// Info describes the game.
func (Game) Info() match.Info {
	return match.Info{Name: "pathgame", Title: "Adversarial shortest path (NYU Heuristic Problem Solving, 2017)",
		Key: 5, Variants: []string{"min", "max"}}
}

// Presets are the course's graphs and generated ones of 50, 300 and 1000
// nodes (a new graph for each seed).
func (Game) Presets() []match.Preset {
	return []match.Preset{
		{Name: "advshort", Description: "the 2017 server's graph: 300 nodes, 1410 edges", Config: &Config{Graph: "advshort"}},
		{Name: "advshort-2016", Description: "the fall-2016 graph: 200 nodes, 868 edges", Config: &Config{Graph: "advshort-2016"}},
		{Name: "short", Description: "the server's short_game.txt: 4 nodes", Config: &Config{Graph: "short"}},
		{Name: "gen-50", Description: "a course-style graph of 50 nodes from the seed", Config: &Config{Nodes: 50}},
		{Name: "gen-300", Description: "a course-style graph of 300 nodes from the seed", Config: &Config{Nodes: 300}},
		{Name: "gen-1000", Description: "a course-style graph of 1000 nodes from the seed", Config: &Config{Nodes: 1000}},
	}
}

// LoadConfig reads a graph file or a JSON config.
func (Game) LoadConfig(file string, data []byte) (match.Config, error) {
	return ParseConfig(file, data)
}

// Start reads or generates the graph and starts the first game.
func (Game) Start(cfg match.Config, seed uint64) (match.State, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("pathgame: config of type %T", cfg)
	}
	g, err := c.graph(seed)
	if err != nil {
		return nil, err
	}
	r := NewRound(g, c.Variant() == "max")
	r.Share() // a state's round is shared by every copy of the state
	return State{cfg: c, g: g, r: r}, nil
}

// DecodeAction reads a message or "fault".
func (Game) DecodeAction(data []byte) (match.Action, error) {
	var a Action
	err := a.UnmarshalJSON(data)
	return a, err
}

// Clock is the original's 120 s per side per game.
func (Game) Clock(cfg match.Config, _ match.Side) match.Clock {
	return &match.PerGame{Per: cfg.(*Config).Clock()}
}

// Substitute is the playground's consequence of a late or crashing
// message (decisions 3 and 5): the game ends, the side at fault's.
func (Game) Substitute(_ match.State, _ match.Side, _ *rand.Rand, why error) match.Action {
	a := Action{Fault: true}
	if why != nil {
		a.Why = why.Error()
	}
	return a
}

// Conform replays a scenario against its golden trace.
func (Game) Conform(file string, read func(string) ([]byte, error)) (string, error) {
	return Conform(file, read)
}
