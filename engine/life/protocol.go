package life

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/engine/match"
)

// The original's line protocol (spec §8): the server sends each player a
// JSON object with its view of the board, and reads back one line
// {"cells": [[r, c], ...]}. The server parsed replies leniently with Gson,
// and the golden traces hold that: a coordinate may be a number with a
// fraction (truncated: 2.9 is 2), a string holding a whole number ("2"), or
// a one-element list; extra elements of a cell and extra keys are ignored.

// ParseReply reads a player's reply line as the original server did.
func ParseReply(line []byte) (Action, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return nil, fmt.Errorf("reply %q is not a JSON object", clip(line))
	}
	raw, ok := obj["cells"]
	if !ok {
		return nil, fmt.Errorf(`reply %q has no "cells" key`, clip(line))
	}
	return ParseCells(raw)
}

// ParseCells reads a list of cells as the original server did.
func ParseCells(raw json.RawMessage) (Action, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("cells %q: want a list of [row, col]", clip(raw))
	}
	act := make(Action, 0, len(items))
	for i, it := range items {
		var rc []json.RawMessage
		if err := json.Unmarshal(it, &rc); err != nil || len(rc) < 2 {
			return nil, fmt.Errorf("cells[%d] %q: want [row, col]", i, clip(it))
		}
		r, err := gsonInt(rc[0])
		if err != nil {
			return nil, fmt.Errorf("cells[%d] row: %v", i, err)
		}
		c, err := gsonInt(rc[1])
		if err != nil {
			return nil, fmt.Errorf("cells[%d] column: %v", i, err)
		}
		act = append(act, Cell{r, c})
	}
	return act, nil
}

// gsonInt converts a JSON value to int as Gson's JsonElement.getAsInt
// does: numbers go through Java's Integer, Long, then BigDecimal parsing
// (truncating toward zero, keeping the low 32 bits), strings through
// Integer.parseInt, and a list of one element is that element.
func gsonInt(raw json.RawMessage) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, fmt.Errorf("missing value")
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fmt.Errorf("%s is not a string", clip(raw))
		}
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || s == "" {
			return 0, fmt.Errorf("%q is not a whole number", s)
		}
		return int(n), nil
	case '[':
		var one []json.RawMessage
		if err := json.Unmarshal(raw, &one); err != nil || len(one) != 1 {
			return 0, fmt.Errorf("%s is not a number", clip(raw))
		}
		return gsonInt(one[0])
	case 't', 'f', 'n', '{':
		return 0, fmt.Errorf("%s is not a number", clip(raw))
	}
	if n, err := strconv.ParseInt(string(raw), 10, 32); err == nil {
		return int(n), nil
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return int(int32(n)), nil // Java's (int) of a long
	}
	q, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		return 0, fmt.Errorf("%s is not a number", clip(raw))
	}
	whole := new(big.Int).Quo(q.Num(), q.Denom()) // truncates toward zero
	low := new(big.Int).And(whole, big.NewInt(0xffffffff)).Uint64()
	return int(int32(uint32(low))), nil
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// Message returns the line the original server sends to side in state s
// (spec §8): its view of the field ('#' own, 'O' enemy), its bank, the
// rules, the iteration and, for timed players, the time fields.
func Message(s State, side match.Side, timeLeftMs int) []byte {
	field := s.board.Field()
	if side == match.P2 {
		swap := strings.NewReplacer("#", "O", "O", "#")
		for i, row := range field {
			field[i] = swap.Replace(row)
		}
	}
	var b bytes.Buffer
	fieldJSON, _ := json.Marshal(field)
	fmt.Fprintf(&b, `{"field":%s,"cellsRemaining":%d,"cellGainPerTurn":%d,"maxCellCapacity":%d,"maxColonisationDistance":%d,"currIteration":%d,"maxGameIterations":%d`,
		fieldJSON, s.bank[side], s.cfg.Gain, s.cfg.Capacity, s.cfg.Distance, s.iter, s.cfg.Iterations)
	if ms := s.cfg.TimerMs[side]; ms > 0 {
		fmt.Fprintf(&b, `,"timeGainPerTurn":%d,"timeLeftForMove":%d`, ms, timeLeftMs)
	}
	b.WriteString("}\n")
	return b.Bytes()
}
