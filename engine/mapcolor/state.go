package mapcolor

import (
	"fmt"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Move colours a state.
type Move struct {
	State  string `json:"state"`
	Colour string `json:"colour"`
}

// String writes the move as the course's trace names it: "NSW, B".
func (m Move) String() string { return m.State + ", " + m.Colour }

// State is a colouring in a whole game: who coloured what, whose turn it
// is (Player 1, the maximiser, moves first after the initial assignment)
// and the last colouring, which names the root of the next search.
type State struct {
	w                *world
	colour           []int8
	owner            []int8
	turn             int
	score            [2]int
	last, lastColour int
}

func newState(w *world) State {
	s := State{w: w, colour: make([]int8, len(w.p.States)), owner: make([]int8, len(w.p.States))}
	for i := range s.colour {
		s.colour[i], s.owner[i] = -1, -1
	}
	for _, a := range w.p.Initial {
		s.set(a.State, a.Colour, a.Player)
	}
	return s
}

func (s *State) set(state, colour int, side match.Side) {
	s.colour[state], s.owner[state] = int8(colour), int8(side)
	s.score[side] += s.w.p.Weights[side][colour]
	s.last, s.lastColour = state, colour
}

// Problem returns the map, colours and weights.
func (s State) Problem() *Problem { return s.w.p }

// Geometry returns how the map is drawn.
func (s State) Geometry() Geometry { return s.w.geo }

// MapName names the map.
func (s State) MapName() string { return s.w.name }

// Depth is the search depth of the map's input (or of the config).
func (s State) Depth() int { return s.w.depth }

// Colour returns the colour of a state (-1 if none) and who coloured it.
func (s State) Colour(state int) (int, match.Side) {
	return int(s.colour[state]), match.Side(s.owner[state])
}

// Last returns the state and colour of the last colouring.
func (s State) Last() (int, int) { return s.last, s.lastColour }

// Score returns the players' scores: each coloured state's weight in the
// table of whoever coloured it.
func (s State) Score() [2]int { return s.score }

// Turn returns the number of moves made after the initial assignment.
func (s State) Turn() int { return s.turn }

// Mover returns the side to move: P1 on even turns.
func (s State) Mover() match.Side { return match.Side(s.turn % 2) }

// position builds the search's position for s.
func (s State) position() *position {
	pos := newPosition(s.w.p)
	for i, c := range s.colour {
		if c >= 0 {
			pos.play(move{i, int(c)}, match.Side(s.owner[i]))
		}
	}
	return pos
}

// Moves lists the legal moves in the course's expansion order.
func (s State) Moves() []Move {
	var out []Move
	for _, m := range s.position().moves(nil) {
		out = append(out, Move{s.w.p.States[m.state], s.w.p.Colours[m.colour]})
	}
	return out
}

// Playable reports, per state, whether it may be coloured now.
func (s State) Playable() []bool {
	out := make([]bool, len(s.colour))
	for _, m := range s.position().moves(nil) {
		out[m.state] = true
	}
	return out
}

// ToMove is the side to move, or nobody when no state can be coloured.
func (s State) ToMove() match.Movers {
	if len(s.position().moves(nil)) == 0 {
		return match.Nobody
	}
	return match.Only(s.Mover())
}

// index finds a move's state and colour.
func (s State) index(m Move) (int, int, error) {
	st := slices.Index(s.w.p.States, m.State)
	if st < 0 {
		return 0, 0, fmt.Errorf("state %q is not on the map", m.State)
	}
	c := slices.Index(s.w.p.Colours, m.Colour)
	if c < 0 {
		return 0, 0, fmt.Errorf("colour %q is not one of %v", m.Colour, s.w.p.Colours)
	}
	return st, c, nil
}

// Check validates a move: an uncoloured state next to a coloured one, in
// a colour none of its coloured neighbours has.
func (s State) Check(side match.Side, a match.Action) error {
	m, ok := a.(Move)
	if !ok {
		return fmt.Errorf("action of type %T is not a move", a)
	}
	st, c, err := s.index(m)
	if err != nil {
		return err
	}
	if s.colour[st] >= 0 {
		return fmt.Errorf("%s is already coloured", m.State)
	}
	near := false
	for _, nb := range s.w.p.Adj[st] {
		if s.colour[nb] >= 0 {
			near = true
			if int(s.colour[nb]) == c {
				return fmt.Errorf("%s's neighbour %s is %s already", m.State, s.w.p.States[nb], m.Colour)
			}
		}
	}
	if !near {
		return fmt.Errorf("%s has no coloured neighbour yet", m.State)
	}
	return nil
}

// Apply plays the mover's move.
func (s State) Apply(acts [2]match.Action) match.State { return s.Play(acts[s.Mover()].(Move)) }

// Play returns the state after the side to move colours m (checked).
func (s State) Play(m Move) State {
	st, c, _ := s.index(m)
	n := s
	n.colour, n.owner = slices.Clone(s.colour), slices.Clone(s.owner)
	n.set(st, c, s.Mover())
	n.turn++
	return n
}

// Outcome compares the scores: Player 1 wants Score(P1) - Score(P2)
// high, Player 2 low.
func (s State) Outcome() match.Outcome {
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Count(int64(s.score[0])), match.Count(int64(s.score[1]))}}
	switch {
	case s.score[0] > s.score[1]:
		o.Winner = match.P1
	case s.score[1] > s.score[0]:
		o.Winner = match.P2
	}
	if s.ToMove() != match.Nobody {
		o.Reason = fmt.Sprintf("scores %d to %d so far", s.score[0], s.score[1])
	} else {
		o.Reason = fmt.Sprintf("scores %d to %d when no state could be coloured any more", s.score[0], s.score[1])
	}
	return o
}
