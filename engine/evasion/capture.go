package evasion

// captureLines holds, for each offset (dx, dy) = prey - hunter within the
// capture radius, the cells between them that the capture test looks at,
// as offsets from the hunter (indexed [dx+4][dy+4]).
var captureLines [9][9][]Point

func init() {
	for dx := -4; dx <= 4; dx++ {
		for dy := -4; dy <= 4; dy++ {
			if dx*dx+dy*dy > CaptureRadius2 {
				continue
			}
			line := Bresenham(Point{0, 0}, Point{dx, dy})
			var between []Point
			for _, c := range line {
				if c != (Point{0, 0}) && c != (Point{dx, dy}) {
					between = append(between, c)
				}
			}
			captureLines[dx+4][dy+4] = between
		}
	}
}

// CaptureLine returns the cells between the hunter and a prey at offset
// (dx, dy) that must be free for a capture, as offsets from the hunter;
// nil beyond the capture radius.
func CaptureLine(dx, dy int) []Point {
	if dx*dx+dy*dy > CaptureRadius2 {
		return nil
	}
	return captureLines[dx+4][dy+4]
}

// Bresenham is the original's line between two cells (spec §6, a
// translation of RogueBasin's Ruby version): both ends included, the same
// set whichever end comes first, and not mirror-symmetric.
func Bresenham(a, b Point) []Point {
	x0, y0, x1, y1 := a.X, a.Y, b.X, b.Y
	steep := abs(y1-y0) > abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	dx, dy := x1-x0, abs(y1-y0)
	err, y, ystep := dx/2, y0, -1
	if y0 < y1 {
		ystep = 1
	}
	var out []Point
	for x := x0; x <= x1; x++ {
		if steep {
			out = append(out, Point{y, x})
		} else {
			out = append(out, Point{x, y})
		}
		err -= dy
		if err < 0 {
			y += ystep
			err += dx
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
