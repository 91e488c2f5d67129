package colosseum

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// strongBot searches with iterative-deepening alpha-beta (negamax). Its
// evaluation is territory: the cells each player reaches first, by walking
// distance around walls, mine minus the opponent's. A move that ends the
// game scores its result exactly, larger wins first, so immediate wins are
// taken and moves that let the opponent close the gate are refused as soon
// as the search sees them. The end test after a wall asks only whether the
// wall's two sides still connect (usually a walk of a few cells); only a
// wall that cuts the board floods the regions. Moves are ordered by a
// transposition table's best move and a history table; each iteration
// starts from the previous one's best line.
type strongBot struct{}

func newStrong(match.Options) (match.Bot, error) { return &strongBot{}, nil }

const (
	inf     = 1 << 30
	winBase = 1 << 20 // terminal scores are beyond any territory difference
)

// strongWork is the default budget of a move in nodes times board cells:
// a node's cost grows with the board (its evaluation floods it), so
// 28M/N² nodes take about the course's 1.9 s on every size, on the
// 2-core machine this project is built on (1.6 to 2.0 s at the longest
// on 6x6, 8x8 and 11x11), and reproduce on every machine.
const strongWork = 28_000_000

func (b *strongBot) Act(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	if t.Budget == (match.Budget{}) {
		t.Budget.Nodes = max(1000, strongWork/int64(s.board.N*s.board.N))
	}
	sr := newSearch(s, t)
	move, value, depth := sr.iterate()
	t.Note.Depth, t.Note.Nodes = depth, t.Nodes()
	t.Note.SetEval(float64(value))
	for _, m := range sr.line(s.Mover(), move, depth) {
		t.Note.Line = append(t.Note.Line, fmt.Sprintf("%s:%s", m.side, m.Move))
		t.Note.Expect(m.Place())
	}
	markRoot(&t.Note, sr.root, rootMove{move, value}, s.board.N)
	switch {
	case value >= winBase/2:
		t.Note.Text = "a won game"
	case value <= -winBase/2:
		t.Note.Text = "a lost game"
	}
	return move, nil
}

// search is one move's search. The board is copied and changed in place
// (make and unmake); hashes follow every change.
type search struct {
	t       *match.Turn
	n, k    int
	walls   []uint8
	pos     [2]Cell
	hash    uint64
	stopped bool
	// exact makes every value the fixed-depth search's: the table cuts
	// off only with entries of the same depth, decided games counted
	// from the position (the analysis; see toTT).
	exact bool

	zWall [][2]uint64 // per cell: its right and down wall
	zPos  [2][]uint64
	zSide uint64
	tt    []ttEntry
	hist  [2][]int32 // per side, per cell and side of the wall: cutoff credit
	// root is the root's moves with their values in the last iteration
	// completed, best first: what the note's marks show.
	root []rootMove

	// scratch
	stamp   []uint32
	gen     uint32
	queue   []int32
	dist    [2][]int32
	moveBuf [][]Move
}

type ttEntry struct {
	key   uint64
	value int32
	depth int8
	flag  int8 // exact, lower bound, upper bound
	move  int32
}

const (
	ttExact = iota
	ttLower
	ttUpper
)

func newSearch(s State, t *match.Turn) *search {
	n := s.board.N
	sr := &search{t: t, n: n, k: s.k, walls: append([]uint8(nil), s.board.walls...), pos: s.pos,
		tt: make([]ttEntry, 1<<16), stamp: make([]uint32, n*n)}
	// Zobrist keys from a fixed seed: the same position hashes the same on
	// every machine, so searches with a node budget repeat exactly.
	r := rand.New(rand.NewPCG(uint64(n), 424))
	sr.zWall = make([][2]uint64, n*n)
	sr.zPos = [2][]uint64{make([]uint64, n*n), make([]uint64, n*n)}
	for i := range n * n {
		sr.zWall[i] = [2]uint64{r.Uint64(), r.Uint64()}
		sr.zPos[0][i], sr.zPos[1][i] = r.Uint64(), r.Uint64()
	}
	sr.zSide = r.Uint64()
	for i := range n * n {
		if sr.walls[i]&(1<<Right) != 0 && i%n != n-1 {
			sr.hash ^= sr.zWall[i][0]
		}
		if sr.walls[i]&(1<<Down) != 0 && i/n != n-1 {
			sr.hash ^= sr.zWall[i][1]
		}
	}
	sr.hash ^= sr.zPos[0][sr.idx(sr.pos[0])] ^ sr.zPos[1][sr.idx(sr.pos[1])]
	if s.Mover() == match.P2 {
		sr.hash ^= sr.zSide
	}
	sr.hist = [2][]int32{make([]int32, n*n*4), make([]int32, n*n*4)}
	sr.dist = [2][]int32{make([]int32, n*n), make([]int32, n*n)}
	return sr
}

func (sr *search) idx(c Cell) int { return c.Row*sr.n + c.Col }

// wallKey returns the hash key of the wall on side d of cell i.
func (sr *search) wallKey(i int, d Dir) uint64 {
	switch d {
	case Right:
		return sr.zWall[i][0]
	case Down:
		return sr.zWall[i][1]
	case Left:
		return sr.zWall[i-1][0]
	}
	return sr.zWall[i-sr.n][1]
}

// play makes side's move and returns where it came from.
func (sr *search) play(side match.Side, m Move) Cell {
	from := sr.pos[side]
	i := sr.idx(m.To)
	sr.hash ^= sr.zPos[side][sr.idx(from)] ^ sr.zPos[side][i] ^ sr.wallKey(i, m.Dir) ^ sr.zSide
	sr.pos[side] = m.To
	sr.walls[i] |= 1 << m.Dir
	sr.walls[sr.idx(m.To.Step(m.Dir))] |= 1 << m.Dir.Opposite()
	return from
}

// unplay takes side's move back.
func (sr *search) unplay(side match.Side, m Move, from Cell) {
	i := sr.idx(m.To)
	sr.walls[i] &^= 1 << m.Dir
	sr.walls[sr.idx(m.To.Step(m.Dir))] &^= 1 << m.Dir.Opposite()
	sr.pos[side] = from
	sr.hash ^= sr.zPos[side][sr.idx(from)] ^ sr.zPos[side][i] ^ sr.wallKey(i, m.Dir) ^ sr.zSide
}

// newStamp starts a fresh visited set.
func (sr *search) newStamp() uint32 {
	sr.gen++
	if sr.gen == 0 {
		clear(sr.stamp)
		sr.gen = 1
	}
	return sr.gen
}

// moves lists side's legal moves.
func (sr *search) moves(side match.Side, out []Move) []Move {
	out = out[:0]
	g := sr.newStamp()
	start, block := sr.idx(sr.pos[side]), sr.idx(sr.pos[side.Other()])
	sr.stamp[start] = g
	sr.queue = append(sr.queue[:0], int32(start))
	for depth, lo := 0, 0; ; depth++ {
		hi := len(sr.queue)
		for _, ci := range sr.queue[lo:hi] {
			w := sr.walls[ci]
			c := Cell{int(ci) / sr.n, int(ci) % sr.n}
			for d := Up; d <= Left; d++ {
				if w&(1<<d) != 0 {
					continue
				}
				out = append(out, Move{c, d})
				if depth == sr.k {
					continue
				}
				ni := sr.idx(c.Step(d))
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

// ended reports whether the wall just placed by side's move m separated
// the players, and if so the regions of side and of its opponent.
func (sr *search) ended(side match.Side, m Move) (over bool, mine, theirs int) {
	x, y := sr.idx(m.To), sr.idx(m.To.Step(m.Dir))
	g := sr.newStamp()
	sr.stamp[x] = g
	sr.queue = append(sr.queue[:0], int32(x))
	for lo := 0; lo < len(sr.queue); lo++ {
		ci := int(sr.queue[lo])
		w := sr.walls[ci]
		for d := Up; d <= Left; d++ {
			if w&(1<<d) != 0 {
				continue
			}
			ni := ci + [4]int{-sr.n, 1, sr.n, -1}[d]
			if ni == y {
				return false, 0, 0 // the wall's sides still connect: nothing was cut
			}
			if sr.stamp[ni] != g {
				sr.stamp[ni] = g
				sr.queue = append(sr.queue, int32(ni))
			}
		}
	}
	// The wall cut the region: x's part is marked.
	sizeX := len(sr.queue)
	inX := [2]bool{sr.stamp[sr.idx(sr.pos[0])] == g, sr.stamp[sr.idx(sr.pos[1])] == g}
	if inX[0] == inX[1] {
		return false, 0, 0
	}
	seen := make([]bool, sr.n*sr.n)
	b := Board{N: sr.n, walls: sr.walls}
	sizeY := b.flood(Cell{y / sr.n, y % sr.n}, seen)
	if inX[side] {
		return true, sizeX, sizeY
	}
	return true, sizeY, sizeX
}

// eval is side's territory minus the opponent's: cells side reaches
// first, by walking distance, count for side; ties count for nobody.
func (sr *search) eval(side match.Side) int {
	for s := range 2 {
		d := sr.dist[s]
		for i := range d {
			d[i] = -1
		}
		start, block := sr.idx(sr.pos[s]), sr.idx(sr.pos[1-s])
		d[start] = 0
		sr.queue = append(sr.queue[:0], int32(start))
		for lo := 0; lo < len(sr.queue); lo++ {
			ci := int(sr.queue[lo])
			w := sr.walls[ci]
			for dd := Up; dd <= Left; dd++ {
				if w&(1<<dd) != 0 {
					continue
				}
				ni := ci + [4]int{-sr.n, 1, sr.n, -1}[dd]
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
		switch a, b := me[i], them[i]; {
		case a >= 0 && (b < 0 || a < b):
			score++
		case b >= 0 && (a < 0 || b < a):
			score--
		}
	}
	return score
}

// terminal scores a finished game for the side with region mine: wins
// beyond any territory, larger and sooner ones first.
func terminal(mine, theirs, ply int) int {
	switch {
	case mine > theirs:
		return winBase + 64*(mine-theirs) - ply
	case mine < theirs:
		return -winBase - 64*(theirs-mine) + ply
	}
	return 0
}

func (sr *search) moveKey(m Move) int32 { return int32(sr.idx(m.To)*4 + int(m.Dir)) }

// negamax returns the value of the position for side to move.
func (sr *search) negamax(side match.Side, depth, alpha, beta, ply int) int {
	if !sr.t.Spend(1) {
		sr.stopped = true // at the root's children too: a clock is a clock
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
		if int(e.depth) == depth || !sr.exact && int(e.depth) > depth {
			v := sr.fromTT(int(e.value), ply)
			switch {
			case e.flag == ttExact:
				return v
			case e.flag == ttLower && v >= beta:
				return v
			case e.flag == ttUpper && v <= alpha:
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
	slices.SortStableFunc(moves, func(a, b Move) int {
		ka, kb := sr.moveKey(a), sr.moveKey(b)
		if (ka == ttMove) != (kb == ttMove) {
			if ka == ttMove {
				return -1
			}
			return 1
		}
		return cmp.Compare(hist[kb], hist[ka])
	})
	alpha0, best, bestMove := alpha, -inf, int32(-1)
	for _, m := range moves {
		from := sr.play(side, m)
		var v int
		if over, mine, theirs := sr.ended(side, m); over {
			v = terminal(mine, theirs, ply)
		} else {
			v = -sr.negamax(side.Other(), depth-1, -beta, -alpha, ply+1)
		}
		sr.unplay(side, m, from)
		if sr.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, sr.moveKey(m)
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			hist[sr.moveKey(m)] += int32(depth * depth)
			break
		}
	}
	flag := int8(ttExact)
	switch {
	case best <= alpha0:
		flag = ttUpper
	case best >= beta:
		flag = ttLower
	}
	*e = ttEntry{key: sr.hash, value: int32(sr.toTT(best, ply)), depth: int8(depth), flag: flag, move: bestMove}
	return best
}

// toTT and fromTT keep a decided game's value in the table as counted
// from the position (winBase+64d) rather than from the root (less the
// plies to it), so that a position reached by another path reads the
// same: in exact mode only, where the analysis's values must be the
// fixed-depth search's to the unit. The bot's own search keeps its
// table as it always has, so that its moves do not change.
func (sr *search) toTT(v, ply int) int {
	switch {
	case !sr.exact:
		return v
	case v >= winBase/2:
		return v + ply
	case v <= -winBase/2:
		return v - ply
	}
	return v
}

func (sr *search) fromTT(v, ply int) int {
	switch {
	case !sr.exact:
		return v
	case v >= winBase/2:
		return v - ply
	case v <= -winBase/2:
		return v + ply
	}
	return v
}

// iterate deepens until the budget is spent or the game is decided, and
// returns the best move of the deepest finished iteration.
func (sr *search) iterate() (Move, int, int) {
	side := sr.t.State.(State).Mover()
	var root []rootMove
	for _, m := range sr.moves(side, nil) {
		root = append(root, rootMove{m: m})
	}
	best, bestV, done := root[0].m, -inf, 0
	for depth := 1; depth <= 64; depth++ {
		alpha := -inf
		partial, partialV := -1, -inf // the best move searched in this iteration
		for i := range root {
			m := root[i].m
			from := sr.play(side, m)
			var v int
			if over, mine, theirs := sr.ended(side, m); over {
				v = terminal(mine, theirs, 0)
			} else {
				v = -sr.negamax(side.Other(), depth-1, -inf, -alpha, 1)
			}
			sr.unplay(side, m, from)
			if sr.stopped {
				break
			}
			root[i].v = v
			alpha = max(alpha, v)
			if v > partialV {
				partial, partialV = i, v
			}
		}
		if sr.stopped {
			// A move that beat the previous best, searched first, is
			// better (its value is exact: it raised alpha); in the first
			// iteration, the best of the moves searched is all there is.
			if partial >= 0 && (done == 0 || partial > 0 && partialV > root[0].v) {
				best, bestV = root[partial].m, partialV
			}
			break
		}
		slices.SortStableFunc(root, func(a, b rootMove) int { return cmp.Compare(b.v, a.v) })
		best, bestV, done = root[0].m, root[0].v, depth
		sr.root = append(sr.root[:0], root...)
		if bestV >= winBase/2 || bestV <= -winBase/2 || len(root) == 1 {
			break // decided
		}
	}
	return best, bestV, done
}

// rootMove is a move of the root with its value in an iteration: exact
// for the best, an upper bound for the others (the search proves only
// that they are no better).
type rootMove struct {
	m Move
	v int
}

// markRoot marks each cell the mover can reach with the value of its best
// wall, from the last iteration the search completed, best first (the
// others are upper bounds, labelled so), and the chosen move with the
// value the search gave it (a move that beat the last iteration's best in
// an iteration the budget cut is played for it). A won or lost game is
// marked beyond any territory difference (the board's area).
func markRoot(n *match.Note, root []rootMove, chosen rootMove, size int) {
	seen := map[Cell]bool{}
	root = append([]rootMove{chosen}, root...)
	for _, r := range root {
		if seen[r.m.To] {
			continue
		}
		seen[r.m.To] = true
		v, label := float64(r.v), ""
		switch {
		case r.v >= winBase/2:
			v, label = float64(size*size), "win"
		case r.v <= -winBase/2:
			v, label = -float64(size*size), "loss"
		}
		if r.m != chosen.m && label == "" {
			label = "≤" // searched only far enough to refute it
		}
		n.Mark(r.m.Place(), v, label)
	}
}

// Place names the move on the board, for a note's marks.
func (m Move) Place() match.Place { return match.AtMove(m.To.Row, m.To.Col, int(m.Dir)) }

// sideMove is a move of a line with the side that plays it.
type sideMove struct {
	side match.Side
	Move
}

// line follows the transposition table from the chosen move: the
// principal line, for the note.
func (sr *search) line(side match.Side, m Move, depth int) []sideMove {
	var out []sideMove
	var undo []func()
	for range max(depth, 1) {
		out = append(out, sideMove{side, m})
		s, mm, from := side, m, sr.play(side, m)
		undo = append(undo, func() { sr.unplay(s, mm, from) })
		if over, _, _ := sr.ended(side, m); over {
			break
		}
		side = side.Other()
		e := sr.tt[sr.hash&uint64(len(sr.tt)-1)]
		if e.key != sr.hash || e.move < 0 {
			break
		}
		m = Move{Cell{int(e.move/4) / sr.n, int(e.move/4) % sr.n}, Dir(e.move % 4)}
		if !slices.Contains(sr.moves(side, nil), m) {
			break
		}
	}
	for i := len(undo) - 1; i >= 0; i-- {
		undo[i]()
	}
	return out
}
