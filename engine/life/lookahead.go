package life

import (
	"math/bits"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// lookahead scores colonisations by playing the board forward h
// generations. Scoring a small piece does not need the whole board: after
// h generations a change has spread at most h cells, and the error of
// simulating a window cut out of the torus creeps in from the window's
// edge by one cell a generation. So a window reaching 2h+1 cells beyond
// the piece gives the exact change of own minus enemy cells, at a cost
// that does not grow with the board.
type lookahead struct {
	board   Board // the position the pieces are added to, with the reply
	rules   Ruleset
	variant string
	side    match.Side
	h       int
	reply   Action // the other side's predicted cells, placed at the same time
	spend   func(int64) bool

	base      Board // board stepped h generations: the outcome without a piece
	baseScore int
	win, tmp  Board // window buffers
	a, b      Board // full-board buffers

	// The window of the last anchor valued, as cut from the board, and
	// the outcome without a piece around it: a cell and its four
	// L-trominoes share an anchor, and cutting a window is a third of a
	// piece's cost.
	cut        Board
	cutAt      Cell
	cutOK      bool
	cutWithout int
}

// pieceSpan is the largest piece scored on a window: pieces lie in a 2x2
// square.
const pieceSpan = 2

func newLookahead(board *Board, rules Ruleset, variant string, side match.Side, h int, reply Action, spend func(int64) bool) *lookahead {
	l := &lookahead{board: board.Clone(), rules: rules, variant: variant, side: side, h: h, reply: reply, spend: spend}
	l.a, l.b = NewBoard(board.rows, board.cols), NewBoard(board.rows, board.cols)
	l.base = NewBoard(board.rows, board.cols)
	n := pieceSpan + 2*l.radius()
	l.win, l.tmp, l.cut = NewBoard(n, n), NewBoard(n, n), NewBoard(n, n)
	l.reset(board)
	return l
}

// reset makes board, which has the lookahead's size, the position pieces
// are added to.
func (l *lookahead) reset(board *Board) {
	l.board.CopyFrom(board)
	l.cutOK = false
	l.simulate(nil, &l.base)
	l.baseScore = l.base.Count(l.side) - l.base.Count(l.side.Other())
}

// radius is how far the window reaches beyond a piece.
func (l *lookahead) radius() int { return 2*l.h + 1 }

// windowed reports whether pieces are scored on windows: only when the
// window is smaller than the board, or it would wrap onto itself.
func (l *lookahead) windowed() bool {
	n := pieceSpan + 2*l.radius()
	return n < l.board.rows && n < l.board.cols && n <= 64
}

// place sets act and the reply on b, resolving collisions as the rules
// variant does, and calls set for each cell placed.
func (l *lookahead) place(act []Cell, set func(c Cell, o Owner)) {
	mine, theirs := Action(act), l.reply
	if !slices.ContainsFunc(mine, func(c Cell) bool { return slices.Contains(theirs, c) }) {
		// No cell contested: both are placed as they are, under either
		// variant, without resolve's lists (a piece's value asks this of
		// every piece).
		for _, c := range theirs {
			set(c, OwnerOf(l.side.Other()))
		}
		for _, c := range mine {
			set(c, OwnerOf(l.side))
		}
		return
	}
	var applied [2][]Cell
	if l.side == match.P1 {
		applied, _ = resolve(mine, theirs, l.variant)
	} else {
		applied, _ = resolve(theirs, mine, l.variant)
		applied[0], applied[1] = applied[1], applied[0]
	}
	for _, c := range applied[1] {
		set(c, OwnerOf(l.side.Other()))
	}
	for _, c := range applied[0] {
		set(c, OwnerOf(l.side))
	}
}

// simulate places act and runs the whole board h generations into dst.
func (l *lookahead) simulate(act []Cell, dst *Board) {
	l.a.CopyFrom(&l.board)
	l.place(act, func(c Cell, o Owner) { l.a.Set(c.Row, c.Col, o) })
	dst.CopyFrom(l.run(&l.a, &l.b))
}

// run steps cur h generations, using next as scratch, and returns the
// board holding the result (one of the two).
func (l *lookahead) run(cur, next *Board) *Board {
	for range l.h {
		cur.Step(next, l.rules)
		if l.spend != nil {
			l.spend(1)
		}
		cur, next = next, cur
	}
	return cur
}

// eval returns own minus enemy cells after h generations with act placed,
// simulating the whole board: for sets of pieces.
func (l *lookahead) eval(act []Cell) int {
	l.simulate(act, &l.a)
	return l.a.Count(l.side) - l.a.Count(l.side.Other())
}

// value returns how much placing the piece changes own minus enemy cells
// after h generations. The piece's cells must lie in a 2x2 square whose
// top left cell is anchor (wrapping on the torus).
func (l *lookahead) value(piece []Cell, anchor Cell) int {
	if !l.windowed() {
		return l.eval(piece) - l.baseScore
	}
	R := l.radius()
	r0, c0 := anchor.Row-R, anchor.Col-R
	// Count where the piece can have changed anything: h cells around it.
	in0, n := R-l.h, pieceSpan+2*l.h
	if !l.cutOK || l.cutAt != anchor {
		l.board.window(r0, c0, &l.cut)
		l.cutWithout = l.base.countIn(l.side, r0+in0, c0+in0, n) - l.base.countIn(l.side.Other(), r0+in0, c0+in0, n)
		l.cutAt, l.cutOK = anchor, true
	}
	l.win.CopyFrom(&l.cut)
	rows, cols := l.board.rows, l.board.cols
	l.place(piece, func(c Cell, o Owner) {
		wr, wc := floorMod(c.Row-r0, rows), floorMod(c.Col-c0, cols)
		if wr < l.win.rows && wc < l.win.cols {
			l.win.Set(wr, wc, o)
		}
	})
	cur := l.run(&l.win, &l.tmp)
	with := cur.countIn(l.side, in0, in0, n) - cur.countIn(l.side.Other(), in0, in0, n)
	return with - l.cutWithout
}

// window copies the n x n square of b whose top left is (r0, c0),
// wrapping on the torus, into dst (an n x n board, n <= 64).
func (b *Board) window(r0, c0 int, dst *Board) {
	n := dst.rows
	for i := range n {
		r := floorMod(r0+i, b.rows)
		for s := range 2 {
			dst.plane[s][i] = b.extract(match.Side(s), r, c0, n)
		}
	}
}

// countIn counts side's cells in the n x n square at (r0, c0), wrapping.
func (b *Board) countIn(s match.Side, r0, c0, n int) int {
	total := 0
	for i := range n {
		total += bits.OnesCount64(b.extract(s, floorMod(r0+i, b.rows), c0, n))
	}
	return total
}

// extract returns n <= 64 cells of side's plane in row r from column c0
// on, wrapping around the row, as bits from bit 0.
func (b *Board) extract(s match.Side, r, c0, n int) uint64 {
	row := b.plane[s][r*b.words : (r+1)*b.words]
	pos := floorMod(c0, b.cols)
	var out uint64
	for shift := 0; shift < n; {
		k := min(n-shift, b.cols-pos, 64-pos&63)
		w := row[pos>>6] >> (pos & 63)
		if k < 64 {
			w &= 1<<k - 1
		}
		out |= w << shift
		shift += k
		pos = (pos + k) % b.cols
	}
	return out
}
