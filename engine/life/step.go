package life

// The generation step, bit-parallel: 64 cells per word, both players at
// once. The trick for the diff rule is to count, over the 3x3 block around
// a cell (the cell included), the P1 cells plus the cells that are NOT P2:
//
//	s = p1 + (9 - p2) = d + 9 for a dead cell, d + 10 for a P1 cell,
//	d + 8 for a P2 cell, where d = p1 - p2 over the 8 neighbours.
//
// so the whole rule table of the spec becomes tests on one 5-bit number:
// P1 lives next iff s is 12 or 13 and the cell is P1, or s is 12 and the
// cell is dead; P2 lives next iff s is 5 or 6 and the cell is P2, or s is 6
// and the cell is dead. s is summed from per-row sums of three
// horizontally adjacent cells (two bits each), computed once per row and
// reused by the three output rows that see it.
//
// On boards narrower or shorter than 3 the 9 offsets alias, and the sum
// counts them with multiplicity, exactly as the original's 8 wrapped
// lookups plus the centre do.

// Step writes the next generation of b into dst, which must have b's
// size and must not be b.
func (b *Board) Step(dst *Board, rules Ruleset) { b.step(dst, rules, false) }

// Stepped returns the next generation of b as a new board. A new board is
// dead, so the rows that stay dead are not written: under WebAssembly
// clearing a 4096x4096 board's 4 MB had been most of a mostly dead
// board's step.
func (b *Board) Stepped(rules Ruleset) Board {
	next := NewBoard(b.rows, b.cols)
	b.step(&next, rules, true)
	return next
}

// step writes the next generation into dst; fresh says dst is dead.
func (b *Board) step(dst *Board, rules Ruleset, fresh bool) {
	switch {
	case rules == Classic:
		b.stepClassic(dst, fresh)
	case b.words == 1:
		b.stepDiff1(dst)
	default:
		b.stepDiff(dst, fresh)
	}
}

// rowSum3 returns the bit-sliced sum of each cell of a one-word row and
// its two horizontal neighbours on a torus of the given width.
func rowSum3(v uint64, width uint, mask uint64) (lo, hi uint64) {
	w := (v<<1 | v>>(width-1)) & mask
	e := (v>>1 | v<<(width-1)) & mask
	lo = v ^ w ^ e
	hi = v&w | e&(v^w)
	return
}

// stepDiff1 is the diff step for boards at most 64 cells wide.
func (b *Board) stepDiff1(dst *Board) {
	width, mask := uint(b.cols), b.lastMask()
	p1, p2 := b.plane[0], b.plane[1]
	n := b.rows
	sum := func(r int) (l1, h1, l2, h2 uint64) {
		l1, h1 = rowSum3(p1[r], width, mask)
		l2, h2 = rowSum3(^p2[r]&mask, width, mask)
		return
	}
	ul1, uh1, ul2, uh2 := sum(n - 1)
	ml1, mh1, ml2, mh2 := sum(0)
	for r := range n {
		dl1, dh1, dl2, dh2 := sum((r + 1) % n)
		x1, x2 := p1[r], p2[r]
		n1, n2 := diffRule(x1, x2, ul1, ml1, dl1, ul2, ml2, dl2, uh1, mh1, dh1, uh2, mh2, dh2)
		dst.plane[0][r], dst.plane[1][r] = n1&mask, n2&mask
		ul1, uh1, ul2, uh2 = ml1, mh1, ml2, mh2
		ml1, mh1, ml2, mh2 = dl1, dh1, dl2, dh2
	}
}

// diffRule applies the diff rule to 64 cells given the low and high bits
// of the three row sums of each plane (P1, and NOT-P2).
func diffRule(x1, x2, a, b, c, d, e, f, g, h, i, j, k, l uint64) (n1, n2 uint64) {
	l0, l1, l2 := sum6(a, b, c, d, e, f)
	h0, h1, h2 := sum6(g, h, i, j, k, l)
	b0, b1, b2, b3, b4 := lPlus2H(l0, l1, l2, h0, h1, h2)
	return diffNext(x1, x2, b0, b1, b2, b3, b4)
}

// sum6 adds six one-bit numbers, 64 at a time, into the three bits of
// their sum (0..6). It, lPlus2H and diffNext are each small enough for
// Go to inline, so that diffRow's loop calls nothing (the whole rule is not:
// under WebAssembly a call passes its 14 words through memory).
func sum6(a, b, c, d, e, f uint64) (s0, s1, s2 uint64) {
	t1, c1 := a^b^c, a&b|c&(a^b)
	t2, c2 := d^e^f, d&e|f&(d^e)
	s0, ca := t1^t2, t1&t2
	s1, s2 = c1^c2^ca, c1&c2|ca&(c1^c2)
	return
}

// lPlus2H returns the five bits of s = L + 2H, L and H given by their
// three bits each: L the sum of the row sums' low bits, H of their high
// bits.
func lPlus2H(l0, l1, l2, h0, h1, h2 uint64) (b0, b1, b2, b3, b4 uint64) {
	b0 = l0
	b1, k1 := l1^h0, l1&h0
	b2, k2 := l2^h1^k1, l2&h1|k1&(l2^h1)
	b3, b4 = h2^k2, h2&k2
	return
}

// diffNext is the next generation of 64 cells (x1, x2: the P1 and P2
// planes) from the bits of s (see the top of this file).
func diffNext(x1, x2, b0, b1, b2, b3, b4 uint64) (n1, n2 uint64) {
	hi := ^b4 & b2
	s1213 := hi & b3 &^ b1      // s is 12 or 13
	s56 := hi &^ b3 & (b1 ^ b0) // s is 5 or 6
	n1 = s1213 & (x1 | ^x2&^b0) // P1 survives, or is born where s = 12
	n2 = s56 & (x2 | ^x1&b1)    // P2 survives, or is born where s = 6
	return n1, n2
}

// stepDiff is the diff step for boards of any width.
func (b *Board) stepDiff(dst *Board, fresh bool) {
	W, mask := b.words, b.lastMask()
	win := newRowWindow(b, ^uint64(0))
	live := b.liveRows()
	for r := range b.rows {
		if dst.deadNext(live, r, fresh) {
			continue
		}
		rows := win.at(r)
		o1, o2 := dst.plane[0][r*W:(r+1)*W], dst.plane[1][r*W:(r+1)*W]
		diffRow(o1, o2, b.plane[0][r*W:(r+1)*W], b.plane[1][r*W:(r+1)*W], rows)
		o1[W-1] &= mask
		o2[W-1] &= mask
	}
}

// rowWindow holds the row sums (rowSumN) of the three rows a row of the
// next generation sees, rolled down the board a row at a time: each
// row's sums are computed once and read by the three rows that see it.
// It rolls past the rows a step skips as if they were not skipped: a
// row is skipped only where it and its neighbours are dead, so the two
// rows it holds then and the two above the row asked for next are all
// dead, and a dead row's sums are every dead row's.
type rowWindow struct {
	b     *Board
	flip  uint64         // the second plane's complement: all ones for NOT-P2 (diff), 0 (classic)
	rows  [3][4][]uint64 // [up, mid, down][lo, hi of the first plane, lo, hi of the second]
	first bool           // no row asked for yet
	mask  uint64         // the last word's columns
	top   uint           // the last column's bit in the last word
}

func newRowWindow(b *Board, flip uint64) *rowWindow {
	W := b.words
	w := &rowWindow{b: b, flip: flip, first: true, mask: b.lastMask(), top: uint(b.cols-1) & 63}
	scratch := make([]uint64, 12*W)
	for k := range 3 {
		for j := range 4 {
			o := (k*4 + j) * W
			w.rows[k][j] = scratch[o : o+W]
		}
	}
	return w
}

// at returns the sums of the rows above, on and below row r, the rows
// asked for going down the board.
func (w *rowWindow) at(r int) *[3][4][]uint64 {
	if w.first {
		w.sum(&w.rows[1], w.b.wrapRow(r-1))
		w.sum(&w.rows[2], r)
		w.first = false
	}
	w.rows[0], w.rows[1], w.rows[2] = w.rows[1], w.rows[2], w.rows[0]
	w.sum(&w.rows[2], w.b.wrapRow(r+1))
	return &w.rows
}

func (w *rowWindow) sum(dst *[4][]uint64, r int) {
	W := w.b.words
	rowSumN(dst[0], dst[1], w.b.plane[0][r*W:(r+1)*W], 0, w.mask, w.top)
	rowSumN(dst[2], dst[3], w.b.plane[1][r*W:(r+1)*W], w.flip, w.mask, w.top)
}

// liveRows reports, row by row, whether b has a live cell there. A big
// board is mostly dead (Life at 4096x4096 starts with 24 small shapes a
// side), and a row whose three rows (itself and its neighbours, wrapped)
// are dead stays dead under either ruleset: its step is then a scan for
// live rows.
func (b *Board) liveRows() []bool {
	W := b.words
	live := make([]bool, b.rows)
	for r := range live {
		live[r] = !allDead(b.plane[0][r*W:(r+1)*W]) || !allDead(b.plane[1][r*W:(r+1)*W])
	}
	return live
}

func allDead(words []uint64) bool {
	for _, w := range words {
		if w != 0 {
			return false
		}
	}
	return true
}

// deadNext reports whether row r of the next generation is dead by
// liveRows (the board stepped's), and clears it in dst if so (unless dst
// is fresh: dead already).
func (dst *Board) deadNext(live []bool, r int, fresh bool) bool {
	if live[r] || live[dst.wrapRow(r-1)] || live[dst.wrapRow(r+1)] {
		return false
	}
	if fresh {
		return true
	}
	W := dst.words
	clear(dst.plane[0][r*W : (r+1)*W])
	clear(dst.plane[1][r*W : (r+1)*W])
	return true
}

// wrapRow is row r on the torus.
func (b *Board) wrapRow(r int) int { return floorMod(r, b.rows) }

// diffRow applies the diff rule (diffRule, inlined) to one row of words,
// from the row sums above, on and below it. Each slice is a local of its own length, so
// that the loop reads no slice header from memory and checks no bound
// (under WebAssembly, where the page steps a 4096x4096 board, that was
// most of the loop).
func diffRow(o1, o2, x1s, x2s []uint64, rows *[3][4][]uint64) {
	n := len(o1)
	o2, x1s, x2s = o2[:n], x1s[:n], x2s[:n]
	ul1, ml1, dl1 := rows[0][0][:n], rows[1][0][:n], rows[2][0][:n]
	uh1, mh1, dh1 := rows[0][1][:n], rows[1][1][:n], rows[2][1][:n]
	ul2, ml2, dl2 := rows[0][2][:n], rows[1][2][:n], rows[2][2][:n]
	uh2, mh2, dh2 := rows[0][3][:n], rows[1][3][:n], rows[2][3][:n]
	for i := range o1 {
		l0, l1, l2 := sum6(ul1[i], ml1[i], dl1[i], ul2[i], ml2[i], dl2[i])
		h0, h1, h2 := sum6(uh1[i], mh1[i], dh1[i], uh2[i], mh2[i], dh2[i])
		b0, b1, b2, b3, b4 := lPlus2H(l0, l1, l2, h0, h1, h2)
		o1[i], o2[i] = diffNext(x1s[i], x2s[i], b0, b1, b2, b3, b4)
	}
}

// rowSumN computes the bit-sliced horizontal 3-sums of a multi-word torus
// row, complemented first when flip is all ones (the NOT-P2 plane). top is
// the bit of the last column in the last word.
func rowSumN(lo, hi, row []uint64, flip, mask uint64, top uint) {
	last := len(row) - 1
	lo, hi = lo[:last+1], hi[:last+1]
	end := (row[last] ^ flip) & mask
	first := row[0] ^ flip
	if last == 0 {
		first = end
	}
	prev := end >> top // the last column, wrapping to the west of column 0
	v := first
	for i := 0; i < last; i++ {
		next := row[i+1] ^ flip
		if i+1 == last {
			next &= mask
		}
		w := v<<1 | prev&1
		e := v>>1 | next<<63
		lo[i] = v ^ w ^ e
		hi[i] = v&w | e&(v^w)
		prev = v >> 63
		v = next
	}
	w := v<<1 | prev&1
	e := v>>1 | (first&1)<<top
	lo[last] = v ^ w ^ e
	hi[last] = v&w | e&(v^w)
}

// stepClassic is the classic B3/S23 step, per colour.
func (b *Board) stepClassic(dst *Board, fresh bool) {
	W, mask := b.words, b.lastMask()
	win := newRowWindow(b, 0)
	live := b.liveRows()
	for r := range b.rows {
		if dst.deadNext(live, r, fresh) {
			continue
		}
		rows := win.at(r)
		u, m, d := &rows[0], &rows[1], &rows[2]
		for i := range W {
			x1, x2 := b.plane[0][r*W+i], b.plane[1][r*W+i]
			a0, a1, a2, a3 := sum9(u[0][i], m[0][i], d[0][i], u[1][i], m[1][i], d[1][i])
			c0, c1, c2, c3 := sum9(u[2][i], m[2][i], d[2][i], u[3][i], m[3][i], d[3][i])
			three1 := ^a3 &^ a2 & a1 & a0 // 9-sum is 3
			four1 := ^a3 & a2 &^ a1 &^ a0 // 9-sum is 4
			three2 := ^c3 &^ c2 & c1 & c0
			four2 := ^c3 & c2 &^ c1 &^ c0
			zero1 := ^(a0 | a1 | a2 | a3)
			zero2 := ^(c0 | c1 | c2 | c3)
			dead := ^(x1 | x2)
			// A live cell's 9-sum counts itself: own neighbours 2 or 3 is 3 or 4.
			dst.plane[0][r*W+i] = (x1&(three1|four1) | dead&three1&zero2) & wordMask(i, W, mask)
			dst.plane[1][r*W+i] = (x2&(three2|four2) | dead&three2&zero1) & wordMask(i, W, mask)
		}
	}
}

func wordMask(i, w int, mask uint64) uint64 {
	if i == w-1 {
		return mask
	}
	return ^uint64(0)
}

// sum9 adds three 2-bit row sums (lo bits a, b, c; hi bits d, e, f) into a
// 4-bit number.
func sum9(a, b, c, d, e, f uint64) (s0, s1, s2, s3 uint64) {
	l0, l1 := a^b^c, a&b|c&(a^b)
	h0, h1 := d^e^f, d&e|f&(d^e)
	s0 = l0
	s1, k := l1^h0, l1&h0
	s2, s3 = h1^k, h1&k
	return
}

// Grid is the plain form of a board, one byte per cell, for the reference
// step that the fast one is tested and measured against.
type Grid struct {
	Rows, Cols int
	Cells      []Owner // row-major
}

// Grid returns the board as a plain grid.
func (b *Board) Grid() Grid {
	g := Grid{b.rows, b.cols, make([]Owner, b.rows*b.cols)}
	for r := range b.rows {
		for c := range b.cols {
			g.Cells[r*b.cols+c] = b.At(r, c)
		}
	}
	return g
}

// Board returns the grid as a board.
func (g Grid) Board() Board {
	b := NewBoard(g.Rows, g.Cols)
	for i, o := range g.Cells {
		if o != Dead {
			b.Set(i/g.Cols, i%g.Cols, o)
		}
	}
	return b
}

// StepReference is the plain per-cell step of the original code: for each
// cell, count the owners of its 8 wrapped neighbours and apply the rule
// table. dst must have g's size.
func (g Grid) StepReference(dst Grid, rules Ruleset) {
	R, C := g.Rows, g.Cols
	for r := range R {
		rows := [3]int{(r + R - 1) % R * C, r * C, (r + 1) % R * C}
		for c := range C {
			cols := [3]int{(c + C - 1) % C, c, (c + 1) % C}
			var p [3]int
			for i, ro := range rows {
				for j, co := range cols {
					if i != 1 || j != 1 {
						p[g.Cells[ro+co]]++
					}
				}
			}
			dst.Cells[r*C+c] = nextOwner(g.Cells[r*C+c], p[P1], p[P2], rules)
		}
	}
}

// nextOwner is the rule table of the spec (§6.4) for one cell.
func nextOwner(o Owner, p1, p2 int, rules Ruleset) Owner {
	if rules == Classic {
		switch {
		case o == P1 && (p1 == 2 || p1 == 3), o == Dead && p1 == 3 && p2 == 0:
			return P1
		case o == P2 && (p2 == 2 || p2 == 3), o == Dead && p2 == 3 && p1 == 0:
			return P2
		}
		return Dead
	}
	d := p1 - p2
	switch o {
	case P1:
		if d == 2 || d == 3 {
			return P1
		}
	case P2:
		if d == -2 || d == -3 {
			return P2
		}
	default:
		if d == 3 {
			return P1
		}
		if d == -3 {
			return P2
		}
	}
	return Dead
}

func floorMod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}
