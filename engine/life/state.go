package life

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Action is the list of cells a player colonises in one turn, in the order
// sent. Duplicates are allowed: each costs one cell of the bank, and the
// cell is placed once.
type Action []Cell

// Equal says whether b is the same placement as a, as their JSON would:
// the same cells in the same order (nil, "null", is not an empty list).
// A report compares the played placement with each of hundreds of options.
func (a Action) Equal(b match.Action) bool {
	c, ok := b.(Action)
	return ok && (a == nil) == (c == nil) && slices.Equal(a, c)
}

// MarshalJSON writes a cell as [row, col], the original's notation.
func (c Cell) MarshalJSON() ([]byte, error) { return fmt.Appendf(nil, "[%d,%d]", c.Row, c.Col), nil }

// UnmarshalJSON reads a cell written as [row, col].
func (c *Cell) UnmarshalJSON(b []byte) error {
	var rc []int
	if err := json.Unmarshal(b, &rc); err != nil || len(rc) != 2 {
		return fmt.Errorf("cell %s: want [row, col]", b)
	}
	c.Row, c.Col = rc[0], rc[1]
	return nil
}

// State is a position: the board, both banks and the iteration. It also
// remembers what the step that made it placed, for traces and drawing.
type State struct {
	cfg      *Config
	board    Board
	bank     [2]int
	iter     int
	applied  [2][]Cell // cells placed by the step that made this state
	collided []Cell    // cells both players asked for in that step
}

// NewState returns the initial state of cfg. The seed places the random
// start of configs that ask for one.
func NewState(cfg *Config, seed uint64) State {
	var b Board
	switch {
	case cfg.Field != nil:
		b, _ = ParseRows(cfg.Field) // checked by ParseConfig
	default:
		b = NewBoard(cfg.Rows, cfg.Cols)
		start := cfg.Start
		if cfg.RandomStart > 0 {
			start = randomStart(cfg, seed)
		}
		for side, cells := range start {
			for _, c := range cells {
				b.Set(c.Row, c.Col, Owner(side+1)) // P2 wins a cell listed by both
			}
		}
	}
	return State{cfg: cfg, board: b, bank: [2]int{cfg.Bank, cfg.Bank}}
}

// Config returns the state's settings.
func (s State) Config() *Config { return s.cfg }

// Board returns the cells. The board belongs to the state: read it, copy
// it (Clone), never change it.
func (s State) Board() *Board { return &s.board }

// Bank returns how many cells side may colonise in this state.
func (s State) Bank(side match.Side) int { return s.bank[side] }

// Count returns side's live cells.
func (s State) Count(side match.Side) int { return s.board.Count(side) }

// Applied returns the cells side placed in the step that made this state,
// after collisions, with duplicates as sent.
func (s State) Applied(side match.Side) []Cell { return s.applied[side] }

// Collided returns the cells both players asked for in the step that made
// this state.
func (s State) Collided() []Cell { return s.collided }

// Turn returns the iteration.
func (s State) Turn() int { return s.iter }

// ToMove returns both sides until the last iteration.
func (s State) ToMove() match.Movers {
	if s.iter >= s.cfg.Iterations {
		return match.Nobody
	}
	return match.Both
}

// Check validates a colonisation: every cell on the board, no more cells
// than the bank, every target dead, and every target within the distance
// of one of the side's live cells before the turn (cells placed in the same
// turn do not count), all on the torus. These are the original's checks;
// where the original aborted the game, the playground forfeits the side.
func (s State) Check(side match.Side, a match.Action) error {
	act, ok := a.(Action)
	if !ok {
		return fmt.Errorf("action of type %T is not a list of cells", a)
	}
	b := &s.board
	for _, c := range act {
		if c.Row < 0 || c.Row >= b.rows || c.Col < 0 || c.Col >= b.cols {
			return fmt.Errorf("cell %v is out of the %dx%d board", c, b.rows, b.cols)
		}
	}
	if len(act) > s.bank[side] {
		return fmt.Errorf("sent %d cells with %d in the bank", len(act), s.bank[side])
	}
	for _, c := range act {
		switch o := b.At(c.Row, c.Col); {
		case o == OwnerOf(side):
			return fmt.Errorf("cell %v is already one of its live cells", c)
		case o != Dead:
			return fmt.Errorf("cell %v is a live cell of %s", c, side.Other())
		}
	}
	for _, c := range act {
		if !s.near(side, c) {
			return fmt.Errorf("cell %v is farther than %d from every %s cell", c, s.cfg.Distance, side)
		}
	}
	return nil
}

// near reports whether a live cell of side lies within the colonisation
// distance of c on the torus.
func (s State) near(side match.Side, c Cell) bool {
	d, b := s.cfg.Distance, &s.board
	own := OwnerOf(side)
	for dr := -d; dr <= d; dr++ {
		for dc := -d; dc <= d; dc++ {
			if b.At(floorMod(c.Row+dr, b.rows), floorMod(c.Col+dc, b.cols)) == own {
				return true
			}
		}
	}
	return false
}

// Apply plays both sides' actions; see Next.
func (s State) Apply(acts [2]match.Action) match.State {
	a1, _ := acts[0].(Action)
	a2, _ := acts[1].(Action)
	return s.Next(a1, a2)
}

// Next returns the state after P1 colonises a1 and P2 colonises a2, which
// have passed Check: the banks pay and gain, the cells are placed
// (collisions resolved by the rules variant) and the board steps one
// generation.
func (s State) Next(a1, a2 Action) State {
	n := State{cfg: s.cfg, iter: s.iter + 1}
	for side, a := range [2]Action{a1, a2} {
		n.bank[side] = min(s.cfg.Capacity, s.bank[side]-len(a)+s.cfg.Gain)
	}
	n.applied, n.collided = resolve(a1, a2, s.cfg.Rules)
	mid := s.board.Clone()
	for side, cells := range n.applied {
		for _, c := range cells {
			mid.Set(c.Row, c.Col, Owner(side+1))
		}
	}
	n.board = mid.Stepped(s.cfg.Ruleset)
	return n
}

// resolve applies the collision rule. Under the original variant the code
// removes from P1's list every cell in P2's list, then from P2's list every
// cell in the reduced P1 list (none): P2 keeps a contested cell. Under the
// arena variant a contested cell is dropped from both lists.
func resolve(a1, a2 Action, variant string) (applied [2][]Cell, collided []Cell) {
	for _, c := range a1 {
		if slices.Contains(a2, c) && !slices.Contains(collided, c) {
			collided = append(collided, c)
		}
	}
	keep := func(a Action) []Cell {
		var out []Cell
		for _, c := range a {
			if !slices.Contains(collided, c) {
				out = append(out, c)
			}
		}
		return out
	}
	applied[0] = keep(a1)
	if variant == VariantOriginal {
		applied[1] = slices.Clone([]Cell(a2))
	} else {
		applied[1] = keep(a2)
	}
	return applied, collided
}

// Outcome compares the live cells: more wins, equal is a draw.
func (s State) Outcome() match.Outcome {
	n1, n2 := s.Count(match.P1), s.Count(match.P2)
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Count(int64(n1)), match.Count(int64(n2))}}
	over := s.ToMove() == match.Nobody
	switch {
	case n1 > n2:
		o.Winner = match.P1
	case n2 > n1:
		o.Winner = match.P2
	}
	switch {
	case over && o.Winner == match.NoSide:
		o.Reason = fmt.Sprintf("equal live cells (%d each) after %d iterations", n1, s.iter)
	case over:
		o.Reason = fmt.Sprintf("more live cells (%d to %d) after %d iterations", max(n1, n2), min(n1, n2), s.iter)
	default:
		o.Reason = fmt.Sprintf("%d to %d live cells at iteration %d", n1, n2, s.iter)
	}
	return o
}

// stillLifes are the shapes of random starts: patterns that stay as they
// are until something touches them, so a random start does not die off.
var stillLifes = [][]Cell{
	{{0, 0}, {0, 1}, {1, 0}, {1, 1}},                         // block
	{{0, 1}, {0, 2}, {1, 0}, {1, 3}, {2, 1}, {2, 2}},         // beehive
	{{0, 1}, {0, 2}, {1, 0}, {1, 3}, {2, 1}, {2, 3}, {3, 2}}, // loaf
	{{0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 1}},                 // boat
	{{0, 1}, {1, 0}, {1, 2}, {2, 1}},                         // tub
}

// randomStart places cfg.RandomStart still lifes in P1's half of the board
// (the left one), apart from each other, and mirrors them for P2.
func randomStart(cfg *Config, seed uint64) [2][]Cell {
	r := rand.New(rand.NewPCG(seed, 0x5eed5eed))
	var start [2][]Cell
	taken := NewBoard(cfg.Rows, cfg.Cols)
	half := cfg.Cols / 2
	for placed, tries := 0, 0; placed < cfg.RandomStart && tries < 1000*cfg.RandomStart; tries++ {
		shape := stillLifes[r.IntN(len(stillLifes))]
		h, w := 0, 0
		for _, c := range shape {
			h, w = max(h, c.Row+1), max(w, c.Col+1)
		}
		if half-2-w < 1 || cfg.Rows < h+2 {
			break // the board is too small for shapes
		}
		r0, c0 := r.IntN(cfg.Rows), 1+r.IntN(half-2-w)
		if !fits(&taken, shape, r0, c0) {
			continue
		}
		for _, c := range shape {
			p := Cell{(r0 + c.Row) % cfg.Rows, c0 + c.Col}
			taken.Set(p.Row, p.Col, P1)
			start[0] = append(start[0], p)
			start[1] = append(start[1], Cell{p.Row, cfg.Cols - 1 - p.Col})
		}
		placed++
	}
	return start
}

// fits reports whether shape at (r0, c0) keeps two dead cells between it
// and every cell already taken, so that no dead cell sees both.
func fits(taken *Board, shape []Cell, r0, c0 int) bool {
	for _, c := range shape {
		for dr := -3; dr <= 3; dr++ {
			for dc := -3; dc <= 3; dc++ {
				if taken.At(floorMod(r0+c.Row+dr, taken.rows), floorMod(c0+c.Col+dc, taken.cols)) != Dead {
					return false
				}
			}
		}
	}
	return true
}

// Bytes is what the state holds (play.Weigher): both planes of the board
// and the cells the step placed.
func (s State) Bytes() int {
	n := len(s.collided)
	for _, a := range s.applied {
		n += len(a)
	}
	return 16*len(s.board.plane[0]) + 16*n + 128
}
