package life

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// The original's players are programs on a line protocol (spec §8), on
// standard input and output or over TCP: each iteration the server sends
// each player its view of the field ('#' its own cells, 'O' the enemy's)
// with its bank and the rules, and reads one line back, {"cells": [...]}.
// The final state is never sent: the server closes. A player that fails
// hears {"error": ...}. Game implements players.Protocol for the host side
// and players.ClientMaker for `arena bot`.

// Request is side's view of s, with what its clock leaves (limit).
func (Game) Request(ms match.State, side match.Side, _ int, limit time.Duration) []byte {
	return Message(ms.(State), side, int(limit.Milliseconds()))
}

// Reply reads a player's line as the original did; it echoes no id.
func (Game) Reply(line []byte) (match.Action, int, error) {
	a, err := ParseReply(line)
	if err != nil {
		return nil, -1, err
	}
	return a, -1, nil
}

// Final is nothing: the original closed without a word.
func (Game) Final(match.State, match.Side) []byte { return nil }

// ParseRequest reads a view into a state in which P1 is the player that
// received it: '#' cells are P1's.
func (Game) ParseRequest(line []byte) (match.State, int, time.Duration, error) {
	v, err := parseView(line)
	if err != nil {
		return nil, 0, 0, err
	}
	s, err := v.state()
	return s, v.Iteration, time.Duration(v.TimeLeft) * time.Millisecond, err
}

// WriteReply writes {"cells": [[r, c], ...]}.
func (Game) WriteReply(a match.Action, _ int) []byte {
	cells := a.(Action)
	if cells == nil {
		cells = Action{}
	}
	b, _ := json.Marshal(map[string]Action{"cells": cells})
	return append(b, '\n')
}

// NewClient reads the server's lines: views, and an error that ends the
// game; the view of the last iteration is the last one.
func (g Game) NewClient(string) match.Client { return client{} }

type client struct{}

func (client) Hear(line []byte) (match.Heard, error) {
	var e struct {
		Error *string `json:"error"`
	}
	if json.Unmarshal(line, &e) == nil && e.Error != nil {
		return match.Heard{Done: true}, fmt.Errorf("the server ended the game: %s", clip([]byte(*e.Error)))
	}
	v, err := parseView(line)
	if err != nil {
		return match.Heard{}, err
	}
	s, err := v.state()
	if err != nil {
		return match.Heard{}, err
	}
	return match.Heard{State: s, Side: match.P1, ID: v.Iteration, Limit: time.Duration(v.TimeLeft) * time.Millisecond,
		Done: v.Iteration+1 >= v.Iterations}, nil
}

// view is the server's message.
type view struct {
	Field      []string `json:"field"`
	Bank       int      `json:"cellsRemaining"`
	Gain       int      `json:"cellGainPerTurn"`
	Capacity   int      `json:"maxCellCapacity"`
	Distance   int      `json:"maxColonisationDistance"`
	Iteration  int      `json:"currIteration"`
	Iterations int      `json:"maxGameIterations"`
	TimeGain   int      `json:"timeGainPerTurn"`
	TimeLeft   int      `json:"timeLeftForMove"`
}

func parseView(line []byte) (view, error) {
	var v view
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("a view %q: %v", clip(line), err)
	}
	switch {
	case len(v.Field) == 0 || len(v.Field) > MaxSide || len(v.Field[0]) == 0 || len(v.Field[0]) > MaxSide:
		return v, fmt.Errorf("field of %d rows: want 1 to %d rows of 1 to %d cells", len(v.Field), MaxSide, MaxSide)
	case v.Iterations < 1 || v.Iterations > MaxIterations || v.Iteration < 0 || v.Iteration >= v.Iterations:
		return v, fmt.Errorf("iteration %d of %d: out of range", v.Iteration, v.Iterations)
	case v.Bank < 0 || v.Capacity < 0 || v.Gain < 0 || v.Distance < 0 || v.Bank > 1<<20 || v.Capacity > 1<<20 || v.Distance > MaxSide:
		return v, fmt.Errorf("bank %d, capacity %d, gain %d, distance %d: out of range", v.Bank, v.Capacity, v.Gain, v.Distance)
	case v.TimeLeft < 0 || v.TimeGain < 0 || v.TimeGain > MaxTimerMs || v.TimeLeft > 5*MaxTimerMs:
		return v, fmt.Errorf("time %d ms left, %d gained: out of range", v.TimeLeft, v.TimeGain)
	}
	return v, nil
}

// state is the position the view shows, the receiver as P1; the enemy's
// bank, which the view does not tell, is taken to be the same.
func (v view) state() (State, error) {
	b, err := ParseRows(v.Field)
	if err != nil {
		return State{}, err
	}
	cfg := &Config{Rows: b.Rows(), Cols: b.Cols(), Gain: v.Gain, Capacity: v.Capacity, Distance: v.Distance,
		Iterations: v.Iterations, Rules: VariantArena, TimerMs: [2]int{v.TimeGain, v.TimeGain}}
	return State{cfg: cfg, board: b, bank: [2]int{v.Bank, v.Bank}, iter: v.Iteration}, nil
}
