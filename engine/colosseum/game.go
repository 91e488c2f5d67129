package colosseum

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// Game is Colosseum Survival in the registry.
type Game struct{}

func init() { match.Register(Game{}) }

// Info describes the game.
func (Game) Info() match.Info {
	return match.Info{Name: "colosseum", Title: "Colosseum Survival: move and wall (McGill COMP 424, 2023)",
		Key: 2, Variants: []string{"2023"}}
}

// Presets are the course's random board and fixed sizes 6 to 12.
func (Game) Presets() []match.Preset {
	ps := []match.Preset{{Name: "course", Description: "a random board of 6 to 11, as the course draws it", Config: Course()}}
	for n := 6; n <= 12; n++ {
		ps = append(ps, match.Preset{Name: strconv.Itoa(n), Description: fmt.Sprintf("a %dx%d board", n, n), Config: Sized(n)})
	}
	return ps
}

// LoadConfig reads a config.
func (Game) LoadConfig(file string, data []byte) (match.Config, error) {
	return ParseConfig(file, data)
}

// Start generates the board from the seed, as np.random.seed(seed) then
// World() do.
func (Game) Start(cfg match.Config, seed uint64) (match.State, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("colosseum: config of type %T", cfg)
	}
	if seed > 1<<32-1 {
		return nil, fmt.Errorf("seed %d: the course's generator takes seeds from 0 to 4294967295", seed)
	}
	return NewState(c, seed), nil
}

// DecodeAction reads {"pos": [r, c], "dir": d}.
func (Game) DecodeAction(data []byte) (match.Action, error) {
	var m Move
	err := json.Unmarshal(data, &m)
	return m, err
}

// Clock is the course's rule: 30 s for the first move, 2 s after.
func (Game) Clock(cfg match.Config, side match.Side) match.Clock {
	c := cfg.(*Config)
	return &match.PerMove{First: time.Duration(c.FirstMoveMs) * time.Millisecond, Each: time.Duration(c.MoveMs) * time.Millisecond}
}

// Substitute is the course's consequence of a late, invalid or crashing
// move: the engine's random walk, drawn from the match's stream.
func (Game) Substitute(s match.State, side match.Side, _ *rand.Rand, _ error) match.Action {
	st := s.(State)
	return st.RandomWalk(st.rng)
}

// Conform checks a reference file recorded from the course code.
func (Game) Conform(file string, read func(string) ([]byte, error)) (string, error) {
	return Conform(file, read)
}

// Request is the step message of the course bridge (protocol.go).
func (Game) Request(s match.State, _ match.Side, id int, limit time.Duration) []byte {
	return Step(s.(State), id, limit)
}

// Reply reads a player's answer and the id it echoes.
func (Game) Reply(line []byte) (match.Action, int, error) {
	m, err := ParseReply(line)
	if err != nil {
		return nil, replyID(line), err
	}
	return m, replyID(line), nil
}

// Final is the end message.
func (Game) Final(s match.State, side match.Side) []byte { return End(s.(State), side) }

// ParseRequest reads a step message.
func (Game) ParseRequest(line []byte) (match.State, int, time.Duration, error) {
	s, id, limit, err := ParseStep(line)
	if err != nil {
		return nil, 0, 0, err
	}
	return s, id, limit, nil
}

// WriteReply answers request id with a move.
func (Game) WriteReply(a match.Action, id int) []byte {
	m := a.(Move)
	return fmt.Appendf(nil, "{\"pos\":[%d,%d],\"dir\":%d,\"id\":%d}\n", m.To.Row, m.To.Col, m.Dir, id)
}
