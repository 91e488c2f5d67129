package life

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/arena-playground/arena/engine/match"
)

// Owner is what occupies a cell: nobody, P1 or P2.
type Owner uint8

// Cell contents.
const (
	Dead Owner = iota
	P1
	P2
)

// OwnerOf returns the owner that a side's live cells have.
func OwnerOf(s match.Side) Owner { return Owner(s) + 1 }

// Cell is a board coordinate, row first, from 0.
type Cell struct{ Row, Col int }

// String writes the cell as (row,col).
func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.Row, c.Col) }

// Ruleset selects the birth and survival rule of the original's config.
type Ruleset uint8

// The original's two rulesets; every shipped config uses Diff.
const (
	// Diff: with d = own - enemy neighbours, a live cell survives iff
	// d is 2 or 3 and a dead cell is born for the side with d = 3.
	Diff Ruleset = iota
	// Classic: B3/S23 per colour; a birth needs exactly 3 neighbours of
	// one side and none of the other, survival ignores enemies.
	Classic
)

// Board is a rows x cols torus holding both players' cells as two bit
// planes, 64 cells per machine word, each row padded to whole words. The
// bits past the last column are always zero.
type Board struct {
	rows, cols, words int
	plane             [2][]uint64 // P1, P2; row r is words [r*words, (r+1)*words)
}

// NewBoard returns an empty board. Sizes must be positive.
func NewBoard(rows, cols int) Board {
	w := (cols + 63) / 64
	return Board{rows: rows, cols: cols, words: w,
		plane: [2][]uint64{make([]uint64, rows*w), make([]uint64, rows*w)}}
}

// Rows returns the board's height.
func (b *Board) Rows() int { return b.rows }

// Cols returns the board's width.
func (b *Board) Cols() int { return b.cols }

// Words returns the number of 64-bit words per row of a plane.
func (b *Board) Words() int { return b.words }

// Plane returns side's bit plane; callers must not change it on a board
// that belongs to a State.
func (b *Board) Plane(s match.Side) []uint64 { return b.plane[s] }

// At returns the owner of cell (r, c), which must be on the board.
func (b *Board) At(r, c int) Owner {
	i, m := b.index(r, c)
	switch {
	case b.plane[0][i]&m != 0:
		return P1
	case b.plane[1][i]&m != 0:
		return P2
	}
	return Dead
}

// Set makes cell (r, c) dead or live for a side.
func (b *Board) Set(r, c int, o Owner) {
	i, m := b.index(r, c)
	b.plane[0][i] &^= m
	b.plane[1][i] &^= m
	if o != Dead {
		b.plane[o-1][i] |= m
	}
}

func (b *Board) index(r, c int) (int, uint64) {
	return r*b.words + c>>6, 1 << (c & 63)
}

// Count returns the number of side's live cells.
func (b *Board) Count(s match.Side) int {
	n := 0
	for _, w := range b.plane[s] {
		n += bits.OnesCount64(w)
	}
	return n
}

// Clone returns a board with the same cells and its own storage.
func (b *Board) Clone() Board {
	c := NewBoard(b.rows, b.cols)
	c.CopyFrom(b)
	return c
}

// CopyFrom copies src, which must have the same size, into b.
func (b *Board) CopyFrom(src *Board) {
	copy(b.plane[0], src.plane[0])
	copy(b.plane[1], src.plane[1])
}

// String writes the board in the traces' notation, one row per line:
// '#' for P1, 'O' for P2, '.' for dead.
func (b *Board) String() string { return strings.Join(b.Field(), "\n") }

// Rows_ returns the rows in the traces' notation ('#' P1, 'O' P2, '.').
func (b *Board) Field() []string {
	out := make([]string, b.rows)
	line := make([]byte, b.cols)
	for r := range b.rows {
		for c := range b.cols {
			line[c] = ".#O"[b.At(r, c)]
		}
		out[r] = string(line)
	}
	return out
}

// ParseRows reads a board from rows in the traces' notation.
func ParseRows(rows []string) (Board, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return Board{}, fmt.Errorf("field: empty")
	}
	if len(rows) > MaxSide || len(rows[0]) > MaxSide {
		return Board{}, fmt.Errorf("field: %d rows of %d cells: at most %d of %d", len(rows), len(rows[0]), MaxSide, MaxSide)
	}
	b := NewBoard(len(rows), len(rows[0]))
	for r, line := range rows {
		if len(line) != b.cols {
			return Board{}, fmt.Errorf("field: row %d has %d cells, row 0 has %d", r, len(line), b.cols)
		}
		for c, ch := range []byte(line) {
			switch ch {
			case '#':
				b.Set(r, c, P1)
			case 'O':
				b.Set(r, c, P2)
			case '.':
			default:
				return Board{}, fmt.Errorf("field: row %d, column %d: %q is not one of '#', 'O', '.'", r, c, ch)
			}
		}
	}
	return b, nil
}

// lastMask has the bits of the last word of a row that are on the board.
func (b *Board) lastMask() uint64 {
	if r := b.cols & 63; r != 0 {
		return 1<<r - 1
	}
	return ^uint64(0)
}

// ForEach calls f for every set bit of a plane laid out like b's.
func (b *Board) ForEach(plane []uint64, f func(Cell)) {
	for i, w := range plane {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			w &= w - 1
			f(Cell{i / b.words, (i%b.words)<<6 + t})
		}
	}
}

// Reach returns, in dst (grown as needed), the plane of the cells within
// Chebyshev distance d on the torus of one of side's live cells: where
// side may colonise, together with its own cells.
func (b *Board) Reach(s match.Side, d int, dst []uint64) []uint64 {
	W := b.words
	dst = append(dst[:0], b.plane[s]...)
	mask, top := b.lastMask(), uint(b.cols-1)&63
	tmp := make([]uint64, W)
	for range d {
		for r := range b.rows {
			row := dst[r*W : (r+1)*W]
			dilateRow(tmp, row, mask, top)
			copy(row, tmp)
		}
	}
	if d > 0 {
		orig := make([]uint64, len(dst))
		for range d {
			copy(orig, dst)
			for r := range b.rows {
				up, down := floorMod(r-1, b.rows), (r+1)%b.rows
				for i := range W {
					dst[r*W+i] |= orig[up*W+i] | orig[down*W+i]
				}
			}
		}
	}
	return dst
}

// dilateRow sets dst to row with each live bit spread to its two
// horizontal neighbours on the torus.
func dilateRow(dst, row []uint64, mask uint64, top uint) {
	last := len(row) - 1
	for i, v := range row {
		var west, east uint64
		if i > 0 {
			west = row[i-1] >> 63
		} else {
			west = row[last] >> top & 1
		}
		if i < last {
			east = row[i+1] << 63
		} else {
			east = (row[0] & 1) << top
		}
		dst[i] = (v | v<<1 | west | v>>1 | east)
		if i == last {
			dst[i] &= mask
		}
	}
}
