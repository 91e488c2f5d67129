package pathgame

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// Action is a side's message (its JSON object, as sent), or a fault: the
// side's clock ran out, or its message would have crashed the original.
type Action struct {
	Msg   json.RawMessage
	Fault bool
	// Why the side faulted, for the result's reason; a replay keeps it
	// in the turn's "replaced", and its action is just "fault".
	Why string
}

// MarshalJSON writes the message itself, or "fault".
func (a Action) MarshalJSON() ([]byte, error) {
	if a.Fault {
		return []byte(`"fault"`), nil
	}
	if len(a.Msg) == 0 {
		return []byte("null"), nil
	}
	return a.Msg, nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Action) UnmarshalJSON(b []byte) error {
	if string(b) == `"fault"` {
		*a = Action{Fault: true}
		return nil
	}
	if len(b) > MaxMessage {
		return fmt.Errorf("a message of %d bytes; at most %d", len(b), MaxMessage)
	}
	*a = Action{Msg: append(json.RawMessage(nil), b...)}
	return nil
}

// Move is the player's message to step from its node to node to.
func Move(g *Graph, from, to int) Action {
	m, _ := json.Marshal(map[string]string{"start_node": g.IDs[from], "end_node": g.IDs[to]})
	return Action{Msg: m}
}

// RaiseEdge is the adversary's message to raise edge e.
func RaiseEdge(g *Graph, e int) Action {
	m, _ := json.Marshal(map[string]string{"node_1": g.IDs[g.Edges[e].A], "node_2": g.IDs[g.Edges[e].B]})
	return Action{Msg: m}
}

// GameEnd is how one game of a pairing ended.
type GameEnd struct {
	Arrived bool
	Cost    float64
	// Fault is the role whose clock, move cap or message ended the game;
	// -1 when the player arrived.
	Fault Role
	Why   string
	Final Round
	Last  *Update // the update of the game's last message
}

// State is a position in a pairing: two games on one graph, P1 the player
// in the first and P2 in the second.
type State struct {
	cfg  *Config
	g    *Graph
	game int // 0, 1; 2 once the pairing is over
	r    Round
	turn int
	last *Update // the update of the last message, for front ends
	ends [2]*GameEnd
}

// PlayerSide is the side that walks in game g.
func PlayerSide(g int) match.Side { return match.Side(g & 1) }

// GameNum is the game being played: 0, 1, or 2 once over.
func (s State) GameNum() int { return s.game }

// Graph returns the board.
func (s State) Graph() *Graph { return s.g }

// Round returns the game in progress (the last game's end once over).
func (s State) Round() Round {
	if s.game == 2 {
		return s.ends[1].Final
	}
	return s.r
}

// End returns how game g ended, or nil.
func (s State) End(g int) *GameEnd { return s.ends[g] }

// Last is the update of the last message of this game, nil at its start.
func (s State) Last() *Update { return s.last }

// RoleOf returns side's role in the current game.
func (s State) RoleOf(side match.Side) Role {
	if side == PlayerSide(s.game) {
		return Player
	}
	return Adversary
}

// Turn counts the messages played in the pairing.
func (s State) Turn() int { return s.turn }

// ToMove is the side whose message is due.
func (s State) ToMove() match.Movers {
	if s.game == 2 {
		return match.Nobody
	}
	side := PlayerSide(s.game)
	if s.r.Turn == Adversary {
		side = side.Other()
	}
	return match.Movers(1 << side)
}

// Check refuses what the original server crashed on: not a JSON object,
// a missing key, a message too long, an adversary's numeric ids.
func (s State) Check(side match.Side, a match.Action) error {
	act, ok := a.(Action)
	if !ok {
		return fmt.Errorf("action of type %T", a)
	}
	if act.Fault {
		return nil
	}
	m, err := ParseMessage(s.RoleOf(side), act.Msg)
	if err != nil {
		return err
	}
	r := s.r
	r.Share()
	_, err = r.Play(m)
	return err
}

// Apply plays a message, or ends the game on a fault; the move cap is the
// original's: the (2N+1)-th message ends the game.
func (s State) Apply(acts [2]match.Action) match.State {
	side := s.ToMove().Side()
	role := s.RoleOf(side)
	a := acts[side].(Action)
	s.turn++
	switch {
	case a.Fault:
		u := s.r.Stop(role)
		s.last = &u
		why := a.Why
		if why == "" {
			why = "a fault"
		}
		return s.endGame(false, role, why)
	case s.r.Msgs[role] >= s.r.MoveCap():
		u := s.r.Stop(role)
		s.last = &u
		return s.endGame(false, role, fmt.Sprintf("the %s's message %d is beyond the cap of 2N = %d", role, s.r.Msgs[role], s.r.MoveCap()))
	}
	m, _ := ParseMessage(role, a.Msg)
	s.r.Share() // the costs are the state before's
	u, _ := s.r.Play(m)
	s.r.Share()
	s.last = &u
	if s.r.Done {
		return s.endGame(true, -1, "")
	}
	return s
}

// endGame records the game's end and starts the next.
func (s State) endGame(arrived bool, fault Role, why string) State {
	s.ends[s.game] = &GameEnd{Arrived: arrived, Cost: s.r.Cost, Fault: fault, Why: why, Final: s.r, Last: s.last}
	s.game++
	if s.game < 2 {
		s.r = NewRound(s.g, s.cfg.Variant() == "max")
		s.r.Share()
		s.last = nil
	}
	return s
}

// Outcome compares the two players (playground decisions 3 and 4): a
// side whose adversary faulted loses; else arriving beats not arriving,
// then the lower cost wins; equal is a draw. Scores[side] is the cost
// side paid as the player (0 until it has walked).
func (s State) Outcome() match.Outcome {
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Cost(0), match.Cost(0)}}
	var res [2]*GameEnd // by the side that walked
	for g := range 2 {
		res[PlayerSide(g)] = s.ends[g]
	}
	for side, e := range res {
		if e != nil {
			o.Scores[side] = match.Cost(e.Cost)
		}
	}
	if s.game < 2 {
		o.Reason = "pairing in progress"
		return o
	}
	text := func(e *GameEnd) string {
		if e.Arrived {
			return fmt.Sprintf("arrived for %s", trimFloat(e.Cost))
		}
		return fmt.Sprintf("did not arrive (%s so far)", trimFloat(e.Cost))
	}
	o.Reason = fmt.Sprintf("P1 %s, P2 %s", text(res[0]), text(res[1]))
	adversaryFault := func(side match.Side) bool {
		// side's adversary played the game the other side walked.
		e := res[side.Other()]
		return e.Fault == Adversary
	}
	switch f1, f2 := adversaryFault(match.P1), adversaryFault(match.P2); {
	case f1 && !f2:
		o.Winner, o.Reason = match.P2, "P1's adversary faulted ("+res[1].Why+"); "+o.Reason
		return o
	case f2 && !f1:
		o.Winner, o.Reason = match.P1, "P2's adversary faulted ("+res[0].Why+"); "+o.Reason
		return o
	}
	a, b := res[0], res[1]
	switch {
	case a.Arrived && !b.Arrived:
		o.Winner = match.P1
	case b.Arrived && !a.Arrived:
		o.Winner = match.P2
	case a.Cost < b.Cost:
		o.Winner = match.P1
	case b.Cost < a.Cost:
		o.Winner = match.P2
	}
	return o
}

// trimFloat writes a cost for people: "24.94".
func trimFloat(f float64) string {
	if f >= 1e6 {
		return fmt.Sprintf("%.4g", f)
	}
	return fmt.Sprintf("%.2f", f)
}

// Bytes is what the state holds (play.Weigher), counting the edge costs
// as its own although a move shares them with the state before it.
func (s State) Bytes() int { return 8*len(s.r.costs) + 256 }
