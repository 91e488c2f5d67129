package colosseum

import "fmt"

// Dir is a side of a cell, in the original's order.
type Dir uint8

// The four sides.
const (
	Up Dir = iota
	Right
	Down
	Left
)

var deltas = [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// Opposite returns the side facing d.
func (d Dir) Opposite() Dir { return (d + 2) % 4 }

// String names the side.
func (d Dir) String() string {
	if d < 4 {
		return [...]string{"up", "right", "down", "left"}[d]
	}
	return fmt.Sprintf("side %d", d)
}

// Cell is a square of the board, row first; row 0 is at the top.
type Cell struct{ Row, Col int }

// String writes the cell as (row,col).
func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.Row, c.Col) }

// Step returns the neighbour of c across side d.
func (c Cell) Step(d Dir) Cell { return Cell{c.Row + deltas[d][0], c.Col + deltas[d][1]} }

// Board is an N x N grid and its walls. Each cell holds its four sides as
// bits; a wall is set on both cells it separates, and the border is a
// wall on the outer sides, so that border and wall are the same to every
// rule.
type Board struct {
	N     int
	walls []uint8
}

// NewBoard returns an N x N board with only its border.
func NewBoard(n int) Board {
	b := Board{N: n, walls: make([]uint8, n*n)}
	for i := range n {
		b.walls[i] |= 1 << Up
		b.walls[(n-1)*n+i] |= 1 << Down
		b.walls[i*n] |= 1 << Left
		b.walls[i*n+n-1] |= 1 << Right
	}
	return b
}

// In reports whether c is on the board.
func (b *Board) In(c Cell) bool { return c.Row >= 0 && c.Row < b.N && c.Col >= 0 && c.Col < b.N }

// Wall reports whether side d of c is walled.
func (b *Board) Wall(c Cell, d Dir) bool { return b.walls[c.Row*b.N+c.Col]&(1<<d) != 0 }

// Walls returns the four sides of c as bits (bit d: side d walled).
func (b *Board) Walls(c Cell) uint8 { return b.walls[c.Row*b.N+c.Col] }

// SetWall walls side d of c, and the facing side of its neighbour.
func (b *Board) SetWall(c Cell, d Dir) {
	b.walls[c.Row*b.N+c.Col] |= 1 << d
	if n := c.Step(d); b.In(n) {
		b.walls[n.Row*b.N+n.Col] |= 1 << d.Opposite()
	}
}

// Clone returns a board with its own walls.
func (b *Board) Clone() Board {
	return Board{N: b.N, walls: append([]uint8(nil), b.walls...)}
}

// reach returns the cells reachable from start in at most k steps
// without crossing a wall or entering block, start included, in BFS order.
func (b *Board) reach(start, block Cell, k int, out []Cell) []Cell {
	seen := make([]bool, b.N*b.N)
	seen[start.Row*b.N+start.Col] = true
	out = append(out[:0], start)
	for depth, lo := 0, 0; depth < k; depth++ {
		hi := len(out)
		for _, c := range out[lo:hi] {
			w := b.Walls(c)
			for d := Up; d <= Left; d++ {
				if w&(1<<d) != 0 {
					continue
				}
				n := c.Step(d)
				if i := n.Row*b.N + n.Col; !seen[i] && n != block {
					seen[i] = true
					out = append(out, n)
				}
			}
		}
		if hi == len(out) {
			break
		}
		lo = hi
	}
	return out
}

// Path returns a shortest way from a to b (both included) that crosses no
// wall and avoids block, or nil. Ties go to the first side in the order
// up, right, down, left, so that the same move always draws the same way.
func (b *Board) Path(a, to, block Cell) []Cell {
	prev := make([]int, b.N*b.N)
	for i := range prev {
		prev[i] = -1
	}
	ia := a.Row*b.N + a.Col
	prev[ia] = ia
	queue := []Cell{a}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == to {
			var path []Cell
			for i := c.Row*b.N + c.Col; ; i = prev[i] {
				path = append(path, Cell{i / b.N, i % b.N})
				if i == ia {
					break
				}
			}
			for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
				path[l], path[r] = path[r], path[l]
			}
			return path
		}
		for d := Up; d <= Left; d++ {
			if b.Wall(c, d) {
				continue
			}
			n := c.Step(d)
			if i := n.Row*b.N + n.Col; prev[i] < 0 && n != block {
				prev[i] = c.Row*b.N + c.Col
				queue = append(queue, n)
			}
		}
	}
	return nil
}

// regions returns the size of the open region around a, and whether b is
// in it; if not, also the size of b's region. This is the original's end
// test: the game is over once the two players are apart.
func (b *Board) regions(a, c Cell) (sizeA, sizeB int, apart bool) {
	seen := make([]bool, b.N*b.N)
	sizeA = b.flood(a, seen)
	if seen[c.Row*b.N+c.Col] {
		return sizeA, sizeA, false
	}
	return sizeA, b.flood(c, seen), true
}

// flood marks and counts the open region around start.
func (b *Board) flood(start Cell, seen []bool) int {
	stack := []Cell{start}
	seen[start.Row*b.N+start.Col] = true
	n := 0
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		w := b.Walls(c)
		for d := Up; d <= Left; d++ {
			if w&(1<<d) != 0 {
				continue
			}
			nb := c.Step(d)
			if i := nb.Row*b.N + nb.Col; !seen[i] {
				seen[i] = true
				stack = append(stack, nb)
			}
		}
	}
	return n
}

// generate builds a board as the 2023 course code does (world.py,
// World.__init__), drawing from rng: the size when n is 0 (from
// [minSize, maxSize]), N/2-1 point-symmetric pairs of walls, and
// point-symmetric start cells, redrawn while they coincide or the game
// would already be over.
func generate(rng *NumPy, n, minSize, maxSize int) (Board, [2]Cell) {
	if n == 0 {
		n = rng.Randint(minSize, maxSize+1)
	}
	b := NewBoard(n)
	for range n/2 - 1 {
		var c Cell
		var d Dir
		for {
			c = Cell{rng.Randint(0, n), rng.Randint(0, n)}
			d = Dir(rng.Randint(0, 4))
			if !b.Wall(c, d) {
				break
			}
		}
		b.SetWall(c, d)
		b.SetWall(Cell{n - 1 - c.Row, n - 1 - c.Col}, d.Opposite())
	}
	var pos [2]Cell
	for {
		pos[0] = Cell{rng.Randint(0, n), rng.Randint(0, n)}
		pos[1] = Cell{n - 1 - pos[0].Row, n - 1 - pos[0].Col}
		if _, _, apart := b.regions(pos[0], pos[1]); pos[0] != pos[1] && !apart {
			return b, pos
		}
	}
}

// Region marks the open region around c: where a player there can go.
func (b *Board) Region(c Cell) []bool {
	seen := make([]bool, b.N*b.N)
	b.flood(c, seen)
	return seen
}

// Reach returns the cells a player at from can end a move on: within k
// steps, around walls, not through block.
func (b *Board) Reach(from, block Cell, k int) []Cell { return b.reach(from, block, k, nil) }
