package mapcolor

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strconv"

	"github.com/arena-playground/arena/engine/match"
)

// Inf stands for the trace's inf; no evaluation comes near it.
const Inf = 1 << 40

// position is a colouring in progress, changed in place by the search
// (play and undo). It keeps for each state how many coloured neighbours
// it has and how many of them have each colour, so that the frontier and
// the legal colours cost nothing to read.
type position struct {
	p       *Problem
	colour  []int8  // per state: its colour, -1 if none
	owner   []int8  // per state: who coloured it
	nbrs    []int16 // per state: coloured neighbours
	used    []int16 // per state and colour: neighbours with that colour
	score   int     // Score(P1) - Score(P2)
	ncolour int
	// front holds the frontier (uncoloured states with a coloured
	// neighbour) in no order, and at each state's place in it (-1: not
	// there): move generation then costs the frontier, not the map, which
	// on a map of 10,000 states is the difference between a move in
	// milliseconds and one in minutes.
	front  []int32
	at     []int32
	sorted []int32 // scratch: the frontier in the course's order
	left   int     // uncoloured states
}

// move is a state and a colour, as indices.
type move struct{ state, colour int }

func newPosition(p *Problem) *position {
	s, c := len(p.States), len(p.Colours)
	pos := &position{p: p, colour: make([]int8, s), owner: make([]int8, s), nbrs: make([]int16, s),
		used: make([]int16, s*c), ncolour: c, at: make([]int32, s), left: s}
	for i := range pos.colour {
		pos.colour[i], pos.owner[i], pos.at[i] = -1, -1, -1
	}
	return pos
}

func (pos *position) enter(s int) {
	if pos.at[s] < 0 {
		pos.at[s] = int32(len(pos.front))
		pos.front = append(pos.front, int32(s))
	}
}

func (pos *position) leave(s int) {
	i := pos.at[s]
	if i < 0 {
		return
	}
	last := pos.front[len(pos.front)-1]
	pos.front[i], pos.at[last] = last, i
	pos.front = pos.front[:len(pos.front)-1]
	pos.at[s] = -1
}

// play colours state m for side.
func (pos *position) play(m move, side match.Side) {
	pos.colour[m.state], pos.owner[m.state] = int8(m.colour), int8(side)
	w := pos.p.Weights[side][m.colour]
	if side == match.P1 {
		pos.score += w
	} else {
		pos.score -= w
	}
	pos.leave(m.state)
	pos.left--
	for _, nb := range pos.p.Adj[m.state] {
		pos.nbrs[nb]++
		pos.used[nb*pos.ncolour+m.colour]++
		if pos.colour[nb] < 0 {
			pos.enter(nb)
		}
	}
}

// undo takes back play(m, side).
func (pos *position) undo(m move, side match.Side) {
	for _, nb := range pos.p.Adj[m.state] {
		pos.nbrs[nb]--
		pos.used[nb*pos.ncolour+m.colour]--
		if pos.nbrs[nb] == 0 {
			pos.leave(nb)
		}
	}
	w := pos.p.Weights[side][m.colour]
	if side == match.P1 {
		pos.score -= w
	} else {
		pos.score += w
	}
	pos.colour[m.state], pos.owner[m.state] = -1, -1
	pos.left++
	if pos.nbrs[m.state] > 0 {
		pos.enter(m.state)
	}
}

// moves appends the legal moves in expansion order: states in ASCII
// order, then colours in ASCII order. A state can be coloured when one of
// its neighbours is, with any colour none of its coloured neighbours has
// (forward checking, nothing propagated further).
func (pos *position) moves(out []move) []move {
	out = out[:0]
	c := pos.ncolour
	pos.sorted = append(pos.sorted[:0], pos.front...)
	slices.Sort(pos.sorted)
	for _, s32 := range pos.sorted {
		s := int(s32)
		used := pos.used[s*c : (s+1)*c]
		for ci, n := range used {
			if n == 0 {
				out = append(out, move{s, ci})
			}
		}
	}
	return out
}

// Tree is a decision's search as the trace tells it, kept to be drawn:
// every node in visit order, the nodes a cut-off left unsearched, and each
// trace line with the node it belongs to.
type Tree struct {
	Nodes []TreeNode
	Lines []TreeLine
	Best  int // the chosen root child's node, -1 if none
	Value int
}

// TreeNode is a node of the search: the move that made it (the root: the
// last colouring), its depth, parent and children.
type TreeNode struct {
	State, Colour int
	Depth         int
	Parent        int // -1 for the root
	Children      []int
	First         int  // the line where it appears
	Pruned        bool // never searched: its parent was cut off first
}

// TreeLine is one trace line: its node's value, alpha and beta then.
type TreeLine struct {
	Node               int
	Value, Alpha, Beta int
}

// searcher is one depth-limited alpha-beta search, writing the course's
// trace when tracing and recording its tree when tree is set.
type searcher struct {
	pos      *position
	maxDepth int
	trace    []byte
	tracing  bool
	// out, when set, takes the trace as it is written instead of trace:
	// lines separated by newlines, none after the last (the course's
	// output.txt has no final newline), so that a trace of millions of
	// lines streams in constant memory.
	out     *bufio.Writer
	lines   int64
	nodes   int64
	spend   func(int64) bool // the bot's budget; nil: unbounded
	stopped bool
	buf     [][]move // per depth
	pv      [][]move // per depth: the best line found below
	tree    *Tree
	// root is the value of each root child searched, in order: what a
	// note marks (values past a cut-off are bounds, as the trace says).
	root []scoredMove
}

// scoredMove is a root move with its value as searched.
type scoredMove struct {
	m move
	v int
}

// newNode records a node of the tree; it returns -1 when not recording.
func (s *searcher) newNode(parent, st, col, depth int, pruned bool) int {
	if s.tree == nil {
		return -1
	}
	t := s.tree
	id := len(t.Nodes)
	t.Nodes = append(t.Nodes, TreeNode{State: st, Colour: col, Depth: depth, Parent: parent, First: len(t.Lines), Pruned: pruned})
	if parent >= 0 {
		t.Nodes[parent].Children = append(t.Nodes[parent].Children, id)
	}
	return id
}

// record notes a line of node id.
func (s *searcher) record(id, v, alpha, beta int) {
	if s.tree != nil {
		s.tree.Lines = append(s.tree.Lines, TreeLine{id, v, alpha, beta})
	}
}

// prune records the moves a cut-off left unsearched.
func (s *searcher) prune(parent, depth int, moves []move) {
	if s.tree == nil {
		return
	}
	for _, m := range moves {
		s.newNode(parent, m.state, m.colour, depth, true)
	}
}

func newSearcher(pos *position, depth int, tracing bool, spend func(int64) bool) *searcher {
	// Every move colours a state, so no line is longer than the map has
	// states: a deeper limit (an input may say 10^10) cuts nothing more
	// and must not size the buffers.
	depth = min(depth, len(pos.p.States))
	s := &searcher{pos: pos, maxDepth: depth, tracing: tracing, spend: spend}
	s.buf = make([][]move, depth+1)
	s.pv = make([][]move, depth+2)
	return s
}

// line appends a trace line: NAME, COLOUR, DEPTH, VALUE, ALPHA, BETA.
func (s *searcher) line(st, col, depth, v, alpha, beta int) {
	if !s.tracing {
		return
	}
	p := s.pos.p
	b := s.trace
	if s.out != nil {
		b = b[:0]
		if s.lines > 0 {
			b = append(b, '\n')
		}
	}
	b = append(b, p.States[st]...)
	b = append(b, ", "...)
	b = append(b, p.Colours[col]...)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(depth), 10)
	for _, x := range [3]int{v, alpha, beta} {
		b = append(b, ", "...)
		b = appendValue(b, x)
	}
	s.lines++
	if s.out != nil {
		s.out.Write(b)
		s.trace = b
		return
	}
	s.trace = append(b, '\n')
}

// FormatValue writes a value as the trace does: inf, -inf or the number.
func FormatValue(v int) string { return string(appendValue(nil, v)) }

// Line writes trace line i of the tree as the course's output has it.
func (t *Tree) Line(p *Problem, i int) string {
	l := t.Lines[i]
	n := t.Nodes[l.Node]
	b := append([]byte(p.States[n.State]), ", "...)
	b = append(b, p.Colours[n.Colour]...)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(n.Depth), 10)
	for _, x := range [3]int{l.Value, l.Alpha, l.Beta} {
		b = append(append(b, ", "...), FormatValue(x)...)
	}
	return string(b)
}

func appendValue(b []byte, v int) []byte {
	switch {
	case v >= Inf:
		return append(b, "inf"...)
	case v <= -Inf:
		return append(b, "-inf"...)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// node searches the position reached by the move (st, col) at depth,
// with side to move (P1 maximises); id is its tree node.
func (s *searcher) node(id, depth, alpha, beta int, side match.Side, st, col int) int {
	s.nodes++
	if s.spend != nil && !s.spend(1) {
		s.stopped = true
	}
	s.pv[depth] = s.pv[depth][:0]
	moves := s.pos.moves(s.buf[min(depth, s.maxDepth)])
	s.buf[min(depth, s.maxDepth)] = moves
	if depth == s.maxDepth || len(moves) == 0 {
		v := s.pos.score
		s.line(st, col, depth, v, alpha, beta)
		s.record(id, v, alpha, beta)
		return v
	}
	maximize := side == match.P1
	v := Inf
	if maximize {
		v = -Inf
	}
	s.line(st, col, depth, v, alpha, beta)
	s.record(id, v, alpha, beta)
	for i := 0; i < len(moves); i++ {
		m := moves[i]
		s.pos.play(m, side)
		child := s.node(s.newNode(id, m.state, m.colour, depth+1, false), depth+1, alpha, beta, side.Other(), m.state, m.colour)
		s.pos.undo(m, side)
		if s.stopped {
			return 0
		}
		if depth == 0 {
			s.root = append(s.root, scoredMove{m, child})
		}
		better := child > v
		if !maximize {
			better = child < v
		}
		if better {
			v = child
			s.pv[depth] = append(append(s.pv[depth][:0], m), s.pv[depth+1]...)
		}
		if maximize && v >= beta || !maximize && v <= alpha {
			s.line(st, col, depth, v, alpha, beta)
			s.record(id, v, alpha, beta)
			s.prune(id, depth+1, moves[i+1:])
			return v
		}
		if maximize {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		s.line(st, col, depth, v, alpha, beta)
		s.record(id, v, alpha, beta)
	}
	return v
}

// Result is the outcome of a decision's search.
type Result struct {
	Best    move // valid when HasMove
	HasMove bool
	Value   int
	Nodes   int64
	Line    []move       // the principal line, from the root's best move
	Root    []scoredMove // the root's children searched, with their values for P1
	Trace   []byte       // the course's trace lines, each ending in \\n
}

// search runs the alpha-beta search from pos with side to move. The
// root's line names the move (st, col) that made the position. The best
// move is the first root child whose value is strictly better than every
// earlier one's.
func search(pos *position, depth int, side match.Side, st, col int, tracing bool, spend func(int64) bool) (Result, bool) {
	return searchTree(pos, depth, side, st, col, tracing, spend, nil)
}

// searchTree is search, recording the tree when tree is set. The root is
// an ordinary node at depth 0 (alpha -inf and beta inf never cut it off);
// its best move heads the principal line.
func searchTree(pos *position, depth int, side match.Side, st, col int, tracing bool, spend func(int64) bool, tree *Tree) (Result, bool) {
	s := newSearcher(pos, depth, tracing, spend)
	s.tree = tree
	root := s.newNode(-1, st, col, 0, false)
	v := s.node(root, 0, -Inf, Inf, side, st, col)
	if s.stopped {
		return Result{}, false
	}
	res := Result{Value: v, Nodes: s.nodes, Trace: s.trace, Line: s.pv[0], Root: s.root}
	if len(res.Line) > 0 {
		res.Best, res.HasMove = res.Line[0], true
		if tree != nil {
			tree.Best = bestChild(tree, res.Best)
		}
	}
	if tree != nil {
		tree.Value = v
	}
	return res, true
}

// bestChild is the root's child node that made move m.
func bestChild(t *Tree, m move) int {
	for _, ch := range t.Nodes[0].Children {
		if n := t.Nodes[ch]; n.State == m.state && n.Colour == m.colour {
			return ch
		}
	}
	return -1
}

// Solve is the course's program: it searches the problem's first decision
// (Player 1, the maximiser, to move; the root named by the last initial
// entry) and returns output.txt: the trace and the best-move line, with no
// trailing newline. A root that is a leaf (depth 0, or no legal move) gets
// its one line and no best-move line.
func Solve(p *Problem) []byte {
	var b bytes.Buffer
	SolveTo(&b, p)
	return b.Bytes()
}

// SolveTo writes Solve's output.txt to w as the search goes, in constant
// memory however long the trace (a depth-7 trace runs to millions of
// lines); it returns w's first error.
func SolveTo(w io.Writer, p *Problem) error {
	pos := newPosition(p)
	for _, a := range p.Initial {
		pos.play(move{a.State, a.Colour}, a.Player)
	}
	last := p.Initial[len(p.Initial)-1]
	s := newSearcher(pos, p.Depth, true, nil)
	bw := bufio.NewWriterSize(w, 1<<16)
	s.out = bw
	v := s.node(-1, 0, -Inf, Inf, match.P1, last.State, last.Colour)
	if line := s.pv[0]; len(line) > 0 {
		b := append([]byte{'\n'}, p.States[line[0].state]...)
		b = append(b, ", "...)
		b = append(b, p.Colours[line[0].colour]...)
		b = append(b, ", "...)
		bw.Write(appendValue(b, v))
	}
	return bw.Flush()
}
