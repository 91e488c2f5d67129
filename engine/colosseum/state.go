package colosseum

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
)

// Move is one turn: go to To, then wall side Dir of To. In the original's
// notation it is ((r, c), dir), written here as {"pos": [r, c], "dir": d}.
type Move struct {
	To  Cell
	Dir Dir
}

type moveJSON struct {
	Pos [2]int `json:"pos"`
	Dir int    `json:"dir"`
}

// MarshalJSON writes {"pos": [r, c], "dir": d}.
func (m Move) MarshalJSON() ([]byte, error) {
	return json.Marshal(moveJSON{Pos: [2]int{m.To.Row, m.To.Col}, Dir: int(m.Dir)})
}

// UnmarshalJSON reads {"pos": [r, c], "dir": d}.
func (m *Move) UnmarshalJSON(b []byte) error {
	var j moveJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf(`move %s: want {"pos": [row, col], "dir": 0..3}`, b)
	}
	if j.Dir < 0 || j.Dir > 3 {
		return fmt.Errorf("move %s: dir %d is not 0 (up), 1 (right), 2 (down) or 3 (left)", b, j.Dir)
	}
	m.To, m.Dir = Cell{j.Pos[0], j.Pos[1]}, Dir(j.Dir)
	return nil
}

// String writes the move as the course's human agent reads it: r,c,dir.
func (m Move) String() string { return fmt.Sprintf("%d,%d,%s", m.To.Row, m.To.Col, m.Dir) }

// State is a position: the board, both players' cells and whose turn it
// is (A, the first player, moves on even turns). It shares the match's
// random stream, which the course's random agent and the engine's random
// walk draw from.
type State struct {
	cfg    *Config
	board  Board
	pos    [2]Cell
	k      int // max_step
	turn   int // moves made
	over   bool
	scores [2]int
	rng    *NumPy
}

// NewState generates the initial state from the seed as the course does:
// np.random.seed(seed), then World().
func NewState(cfg *Config, seed uint64) State {
	rng := NewNumPy(uint32(seed))
	b, pos := generate(rng, cfg.Size, cfg.SizeMin, cfg.SizeMax)
	s := State{cfg: cfg, board: b, pos: pos, k: (b.N + 1) / 2, rng: rng}
	s.scores[0], s.scores[1], s.over = b.regions(pos[0], pos[1])
	return s
}

// Config returns the state's settings.
func (s State) Config() *Config { return s.cfg }

// Board returns the board; read it, never change it.
func (s State) Board() *Board { return &s.board }

// Pos returns a player's cell.
func (s State) Pos(side match.Side) Cell { return s.pos[side] }

// MaxStep returns K, how far a player may walk in one move.
func (s State) MaxStep() int { return s.k }

// Rand returns the match's shared stream.
func (s State) Rand() *NumPy { return s.rng }

// Scores returns the region sizes the end test found after the last move:
// while the game goes on, both are the size of the shared region.
func (s State) Scores() [2]int { return s.scores }

// Turn returns the number of moves made.
func (s State) Turn() int { return s.turn }

// Mover returns the side to move.
func (s State) Mover() match.Side { return match.Side(s.turn % 2) }

// ToMove returns the side whose turn it is, or nobody once the players
// are in separate regions.
func (s State) ToMove() match.Movers {
	if s.over {
		return match.Nobody
	}
	return match.Only(s.Mover())
}

// Check validates a move as the course's World.step does: the cell on
// the board, the side 0..3 and free, and the cell reachable in at most K
// steps without crossing a wall or entering the opponent's cell (staying
// put is allowed).
func (s State) Check(side match.Side, a match.Action) error {
	m, ok := a.(Move)
	if !ok {
		return fmt.Errorf("action of type %T is not a move", a)
	}
	b := &s.board
	switch {
	case !b.In(m.To):
		return fmt.Errorf("cell %v is off the %dx%d board", m.To, b.N, b.N)
	case m.Dir > Left:
		return fmt.Errorf("side %d is not 0 (up), 1 (right), 2 (down) or 3 (left)", m.Dir)
	case b.Wall(m.To, m.Dir):
		return fmt.Errorf("the %s side of %v already has a wall", m.Dir, m.To)
	case m.To == s.pos[side.Other()]:
		return fmt.Errorf("cell %v is the opponent's", m.To)
	}
	for _, c := range b.reach(s.pos[side], s.pos[side.Other()], s.k, nil) {
		if c == m.To {
			return nil
		}
	}
	return fmt.Errorf("cell %v is not within %d steps of %v without crossing a wall or the opponent", m.To, s.k, s.pos[side])
}

// Apply plays the move of the side to move.
func (s State) Apply(acts [2]match.Action) match.State {
	side := s.Mover()
	return s.Play(acts[side].(Move))
}

// Play returns the state after the side to move plays m, which has
// passed Check: it moves, walls the side, and the end test runs.
func (s State) Play(m Move) State {
	n := s
	n.board = s.board.Clone()
	n.board.SetWall(m.To, m.Dir)
	n.pos[s.Mover()] = m.To
	n.turn++
	n.scores[0], n.scores[1], n.over = n.board.regions(n.pos[0], n.pos[1])
	return n
}

// Outcome compares the regions: the larger wins, equal is a tie.
func (s State) Outcome() match.Outcome {
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Count(int64(s.scores[0])), match.Count(int64(s.scores[1]))}}
	switch {
	case !s.over:
		o.Reason = fmt.Sprintf("both players share a region of %d cells", s.scores[0])
	case s.scores[0] == s.scores[1]:
		o.Reason = fmt.Sprintf("a tie: regions of %d cells each", s.scores[0])
	default:
		if s.scores[1] > s.scores[0] {
			o.Winner = match.P2
		} else {
			o.Winner = match.P1
		}
		o.Reason = fmt.Sprintf("regions of %d and %d cells", s.scores[o.Winner], s.scores[o.Winner.Other()])
	}
	return o
}

// Moves returns every legal move of the side to move, in the order of the
// cells reached (BFS from the player) and then of the sides.
func (s State) Moves(out []Move) []Move {
	side := s.Mover()
	out = out[:0]
	for _, c := range s.board.reach(s.pos[side], s.pos[side.Other()], s.k, nil) {
		w := s.board.Walls(c)
		for d := Up; d <= Left; d++ {
			if w&(1<<d) == 0 {
				out = append(out, Move{c, d})
			}
		}
	}
	return out
}

// RandomWalk is the course's random move (world.py random_walk, the same
// procedure as agents/random_agent.py), drawn from r: walk a number of
// steps drawn from 0..K, each into a random open side not into the
// opponent (stopping where there is none), then wall a random free side.
func (s State) RandomWalk(r *NumPy) Move {
	side := s.Mover()
	pos, adv := s.pos[side], s.pos[side.Other()]
	steps := r.Randint(0, s.k+1)
	var dirs []Dir
	for range steps {
		dirs = dirs[:0]
		for d := Up; d <= Left; d++ {
			if !s.board.Wall(pos, d) && pos.Step(d) != adv {
				dirs = append(dirs, d)
			}
		}
		if len(dirs) == 0 {
			break
		}
		pos = pos.Step(dirs[r.Randint(0, len(dirs))])
	}
	dirs = dirs[:0]
	for d := Up; d <= Left; d++ {
		if !s.board.Wall(pos, d) {
			dirs = append(dirs, d)
		}
	}
	return Move{pos, dirs[r.Randint(0, len(dirs))]}
}

// Reseed returns s drawing from a new stream: what `arena bot` gives a
// state read from a step message, from its one source per session.
func (s State) Reseed(seed uint64) match.State {
	s.rng = NewNumPy(uint32(seed ^ seed>>32))
	return s
}

// Bytes is what the state holds (play.Weigher): its board.
func (s State) Bytes() int { return len(s.board.walls) + 128 }
