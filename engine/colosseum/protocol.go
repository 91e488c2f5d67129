package colosseum

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// The JSON-lines protocol of the course bridge (rules/colosseum.md §9),
// one object per line. Each turn the host sends
//
//	{"type":"step","id":k,"turn":t,"player":0|1,"board_size":N,"max_step":K,
//	 "my_pos":[r,c],"adv_pos":[r,c],"walls":[[[u,r,d,l],...],...],"time_limit":2.0|null}
//
// and the player answers {"pos":[r,c],"dir":d}, optionally echoing "id".
// At the end the host sends {"type":"end","player":p,"scores":[mine,theirs],
// "result":"win"|"loss"|"tie"} and closes the player's input.

// StepMessage is what the host sends.
type StepMessage struct {
	Type      string       `json:"type"`
	ID        int          `json:"id"`
	Turn      int          `json:"turn"`
	Player    int          `json:"player"`
	BoardSize int          `json:"board_size"`
	MaxStep   int          `json:"max_step"`
	MyPos     [2]int       `json:"my_pos"`
	AdvPos    [2]int       `json:"adv_pos"`
	Walls     [][][4]uint8 `json:"walls"`
	TimeLimit *float64     `json:"time_limit"`
}

// EndMessage closes a game.
type EndMessage struct {
	Type   string `json:"type"`
	Player int    `json:"player"`
	Scores [2]int `json:"scores"`
	Result string `json:"result"`
}

// Step writes the step message for the side to move in s.
func Step(s State, id int, limit time.Duration) []byte {
	side := s.Mover()
	m := StepMessage{Type: "step", ID: id, Turn: s.turn, Player: int(side), BoardSize: s.board.N, MaxStep: s.k,
		MyPos: [2]int{s.pos[side].Row, s.pos[side].Col}, AdvPos: [2]int{s.pos[1-side].Row, s.pos[1-side].Col}}
	m.Walls = make([][][4]uint8, s.board.N)
	for r := range s.board.N {
		m.Walls[r] = make([][4]uint8, s.board.N)
		for c := range s.board.N {
			for d := Up; d <= Left; d++ {
				if s.board.Wall(Cell{r, c}, d) {
					m.Walls[r][c][d] = 1
				}
			}
		}
	}
	if limit > 0 {
		l := limit.Seconds()
		m.TimeLimit = &l
	}
	b, _ := json.Marshal(m)
	return append(b, '\n')
}

// End writes the end message for side.
func End(s State, side match.Side) []byte {
	res := "tie"
	switch o := s.Outcome(); o.Winner {
	case side:
		res = "win"
	case side.Other():
		res = "loss"
	}
	b, _ := json.Marshal(EndMessage{Type: "end", Player: int(side), Scores: [2]int{s.scores[side], s.scores[1-side]}, Result: res})
	return append(b, '\n')
}

// maxTimeLimit bounds a step message's time_limit, in seconds: a day is
// more than any game allows, and far from overflowing a duration.
const maxTimeLimit = 24 * 3600

// ParseStep reads a step message into the state it describes, with the
// turn's time limit (0 when none) and id.
func ParseStep(line []byte) (State, int, time.Duration, error) {
	var m StepMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return State{}, 0, 0, fmt.Errorf("step message: %v", err)
	}
	n := m.BoardSize
	switch {
	case m.Type != "step":
		return State{}, 0, 0, fmt.Errorf(`message type %q: want "step"`, m.Type)
	case n < MinSize || n > MaxSize:
		return State{}, 0, 0, fmt.Errorf("board_size %d: want %d to %d", n, MinSize, MaxSize)
	case len(m.Walls) != n:
		return State{}, 0, 0, fmt.Errorf("walls has %d rows for a board of %d", len(m.Walls), n)
	case m.Player != 0 && m.Player != 1:
		return State{}, 0, 0, fmt.Errorf("player %d: want 0 or 1", m.Player)
	case m.MaxStep < 0:
		return State{}, 0, 0, fmt.Errorf("max_step %d: want a positive number", m.MaxStep)
	case m.Turn < 0:
		return State{}, 0, 0, fmt.Errorf("turn %d: want the number of moves made, 0 or more", m.Turn)
	case m.TimeLimit != nil && !(*m.TimeLimit >= 0 && *m.TimeLimit <= maxTimeLimit):
		return State{}, 0, 0, fmt.Errorf("time_limit %v: want 0 to %d seconds", *m.TimeLimit, maxTimeLimit)
	}
	b := NewBoard(n)
	for r, row := range m.Walls {
		if len(row) != n {
			return State{}, 0, 0, fmt.Errorf("walls row %d has %d cells for a board of %d", r, len(row), n)
		}
		for c, sides := range row {
			for d := Up; d <= Left; d++ {
				if sides[d] != 0 {
					b.SetWall(Cell{r, c}, d)
				}
			}
		}
	}
	side := match.Side(m.Player)
	var pos [2]Cell
	pos[side], pos[1-side] = Cell{m.MyPos[0], m.MyPos[1]}, Cell{m.AdvPos[0], m.AdvPos[1]}
	for _, p := range pos {
		if !b.In(p) {
			return State{}, 0, 0, fmt.Errorf("position %v is off the %dx%d board", p, n, n)
		}
	}
	// The turn's parity tells whose move it is; keep the count, but make
	// its parity the player's, whatever the host sent.
	turn := m.Turn
	if turn%2 != m.Player {
		turn++
	}
	s := State{cfg: Sized(n), board: b, pos: pos, k: m.MaxStep, turn: turn, rng: NewNumPy(uint32(m.ID))}
	s.scores[0], s.scores[1], s.over = b.regions(pos[0], pos[1])
	var limit time.Duration
	if m.TimeLimit != nil {
		limit = time.Duration(*m.TimeLimit * float64(time.Second))
	}
	return s, m.ID, limit, nil
}

// ParseReply reads a player's answer: {"pos": [r, c], "dir": d}, with
// an optional "id". It checks the shape, not the rules: that is Check's.
func ParseReply(line []byte) (Move, error) {
	var j struct {
		Pos   *[]int  `json:"pos"`
		Dir   *int    `json:"dir"`
		ID    *int    `json:"id"`
		Error *string `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&j); err != nil {
		return Move{}, fmt.Errorf("reply %q is not a JSON object", clip(line))
	}
	switch {
	case j.Error != nil && j.Pos == nil:
		// A player that says why it has no move (arena's Python runner,
		// when the agent's step raised).
		why := *j.Error
		if len(why) > 300 {
			why = why[:297] + "..."
		}
		return Move{}, match.Reported(why)
	case j.Pos == nil || len(*j.Pos) != 2:
		return Move{}, fmt.Errorf(`reply %q: want "pos": [row, col]`, clip(line))
	case j.Dir == nil || *j.Dir < 0 || *j.Dir > 3:
		return Move{}, fmt.Errorf(`reply %q: want "dir": 0 (up), 1 (right), 2 (down) or 3 (left)`, clip(line))
	}
	return Move{Cell{(*j.Pos)[0], (*j.Pos)[1]}, Dir(*j.Dir)}, nil
}

// PythonRunner is the runner that plays an agent file written for the
// course's simulator (agents/student_agent.py): see agentrunner.py.
func (Game) PythonRunner() (name string, source []byte) { return "agentrunner.py", agentRunner }

//go:embed agentrunner.py
var agentRunner []byte

// replyID returns the id a reply echoes, or -1.
func replyID(line []byte) int {
	var j struct {
		ID *int `json:"id"`
	}
	if json.Unmarshal(line, &j) != nil || j.ID == nil {
		return -1
	}
	return *j.ID
}

func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
