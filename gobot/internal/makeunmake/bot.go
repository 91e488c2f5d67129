// Package bot is strong's search written as a go: file, as a student
// who read engine/colosseum/strong.go writes it against the bot API:
// iterative-deepening negamax with alpha-beta on the bot's own copy of
// the walls, made and unmade in place, a transposition table, history
// ordering, and strong's territory evaluation. Its budget is counted in
// nodes by t.Spend, as strong's is, so it plays strong's moves with the
// same budget (strong:nodes=20000): the benchmarks set its nodes a
// second beside strong's to tell what building a go: file costs, with
// the search itself the same.
package bot

import (
	"math/rand/v2"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

// budget is the nodes a move may search: strong's with nodes=20000.
const budget = 20000

const (
	inf     = 1 << 30
	winBase = 1 << 20 // a decided game is beyond any territory
)

// steps are the index offsets of a step Up, Right, Down and Left on an
// n-wide board.
func steps(n int) [4]int { return [4]int{-n, 1, n, -1} }

// Act searches the position and plays the best move of the deepest
// search the budget finished.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(colosseum.State)
	t.Budget.Nodes = budget
	sr := newSearch(s, t)
	key, value, depth := sr.iterate(int(s.Mover()))
	t.Note.Depth, t.Note.Nodes = depth, t.Nodes()
	t.Note.SetEval(float64(value))
	return sr.move(key), nil
}

// A move is a key: its cell's index times 4 plus the side of its wall
// (colosseum.Up, Right, Down, Left: 0 to 3). Cells are indices, row times
// n plus column. Plain numbers keep the search cheap interpreted too.
func (sr *search) move(key int32) colosseum.Move {
	i := int(key) / 4
	return colosseum.Move{To: colosseum.Cell{Row: i / sr.n, Col: i % sr.n}, Dir: colosseum.Dir(key % 4)}
}

// entry is a transposition table entry.
type entry struct {
	key   uint64
	value int32
	depth int8
	flag  int8
	move  int32
}

const (
	exact = iota
	lower
	upper
)

// search is one move's search on the bot's copy of the board.
type search struct {
	t       *match.Turn
	n, k    int
	step    [4]int
	walls   []uint8
	pos     [2]int
	hash    uint64
	stopped bool

	zWall [][2]uint64 // per cell: its right and down wall
	zPos  [2][]uint64
	zSide uint64
	tt    []entry
	hist  [2][]int32

	stamp   []uint32
	gen     uint32
	queue   []int32
	dist    [2][]int32
	moveBuf [][]int32
}

func newSearch(s colosseum.State, t *match.Turn) *search {
	b := s.Board()
	n := b.N
	sr := &search{t: t, n: n, k: s.MaxStep(), step: steps(n), walls: make([]uint8, n*n),
		tt: make([]entry, 1<<16), stamp: make([]uint32, n*n)}
	for i := range sr.walls {
		sr.walls[i] = b.Walls(colosseum.Cell{Row: i / n, Col: i % n})
	}
	for side := range sr.pos {
		c := s.Pos(match.Side(side))
		sr.pos[side] = c.Row*n + c.Col
	}
	// Keys from a fixed seed: a position hashes the same on every
	// machine, so a search with a node budget repeats exactly.
	r := rand.New(rand.NewPCG(uint64(n), 424))
	sr.zWall = make([][2]uint64, n*n)
	sr.zPos = [2][]uint64{make([]uint64, n*n), make([]uint64, n*n)}
	for i := 0; i < n*n; i++ {
		sr.zWall[i] = [2]uint64{r.Uint64(), r.Uint64()}
		sr.zPos[0][i], sr.zPos[1][i] = r.Uint64(), r.Uint64()
	}
	sr.zSide = r.Uint64()
	for i := 0; i < n*n; i++ {
		if sr.walls[i]&(uint8(1)<<colosseum.Right) != 0 && i%n != n-1 {
			sr.hash ^= sr.zWall[i][0]
		}
		if sr.walls[i]&(uint8(1)<<colosseum.Down) != 0 && i/n != n-1 {
			sr.hash ^= sr.zWall[i][1]
		}
	}
	sr.hash ^= sr.zPos[0][sr.pos[0]] ^ sr.zPos[1][sr.pos[1]]
	if s.Mover() == match.P2 {
		sr.hash ^= sr.zSide
	}
	sr.hist = [2][]int32{make([]int32, n*n*4), make([]int32, n*n*4)}
	sr.dist = [2][]int32{make([]int32, n*n), make([]int32, n*n)}
	return sr
}

// wallKey is the hash key of the wall on side d of cell i.
func (sr *search) wallKey(i, d int) uint64 {
	switch d {
	case right:
		return sr.zWall[i][0]
	case down:
		return sr.zWall[i][1]
	case left:
		return sr.zWall[i-1][0]
	}
	return sr.zWall[i-sr.n][1]
}

// The sides of a cell, as colosseum numbers them.
const (
	up    = int(colosseum.Up)
	right = int(colosseum.Right)
	down  = int(colosseum.Down)
	left  = int(colosseum.Left)
)

// play makes side's move and returns where it came from.
func (sr *search) play(side int, key int32) int {
	from := sr.pos[side]
	i, d := int(key)/4, int(key)%4
	sr.hash ^= sr.zPos[side][from] ^ sr.zPos[side][i] ^ sr.wallKey(i, d) ^ sr.zSide
	sr.pos[side] = i
	sr.walls[i] |= uint8(1) << uint(d)
	sr.walls[i+sr.step[d]] |= uint8(1) << uint((d+2)%4)
	return from
}

// unplay takes side's move back.
func (sr *search) unplay(side int, key int32, from int) {
	i, d := int(key)/4, int(key)%4
	sr.walls[i] &^= uint8(1) << uint(d)
	sr.walls[i+sr.step[d]] &^= uint8(1) << uint((d+2)%4)
	sr.pos[side] = from
	sr.hash ^= sr.zPos[side][from] ^ sr.zPos[side][i] ^ sr.wallKey(i, d) ^ sr.zSide
}

// newStamp starts a fresh visited set.
func (sr *search) newStamp() uint32 {
	sr.gen++
	if sr.gen == 0 {
		for i := range sr.stamp {
			sr.stamp[i] = 0
		}
		sr.gen = 1
	}
	return sr.gen
}

// moves lists side's legal moves in the order State.Moves does: the
// cells within k steps, nearest first, each cell's open sides.
func (sr *search) moves(side int, out []int32) []int32 {
	out = out[:0]
	g := sr.newStamp()
	start, block := sr.pos[side], sr.pos[1-side]
	sr.stamp[start] = g
	sr.queue = append(sr.queue[:0], int32(start))
	for depth, lo := 0, 0; ; depth++ {
		hi := len(sr.queue)
		for _, ci := range sr.queue[lo:hi] {
			w := sr.walls[ci]
			for d := up; d <= left; d++ {
				if w&(1<<d) != 0 {
					continue
				}
				out = append(out, ci*4+int32(d))
				if depth == sr.k {
					continue
				}
				ni := int(ci) + sr.step[d]
				if sr.stamp[ni] != g && ni != block {
					sr.stamp[ni] = g
					sr.queue = append(sr.queue, int32(ni))
				}
			}
		}
		if depth == sr.k || hi == len(sr.queue) {
			return out
		}
		lo = hi
	}
}

// ended says whether side's wall m just cut the players apart, and if
// so the cells of side's region and of its opponent's. Most walls leave
// their two sides joined, found by a short walk.
func (sr *search) ended(side int, key int32) (over bool, mine, theirs int) {
	x := int(key) / 4
	y := x + sr.step[key%4]
	g := sr.newStamp()
	sr.stamp[x] = g
	sr.queue = append(sr.queue[:0], int32(x))
	for lo := 0; lo < len(sr.queue); lo++ {
		ci := int(sr.queue[lo])
		w := sr.walls[ci]
		for d := up; d <= left; d++ {
			if w&(1<<d) != 0 {
				continue
			}
			ni := ci + sr.step[d]
			if ni == y {
				return false, 0, 0
			}
			if sr.stamp[ni] != g {
				sr.stamp[ni] = g
				sr.queue = append(sr.queue, int32(ni))
			}
		}
	}
	sizeX := len(sr.queue)
	inX := [2]bool{sr.stamp[sr.pos[0]] == g, sr.stamp[sr.pos[1]] == g}
	if inX[0] == inX[1] {
		return false, 0, 0
	}
	sizeY := sr.flood(y)
	if inX[side] {
		return true, sizeX, sizeY
	}
	return true, sizeY, sizeX
}

// flood counts the cells reachable from cell i.
func (sr *search) flood(i int) int {
	g := sr.newStamp()
	sr.stamp[i] = g
	sr.queue = append(sr.queue[:0], int32(i))
	for lo := 0; lo < len(sr.queue); lo++ {
		ci := int(sr.queue[lo])
		w := sr.walls[ci]
		for d := up; d <= left; d++ {
			if ni := ci + sr.step[d]; w&(1<<d) == 0 && sr.stamp[ni] != g {
				sr.stamp[ni] = g
				sr.queue = append(sr.queue, int32(ni))
			}
		}
	}
	return len(sr.queue)
}

// eval is side's territory less the opponent's: the cells each reaches
// first by walking distance; a tie counts for nobody.
func (sr *search) eval(side int) int {
	for s := 0; s < 2; s++ {
		d := sr.dist[s]
		for i := range d {
			d[i] = -1
		}
		start, block := sr.pos[s], sr.pos[1-s]
		d[start] = 0
		sr.queue = append(sr.queue[:0], int32(start))
		for lo := 0; lo < len(sr.queue); lo++ {
			ci := int(sr.queue[lo])
			w := sr.walls[ci]
			for dd := up; dd <= left; dd++ {
				if w&(1<<dd) != 0 {
					continue
				}
				ni := ci + sr.step[dd]
				if d[ni] < 0 && ni != block {
					d[ni] = d[ci] + 1
					sr.queue = append(sr.queue, int32(ni))
				}
			}
		}
	}
	me, them := sr.dist[side], sr.dist[1-side]
	score := 0
	for i := range me {
		a, b := me[i], them[i]
		switch {
		case a >= 0 && (b < 0 || a < b):
			score++
		case b >= 0 && (a < 0 || b < a):
			score--
		}
	}
	return score
}

// terminal scores a finished game for the side with region mine:
// larger and sooner wins first.
func terminal(mine, theirs, ply int) int {
	switch {
	case mine > theirs:
		return winBase + 64*(mine-theirs) - ply
	case mine < theirs:
		return -winBase - 64*(theirs-mine) + ply
	}
	return 0
}

// order sorts moves, stably: the table's move first, then by history.
func order(moves []int32, ttMove int32, hist []int32) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0; j-- {
			a, b := moves[j], moves[j-1]
			if b == ttMove || a != ttMove && hist[a] <= hist[b] {
				break // b stays before a
			}
			moves[j], moves[j-1] = b, a
		}
	}
}

// negamax is the value of the position for side to move.
func (sr *search) negamax(side, depth, alpha, beta, ply int) int {
	if !sr.t.Spend(1) {
		sr.stopped = true
	}
	if sr.stopped {
		return 0
	}
	if depth == 0 {
		return sr.eval(side)
	}
	e := &sr.tt[sr.hash&uint64(len(sr.tt)-1)]
	ttMove := int32(-1)
	if e.key == sr.hash {
		ttMove = e.move
		if int(e.depth) >= depth {
			v := int(e.value)
			switch {
			case e.flag == exact:
				return v
			case e.flag == lower && v >= beta:
				return v
			case e.flag == upper && v <= alpha:
				return v
			}
		}
	}
	for len(sr.moveBuf) <= ply {
		sr.moveBuf = append(sr.moveBuf, nil)
	}
	moves := sr.moves(side, sr.moveBuf[ply])
	sr.moveBuf[ply] = moves
	hist := sr.hist[side]
	order(moves, ttMove, hist)
	alpha0, best, bestMove := alpha, -inf, int32(-1)
	for _, m := range moves {
		from := sr.play(side, m)
		var v int
		if over, mine, theirs := sr.ended(side, m); over {
			v = terminal(mine, theirs, ply)
		} else {
			v = -sr.negamax(1-side, depth-1, -beta, -alpha, ply+1)
		}
		sr.unplay(side, m, from)
		if sr.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			hist[m] += int32(depth * depth)
			break
		}
	}
	flag := int8(exact)
	switch {
	case best <= alpha0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	*e = entry{key: sr.hash, value: int32(best), depth: int8(depth), flag: flag, move: bestMove}
	return best
}

// rootMove is a move of the root and its value in the last iteration.
type rootMove struct {
	m int32
	v int
}

// iterate deepens until the budget is spent or the game is decided: the
// best move of the deepest iteration finished, its value and depth.
func (sr *search) iterate(side int) (int32, int, int) {
	var root []rootMove
	for _, m := range sr.moves(side, nil) {
		root = append(root, rootMove{m: m})
	}
	best, bestV, done := root[0].m, -inf, 0
	for depth := 1; depth <= 64; depth++ {
		alpha := -inf
		partial, partialV := -1, -inf
		for i := range root {
			m := root[i].m
			from := sr.play(side, m)
			var v int
			if over, mine, theirs := sr.ended(side, m); over {
				v = terminal(mine, theirs, 0)
			} else {
				v = -sr.negamax(1-side, depth-1, -inf, -alpha, 1)
			}
			sr.unplay(side, m, from)
			if sr.stopped {
				break
			}
			root[i].v = v
			if v > alpha {
				alpha = v
			}
			if v > partialV {
				partial, partialV = i, v
			}
		}
		if sr.stopped {
			// A move that beat the last iteration's best, searched
			// first, is better: its value is exact.
			if partial >= 0 && (done == 0 || partial > 0 && partialV > root[0].v) {
				best, bestV = root[partial].m, partialV
			}
			break
		}
		for i := 1; i < len(root); i++ { // best first, stably
			for j := i; j > 0 && root[j].v > root[j-1].v; j-- {
				root[j], root[j-1] = root[j-1], root[j]
			}
		}
		best, bestV, done = root[0].m, root[0].v, depth
		if bestV >= winBase/2 || bestV <= -winBase/2 || len(root) == 1 {
			break
		}
	}
	return best, bestV, done
}
