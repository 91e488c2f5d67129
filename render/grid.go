package render

import (
	"math"
	"strconv"
)

// Grid places a rows x cols board of whole-pixel squares in a rectangle:
// where a drawer draws cells, and where a click lands. Games on square
// grids (Life, Colosseum) share it with their human controls.
type Grid struct {
	x0, y0, size float64
	rows, cols   int
	grid         bool // grid lines between cells, when they are big enough
}

// LayoutGrid fits a rows x cols board in r, centred.
func LayoutGrid(r Rect, rows, cols int) Grid {
	// Whole pixels a cell while a cell is a pixel or more; below that a
	// fraction, so that a board larger than the view (a 4096x4096 Life
	// board in 640 pixels) still fits in it.
	size := min(r.W/float64(cols), r.H/float64(rows))
	if size >= 1 {
		size = math.Floor(size)
	}
	return Grid{
		x0:   math.Round(r.X + (r.W-size*float64(cols))/2),
		y0:   math.Round(r.Y + (r.H-size*float64(rows))/2),
		size: size, rows: rows, cols: cols, grid: size >= 6,
	}
}

// CellAt returns the cell under (x, y).
func (l Grid) CellAt(x, y float64) (row, col int, ok bool) {
	c := struct{ Row, Col int }{Row: int(math.Floor((y - l.y0) / l.size)), Col: int(math.Floor((x - l.x0) / l.size))}
	return c.Row, c.Col, c.Row >= 0 && c.Row < l.rows && c.Col >= 0 && c.Col < l.cols
}

// Box returns the box of cell (row, col), inside the grid lines.
func (l Grid) Box(row, col int) Rect {
	r := Rect{l.x0 + float64(col)*l.size, l.y0 + float64(row)*l.size, l.size, l.size}
	if l.grid {
		r = Rect{r.X + 1, r.Y + 1, r.W - 1, r.H - 1}
	}
	return r
}

// Size is the side of a cell, grid line included.
func (l Grid) Size() float64 { return l.size }

// Bounds is the whole board.
func (l Grid) Bounds() Rect {
	return Rect{l.x0, l.y0, l.size * float64(l.cols), l.size * float64(l.rows)}
}

// CoordinateGrid fits a rows x cols board in r with room at its left and
// top for the coordinates the panels name cells by ("3,2": row 3, column
// 2), as Colosseum and Life draw them.
func CoordinateGrid(r Rect, rows, cols int) Grid {
	m := coordinateMargin(r)
	return LayoutGrid(Rect{r.X + m, r.Y + m, r.W - m, r.H - m}, rows, cols)
}

// coordinateMargin is the band a board's coordinates take.
func coordinateMargin(r Rect) float64 { return math.Round(min(max(min(r.W, r.H)/32, 11), 22)) }

// coordinateStep is how many rows apart a grid's coordinates are
// written so that the labels of n rows of size pixels keep apart: every
// row while they fit, else every 2nd, 5th, 10th, 20th, 50th, …
func coordinateStep(size float64, n int, text float64) int {
	for _, step := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		if size*float64(step) >= text*1.6 || step >= n {
			return step
		}
	}
	return 1000
}

// labelsFit reports whether a board's coordinates, lines lh high, are
// small beside the board: not on a start card's still, a board some 60
// pixels high, where the smallest text the canvas writes (a phone's is
// 33 device pixels) covered the board's corner and ran past the still.
func labelsFit(board Rect, lh float64) bool { return min(board.W, board.H) >= 6*lh }

// drawGridCoordinates numbers g's rows at its left and its columns above
// it, from 0 as the originals count: each, or every few when the cells
// are too small for each (a 4096-cell Life board).
func drawGridCoordinates(c Canvas, g Grid, th *Theme) {
	full := g.Bounds()
	size := g.Size()
	face := Face{textSize(c, math.Round(min(max(size*0.32, 9), 14))), Regular}
	lh := c.LineHeight(face)
	if !labelsFit(full, lh) {
		return
	}
	gap := math.Max(3, size/10) + size/18 // past the border wall
	rowStep := coordinateStep(size, g.rows, lh)
	colStep := coordinateStep(size, g.cols, c.TextWidth(strconv.Itoa(g.cols-1), face)+lh/2)
	for i := 0; i < g.rows; i += rowStep {
		mid := float64(i)*size + size/2
		c.Text(strconv.Itoa(i), full.X-gap, full.Y+mid-lh/2, face, Right, th.TextDim)
	}
	for j := 0; j < g.cols; j += colStep {
		mid := float64(j)*size + size/2
		c.Text(strconv.Itoa(j), full.X+mid, full.Y-gap-lh, face, Center, th.TextDim)
	}
}
