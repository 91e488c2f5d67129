package render

import "math"

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
