package evasion

import (
	"fmt"
	"strconv"
)

// Size is the side of the square board: cells 0..299 in x and y. The
// original fixes it, although its state message carries it.
const Size = 300

// Point is a cell, or a velocity.
type Point struct{ X, Y int }

// Kind is a wall's type, numbered as in the state message (the hunter's
// reply numbers them one more: 1 horizontal ... 4 counterdiagonal).
type Kind int8

// The four wall types.
const (
	Horizontal Kind = iota
	Vertical
	Diagonal        // x and y grow together: "/" with y up
	Counterdiagonal // one grows as the other shrinks: "\"
)

var kindNames = [...]string{"horizontal", "vertical", "diagonal", "counterdiagonal"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Wall is a built wall, as the state message writes it (spec §2.7, §5).
// Horizontal: Y1 == Y2, X1 <= X2. Vertical: X1 == X2, Y1 <= Y2.
// Diagonal: the staircase from (X1,Y1) to (X2,Y2), both growing.
// Counterdiagonal: from the upper-left end (X1,Y1) to the lower-right
// (X2,Y2), so Y1 >= Y2. BD says whether a diagonal staircase leaves its
// first end by a step in y (true) or in x.
type Wall struct {
	Kind           Kind
	X1, X2, Y1, Y2 int
	BD             bool
}

// Contains reports whether (x, y) is one of the wall's cells. It is how
// the original answers "is this cell blocked" (wall by wall), and how a
// field without its grid answers it.
func (w *Wall) Contains(x, y int) bool {
	switch w.Kind {
	case Horizontal:
		return y == w.Y1 && x >= w.X1 && x <= w.X2
	case Vertical:
		return x == w.X1 && y >= w.Y1 && y <= w.Y2
	case Diagonal:
		if x < w.X1 || x > w.X2 || y < w.Y1 || y > w.Y2 {
			return false
		}
		if w.BD { // column X1+i holds rows Y1+i and Y1+i+1
			d := y - w.Y1 - (x - w.X1)
			return d == 0 || d == 1
		}
		d := x - w.X1 - (y - w.Y1) // row Y1+i holds columns X1+i and X1+i+1
		return d == 0 || d == 1
	case Counterdiagonal:
		if x < w.X1 || x > w.X2 || y > w.Y1 || y < w.Y2 {
			return false
		}
		if w.BD { // column X1+i holds rows Y1-i and Y1-i-1
			d := w.Y1 - y - (x - w.X1)
			return d == 0 || d == 1
		}
		d := x - w.X1 - (w.Y1 - y) // row Y1-i holds columns X1+i and X1+i+1
		return d == 0 || d == 1
	}
	return false
}

// Cells calls f with each of the wall's cells.
func (w *Wall) Cells(f func(x, y int)) {
	switch w.Kind {
	case Horizontal:
		for x := w.X1; x <= w.X2; x++ {
			f(x, w.Y1)
		}
	case Vertical:
		for y := w.Y1; y <= w.Y2; y++ {
			f(w.X1, y)
		}
	case Diagonal, Counterdiagonal:
		// Walk the staircase from its first end, alternating steps in y
		// and x, until it leaves the wall's box: exactly the cells the
		// original's occupies() lists.
		dy := 1
		if w.Kind == Counterdiagonal {
			dy = -1
		}
		x, y, inY := w.X1, w.Y1, w.BD
		for w.inBox(x, y) {
			f(x, y)
			if inY {
				y += dy
			} else {
				x++
			}
			inY = !inY
		}
	}
}

// inBox reports whether (x, y) lies in the wall's bounding box.
func (w *Wall) inBox(x, y int) bool {
	return x >= w.X1 && x <= w.X2 && y >= min(w.Y1, w.Y2) && y <= max(w.Y1, w.Y2)
}

// Len is the number of cells of the wall.
func (w *Wall) Len() int {
	n := 0
	w.Cells(func(int, int) { n++ })
	return n
}

// appendTo writes the wall's record as the state message does:
// "0 y x1 x2", "1 x y1 y2", "2 x1 x2 y1 y2 bd", "3 x1 x2 y1 y2 bd".
func (w *Wall) appendTo(b []byte) []byte {
	b = strconv.AppendInt(b, int64(w.Kind), 10)
	switch w.Kind {
	case Horizontal:
		return appendInts(b, w.Y1, w.X1, w.X2)
	case Vertical:
		return appendInts(b, w.X1, w.Y1, w.Y2)
	}
	bd := 0
	if w.BD {
		bd = 1
	}
	return appendInts(b, w.X1, w.X2, w.Y1, w.Y2, bd)
}

func (w Wall) String() string { return string(w.appendTo(nil)) }

func appendInts(b []byte, vs ...int) []byte {
	for _, v := range vs {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}

// parseWall reads one wall record from the fields of a state message,
// returning the wall and the number of fields it used.
func parseWall(f []int) (Wall, int, error) {
	if len(f) == 0 {
		return Wall{}, 0, fmt.Errorf("missing wall")
	}
	k := Kind(f[0])
	var w Wall
	n := 4
	switch k {
	case Horizontal, Vertical:
		if len(f) < 4 {
			return w, 0, fmt.Errorf("%s wall needs 3 numbers", k)
		}
		if k == Horizontal {
			w = Wall{Kind: k, Y1: f[1], Y2: f[1], X1: f[2], X2: f[3]}
		} else {
			w = Wall{Kind: k, X1: f[1], X2: f[1], Y1: f[2], Y2: f[3]}
		}
	case Diagonal, Counterdiagonal:
		if len(f) < 6 {
			return w, 0, fmt.Errorf("%s wall needs 5 numbers", k)
		}
		if f[5] != 0 && f[5] != 1 {
			return w, 0, fmt.Errorf("%s wall: bd %d is not 0 or 1", k, f[5])
		}
		w = Wall{Kind: k, X1: f[1], X2: f[2], Y1: f[3], Y2: f[4], BD: f[5] == 1}
		n = 6
	default:
		return w, 0, fmt.Errorf("wall type %d is not 0 to 3", f[0])
	}
	if !w.valid() {
		return w, 0, fmt.Errorf("wall %s is not on the %dx%d board with its ends in order", w, Size, Size)
	}
	return w, n, nil
}

// valid reports whether the wall lies on the board with its ends in the
// order the original writes them.
func (w *Wall) valid() bool {
	in := func(v int) bool { return v >= 0 && v < Size }
	if !in(w.X1) || !in(w.X2) || !in(w.Y1) || !in(w.Y2) || w.X1 > w.X2 {
		return false
	}
	switch w.Kind {
	case Horizontal:
		return w.Y1 == w.Y2
	case Vertical:
		return w.X1 == w.X2 && w.Y1 <= w.Y2
	case Diagonal:
		return w.Y1 <= w.Y2
	case Counterdiagonal:
		return w.Y1 >= w.Y2
	}
	return false
}
