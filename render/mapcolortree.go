package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
)

// treeView is a search tree as it stands after some of its trace lines:
// which nodes have appeared, each one's latest line, and the path in focus.
type treeView struct {
	t       *mapcolor.Tree
	p       *mapcolor.Problem
	mover   match.Side
	player  string
	lines   int   // trace lines revealed
	latest  []int // each node's latest revealed line, -1 if none
	current int   // the node of the latest line, -1 before the first
	done    bool
	path    []int // the nodes in focus, one per depth from the root
	onPath  map[int]bool
	weight  []float64
	depth   int // the deepest node's
}

func newTreeView(m mapcolorMoment) *treeView {
	t := m.tree
	v := &treeView{t: t, p: m.from.Problem(), mover: m.mover, player: m.player, lines: m.lines, current: -1,
		done: m.lines == len(t.Lines), latest: make([]int, len(t.Nodes)), onPath: map[int]bool{}}
	for i := range v.latest {
		v.latest[i] = -1
	}
	for i := 0; i < m.lines; i++ {
		v.latest[t.Lines[i].Node] = i
	}
	if m.lines > 0 {
		v.current = t.Lines[m.lines-1].Node
	}
	v.path = v.focus()
	for _, n := range v.path {
		v.onPath[n] = true
	}
	v.weight = treeWeights(t)
	for _, n := range t.Nodes {
		v.depth = max(v.depth, n.Depth)
	}
	return v
}

// focus is the path the detail rows show. While the search runs: the
// current node's ancestors, then down through the subtree it last
// finished, so that a returning search keeps its work on screen. Once it
// is over: the chosen move and the line of play that gave its value.
func (v *treeView) focus() []int {
	if v.current < 0 {
		return nil
	}
	var up []int
	n := v.current
	if v.done && v.t.Best >= 0 {
		n = v.t.Best
	}
	for ; n >= 0; n = v.t.Nodes[n].Parent {
		up = append(up, n)
	}
	path := make([]int, 0, len(up)+4)
	for i := len(up) - 1; i >= 0; i-- {
		path = append(path, up[i])
	}
	for n := path[len(path)-1]; ; {
		next := -1
		for _, ch := range v.t.Nodes[n].Children {
			if v.t.Nodes[ch].Pruned || v.latest[ch] < 0 {
				continue
			}
			if v.done {
				if v.value(ch) == v.value(n) {
					next = ch
					break
				}
				continue
			}
			next = ch
		}
		if next < 0 {
			return path
		}
		path = append(path, next)
		n = next
	}
}

// visible reports whether node id has appeared: from its first line, or
// for a pruned move from the cut-off that pruned it.
func (v *treeView) visible(id int) bool {
	n := v.t.Nodes[id]
	return n.First < v.lines || n.Pruned && n.First <= v.lines
}

// reach is the depth of node id's deepest visible descendant.
func (v *treeView) reach(id int) int {
	d := v.t.Nodes[id].Depth
	for _, ch := range v.t.Nodes[id].Children {
		if v.visible(ch) {
			d = max(d, v.reach(ch))
		}
	}
	return d
}

func (v *treeView) value(id int) int { return v.t.Lines[v.latest[id]].Value }

func (v *treeView) label(id int) string {
	n := v.t.Nodes[id]
	return v.p.States[n.State] + " " + v.p.Colours[n.Colour]
}

// alphaBeta is node id's alpha and beta at its latest line.
func (v *treeView) alphaBeta(id int) string {
	if l := v.latest[id]; l >= 0 {
		return fmt.Sprintf("α %s β %s", mapcolor.FormatValue(v.t.Lines[l].Alpha), mapcolor.FormatValue(v.t.Lines[l].Beta))
	}
	return ""
}

// fill is a node's colour: pruned grey, the chosen move in the mover's
// colour, the current node accented, the focus path tinted.
func (v *treeView) fill(id int, th *Theme) (bg, fg color.RGBA) {
	switch {
	case v.t.Nodes[id].Pruned:
		return Mix(th.Panel, th.Grid, 0.6), th.TextDim
	case v.done && id == v.t.Best:
		return Mix(th.Board, th.Player[v.mover], 0.75), th.Text
	case id == v.current:
		return th.Accent, th.Background
	case v.onPath[id]:
		return Mix(th.Board, th.Accent, 0.35), th.Text
	}
	return th.Board, th.Text
}

// drawTree draws the search tree of the decision in view: a header with
// the trace line just replayed, then the tree. A tree small enough to
// label every leaf is drawn whole as an icicle; a larger one as a small
// icicle overview above rows that follow the focus path, one row per
// depth listing the moves tried there with their values.
func drawTree(c Canvas, r Rect, m mapcolorMoment, th *Theme) {
	c.Fill(r, th.Panel)
	small := Face{Size: math.Round(textSize(c, max(9, min(13, r.W/34)))), Style: Mono}
	lh := c.LineHeight(small)
	pad := math.Round(lh * 0.4)
	if m.chose != "" {
		msg := m.chose
		if m.tree != nil {
			msg += fmt.Sprintf(". The last search, %s's at move %d:", m.mover, m.treeK+1)
		}
		y := Wrap(c, msg, r.X+pad, r.Y+pad, r.W-2*pad, small, th.Text)
		_, r = r.CutTop(y - r.Y)
	}
	if m.tree == nil {
		if m.chose == "" {
			msg := "the search appears here as its trace is replayed"
			if m.from.ToMove() == match.Nobody && m.from.Turn() == 0 {
				msg = "no state can be coloured"
			}
			Wrap(c, msg, r.X+pad, r.Y+pad, r.W-2*pad, small, th.TextDim)
		}
		return
	}
	v := newTreeView(m)
	head, body := r.CutTop(2*lh + 2*pad)
	drawTreeHead(c, head.Inset(pad), v, small, th)
	body = body.Inset(pad)
	depth := v.depth
	leafW := body.W / max(v.weight[0], 1)
	if leafW >= 6*small.Size && body.H/float64(depth+1) >= 2.4*lh {
		drawIcicle(c, body, v, small, th)
		return
	}
	// The rows take what they need for two lines a box, the overview the
	// rest and at least a fifth.
	rows := float64(depth) * (2*lh + 10 + math.Round(lh*0.5))
	over := max(body.H*0.2, body.H-rows)
	overview, detail := body.CutTop(math.Round(over))
	drawIcicle(c, Rect{overview.X, overview.Y, overview.W, overview.H - pad}, v, small, th)
	drawPathRows(c, detail, v, small, th)
}

func drawTreeHead(c Canvas, r Rect, v *treeView, f Face, th *Theme) {
	lh := c.LineHeight(f)
	status := fmt.Sprintf("line %d of %d, depth %d: %s (%s) %s", v.lines, len(v.t.Lines), v.depth, v.mover, v.player, playerRole(v.mover))
	c.Text(Fit(c, status, f, r.W), r.X, r.Y, f, Left, th.TextDim)
	if v.lines == 0 {
		return
	}
	c.Text(Fit(c, v.t.Line(v.p, v.lines-1), f, r.W), r.X, r.Y+lh, f, Left, th.Text)
}

// playerRole says which way a side's search pulls Score1 - Score2.
func playerRole(s match.Side) string {
	if s == match.P1 {
		return "maximises"
	}
	return "minimises"
}

// drawIcicle draws the tree a row per depth, each node as wide as the
// leaves below it, labelled where there is room.
func drawIcicle(c Canvas, r Rect, v *treeView, f Face, th *Theme) {
	lh := c.LineHeight(f)
	rowH := r.H / float64(v.depth+1)
	var draw func(id int, x, w float64)
	draw = func(id int, x, w float64) {
		n := v.t.Nodes[id]
		if !v.visible(id) {
			return
		}
		box := Rect{x, r.Y + float64(n.Depth)*rowH, w, rowH - 1}
		bg, fg := v.fill(id, th)
		if w < 1.5 {
			// Too thin to split: one sliver down to the deepest row its
			// search has reached stands for the whole subtree.
			box.H = float64(v.reach(id)-n.Depth+1)*rowH - 1
			c.Fill(box, bg)
			return
		}
		c.Fill(Rect{box.X, box.Y, max(1, box.W-1), box.H}, bg)
		if box.W >= 6*f.Size && box.H >= lh+2 && !n.Pruned {
			label := v.label(id)
			if v.latest[id] >= 0 {
				label += " " + mapcolor.FormatValue(v.value(id))
			}
			c.Text(Fit(c, label, f, box.W-4), box.X+2, box.Y+2, f, Left, fg)
			if v.latest[id] >= 0 && box.W >= 11*f.Size && box.H > 2.2*lh {
				c.Text(Fit(c, v.alphaBeta(id), f, box.W-4), box.X+2, box.Y+2+lh, f, Left, Alpha(fg, 0.75))
			}
		}
		cx := x
		for _, ch := range n.Children {
			cw := w * v.weight[ch] / v.weight[id]
			draw(ch, cx, cw)
			cx += cw
		}
	}
	draw(0, r.X, r.W)
}

// drawPathRows draws, for each depth, the moves tried below the focus
// path's node there: a box per move with its value and alpha and beta,
// the gutter naming whether that choice maximises or minimises. Rows with
// more moves than fit show a window around the one in focus.
func drawPathRows(c Canvas, r Rect, v *treeView, f Face, th *Theme) {
	depth := v.depth
	if depth == 0 || len(v.path) == 0 {
		return
	}
	lh := c.LineHeight(f)
	gap := math.Round(lh * 0.5)
	rowH := math.Floor((r.H - gap*float64(depth-1)) / float64(depth))
	rowH = min(rowH, 2*lh+10+gap)
	boxH := rowH - gap
	textLines := max(1, min(2, int((boxH-4)/lh)))
	gutterW := c.TextWidth("MAX  ", f)
	boxW := max(c.TextWidth("WW W -inf", f), c.TextWidth("α -inf β inf", f)) + 6
	var above Point // the bottom of the focus box in the row above
	for d := 1; d <= depth && d <= len(v.path); d++ {
		parent := v.path[d-1]
		y := r.Y + float64(d-1)*(rowH+gap)
		maxes := (v.mover == match.P1) == (d%2 == 1)
		role := "MIN"
		if maxes {
			role = "MAX"
		}
		c.Text(role, r.X, y+2, f, Left, th.TextDim)
		var kids []int
		for _, ch := range v.t.Nodes[parent].Children {
			if v.visible(ch) {
				kids = append(kids, ch)
			}
		}
		focus := -1
		if d < len(v.path) {
			focus = v.path[d]
		}
		row := Rect{r.X + gutterW, y, r.W - gutterW, boxH}
		boxes := rowBoxes(kids, focus, row, boxW, c.TextWidth("+000", f), gap/2)
		if d > 1 && len(boxes) > 0 {
			centreUnder(boxes, above.X, row)
		}
		for _, b := range boxes {
			if b.id < 0 {
				if b.more == 0 {
					continue
				}
				c.Text(fmt.Sprintf("+%d", b.more), b.r.X+b.r.W/2, b.r.Y+(b.r.H-lh)/2, f, Center, th.TextDim)
				continue
			}
			if d > 1 {
				c.Line(above, Point{b.r.X + b.r.W/2, b.r.Y}, 1, th.Grid)
			}
			drawPathBox(c, b.r, b.id, v, f, textLines, th)
		}
		for _, b := range boxes {
			if b.id == focus && focus >= 0 {
				above = Point{b.r.X + b.r.W/2, b.r.Y + b.r.H}
			}
		}
	}
}

func drawPathBox(c Canvas, r Rect, id int, v *treeView, f Face, lines int, th *Theme) {
	lh := c.LineHeight(f)
	bg, fg := v.fill(id, th)
	c.Fill(r, bg)
	if v.onPath[id] && id != v.current {
		c.Stroke(r, 1, th.Accent)
	}
	x, y, w := r.X+3, r.Y+(r.H-float64(lines)*lh)/2, r.W-6
	first, second := v.label(id), ""
	switch {
	case v.t.Nodes[id].Pruned:
		second = "pruned"
	case v.latest[id] >= 0:
		first += " " + mapcolor.FormatValue(v.value(id))
		second = v.alphaBeta(id)
	}
	c.Text(Fit(c, first, f, w), x, y, f, Left, fg)
	if lines >= 2 {
		c.Text(Fit(c, second, f, w), x, y+lh, f, Left, Alpha(fg, 0.75))
	}
}

// centreUnder moves a row's boxes to centre them under x, within row.
func centreUnder(boxes []rowBox, x float64, row Rect) {
	last := boxes[len(boxes)-1].r
	w := last.X + last.W - boxes[0].r.X
	dx := max(row.X, min(x-w/2, row.X+row.W-w)) - boxes[0].r.X
	for i := range boxes {
		boxes[i].r.X += dx
	}
}

// rowBox is a box of a path row: a move, or (id -1) a count of the moves
// left out on that side.
type rowBox struct {
	r    Rect
	id   int
	more int
}

// rowBoxes lays out a row of moves: all of them when they fit, else a
// window around the focus (or the latest move) between counts of those
// left out, each count countW wide.
func rowBoxes(kids []int, focus int, row Rect, boxW, countW, gap float64) []rowBox {
	if len(kids) == 0 {
		return nil
	}
	lo, hi := 0, len(kids)
	room := row.W
	if n := float64(len(kids)); n*boxW+(n-1)*gap > row.W {
		room = row.W - 2*(countW+gap)
		n := max(1, int((room+gap)/(boxW+gap)))
		at := len(kids) - 1
		for i, k := range kids {
			if k == focus {
				at = i
			}
		}
		lo = max(0, min(at-n/2, len(kids)-n))
		hi = lo + n
	}
	w := min(boxW*1.5, (room+gap)/float64(hi-lo)-gap)
	x := row.X
	var out []rowBox
	add := func(id, more int, w float64) {
		out = append(out, rowBox{Rect{x, row.Y, w, row.H}, id, more})
		x += w + gap
	}
	if lo > 0 || hi < len(kids) {
		add(-1, lo, countW)
	}
	for _, k := range kids[lo:hi] {
		add(k, 0, w)
	}
	if lo > 0 || hi < len(kids) {
		add(-1, len(kids)-hi, countW)
	}
	return out
}

// treeWeights gives each node the width it takes: a leaf 1, a pruned
// move a third, an inner node its children's sum.
func treeWeights(t *mapcolor.Tree) []float64 {
	w := make([]float64, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		switch {
		case n.Pruned:
			w[i] = 1.0 / 3
		case len(n.Children) == 0:
			w[i] = 1
		default:
			for _, ch := range n.Children {
				w[i] += w[ch]
			}
		}
	}
	return w
}
