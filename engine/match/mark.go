package match

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxMarks is how many marks a note keeps for one move; a bot's further
// marks are counted in [Note.MarksLeft], not kept, so that a replay grows
// by a bounded amount a move whatever a bot marks. Bots mark what matters
// most first.
const MaxMarks = 64

// MaxExpect is how many places of a bot's expected line a note keeps.
const MaxExpect = 16

// MaxMarkLabel is the longest label a mark keeps, in characters: a label
// is written on the board, beside a cell.
const MaxMarkLabel = 8

// Mark is one thing a bot weighed for its move, placed on the board where
// a person looks for it: a candidate and its value, or a threat it
// feared. Value is on the bot's own scale, higher meaning better for the
// bot that marks (a threat it fears is marked low); the board draws the
// values of one note from the lowest to the highest.
type Mark struct {
	At    Place   `json:"at"`
	Value float64 `json:"v"`
	Label string  `json:"label,omitzero"` // a few characters written beside the value: a wall's side, a colour
}

// PlaceKind says what on a board a [Place] names.
type PlaceKind uint8

// The kinds of place a mark can name. Cells are named by row and column
// from the top left, whatever the game calls them (Evasion's y and x);
// nodes, edges' ends and states by their index in the game's own lists.
const (
	OnCell  PlaceKind = iota + 1 // a cell: Life, Colosseum, Evasion
	OnMove                       // a cell and a direction from it: Colosseum's walk and its wall, Evasion's wall or step
	OnNode                       // a node of a graph: the shortest path
	OnEdge                       // an edge between two nodes: the shortest path
	OnState                      // a state of a map: map colouring
)

var placeWords = [...]string{OnCell: "cell", OnMove: "move", OnNode: "node", OnEdge: "edge", OnState: "state"}

// Place names a place on a board; which of its numbers count depends on
// its Kind. A replay writes it as words: "cell 3 4", "move 3 4 1",
// "node 7", "edge 7 9", "state 2".
type Place struct {
	Kind PlaceKind
	// A and B are a cell's row and column, a move's cell, a node's or a
	// state's index (A), an edge's two nodes.
	A, B int
	// Side is a move's direction, as the game reads it: Colosseum's wall
	// side (0 up, 1 right, 2 down, 3 left); Evasion's wall through the
	// hunter's cell (0 horizontal, 1 vertical, 2 diagonal, 3
	// counterdiagonal) or the prey's step (3*(dy+1) + dx+1, 0 to 8).
	Side int
}

// AtCell names the cell at row, col.
func AtCell(row, col int) Place { return Place{Kind: OnCell, A: row, B: col} }

// AtMove names a move from or to the cell at row, col in direction side
// (see [Place.Side]).
func AtMove(row, col, side int) Place { return Place{Kind: OnMove, A: row, B: col, Side: side} }

// AtNode names node n.
func AtNode(n int) Place { return Place{Kind: OnNode, A: n} }

// AtEdge names the edge between nodes a and b.
func AtEdge(a, b int) Place { return Place{Kind: OnEdge, A: a, B: b} }

// AtState names state i of a map.
func AtState(i int) Place { return Place{Kind: OnState, A: i} }

// String writes p as a replay does.
func (p Place) String() string {
	switch p.Kind {
	case OnCell, OnEdge:
		return fmt.Sprintf("%s %d %d", placeWords[p.Kind], p.A, p.B)
	case OnMove:
		return fmt.Sprintf("move %d %d %d", p.A, p.B, p.Side)
	case OnNode, OnState:
		return fmt.Sprintf("%s %d", placeWords[p.Kind], p.A)
	}
	return "nowhere"
}

// MarshalText writes p as words.
func (p Place) MarshalText() ([]byte, error) {
	if !p.valid() {
		return nil, fmt.Errorf("mark: place of no kind (%d)", p.Kind)
	}
	return []byte(p.String()), nil
}

// placeNumbers is how many numbers each kind of place is written with.
var placeNumbers = [...]int{OnCell: 2, OnMove: 3, OnNode: 1, OnEdge: 2, OnState: 1}

// UnmarshalText reads a place written by MarshalText. A page following a
// match reads every mark's place of every turn, so the form MarshalText
// writes is read without allocating (placeWritten); any other spacing is
// read by fields.
func (p *Place) UnmarshalText(b []byte) error {
	if q, ok := placeWritten(b); ok {
		*p = q
		return nil
	}
	f := strings.Fields(string(b))
	kind := PlaceKind(0)
	if len(f) > 0 {
		kind = placeKindOf(f[0])
	}
	if kind == 0 {
		return fmt.Errorf("mark: place %q: want cell R C, move R C SIDE, node N, edge N M or state N", b)
	}
	if len(f)-1 != placeNumbers[kind] {
		return fmt.Errorf("mark: place %q: %s takes %d numbers", b, f[0], placeNumbers[kind])
	}
	var n [3]int
	for i, s := range f[1:] {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > maxPlaceNumber {
			return fmt.Errorf("mark: place %q: %q is not a count from 0", b, s)
		}
		n[i] = v
	}
	q, ok := placeOf(kind, n)
	if !ok {
		return fmt.Errorf("mark: place %q: a side is 0 to 8", b)
	}
	*p = q
	return nil
}

// maxPlaceNumber bounds a place's numbers.
const maxPlaceNumber = 1 << 20

// placeKindOf is the kind a place's first word names, 0 for none.
func placeKindOf(word string) PlaceKind {
	for k, w := range placeWords {
		if k > 0 && w == word {
			return PlaceKind(k)
		}
	}
	return 0
}

// placeOf is the place of kind with numbers n; ok is false for a move's
// side past 8.
func placeOf(kind PlaceKind, n [3]int) (q Place, ok bool) {
	switch kind {
	case OnCell:
		return AtCell(n[0], n[1]), true
	case OnMove:
		return AtMove(n[0], n[1], n[2]), n[2] <= 8
	case OnNode:
		return AtNode(n[0]), true
	case OnEdge:
		return AtEdge(n[0], n[1]), true
	case OnState:
		return AtState(n[0]), true
	}
	return Place{}, false
}

// placeWritten reads b when it is a valid place exactly as MarshalText
// writes it: the kind's word and its numbers, each after one space, in
// digits. ok is false for anything else, valid or not.
func placeWritten(b []byte) (Place, bool) {
	sp := 0
	for sp < len(b) && b[sp] != ' ' {
		sp++
	}
	kind := placeKindOf(string(b[:sp])) // compared without allocating
	if kind == 0 {
		return Place{}, false
	}
	var n [3]int
	rest := b[sp:]
	for i := range placeNumbers[kind] {
		if len(rest) < 2 || rest[0] != ' ' {
			return Place{}, false
		}
		k, v := 1, 0
		for ; k < len(rest) && '0' <= rest[k] && rest[k] <= '9'; k++ {
			if v = v*10 + int(rest[k]-'0'); v > maxPlaceNumber {
				return Place{}, false
			}
		}
		if k == 1 {
			return Place{}, false
		}
		n[i], rest = v, rest[k:]
	}
	if len(rest) > 0 {
		return Place{}, false
	}
	return placeOf(kind, n)
}

// Mark adds a mark to the note: at, with the value v on the bot's own
// scale and an optional label. Past [MaxMarks] marks are counted, not
// kept; a value that is not a finite number is kept as the note's bound
// (±1e9) so that a replay stays valid JSON.
func (n *Note) Mark(at Place, v float64, label string) {
	if !at.valid() {
		return
	}
	if len(n.Marks) >= MaxMarks {
		n.MarksLeft++
		return
	}
	if r := []rune(label); len(r) > MaxMarkLabel {
		label = string(r[:MaxMarkLabel])
	}
	n.Marks = append(n.Marks, Mark{At: at, Value: finite(v), Label: label})
}

// Expect adds the next place of the line the bot expects: its own move
// first, then the reply it expects, and so on. Past [MaxExpect] places
// are dropped.
func (n *Note) Expect(at Place) {
	if at.valid() && len(n.Expects) < MaxExpect {
		n.Expects = append(n.Expects, at)
	}
}

// finite bounds v to a value JSON can carry.
func finite(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v > 1e9:
		return 1e9
	case v < -1e9:
		return -1e9
	}
	return v
}

// valid reports whether p names a kind of place.
func (p Place) valid() bool { return p.Kind >= OnCell && p.Kind <= OnState }

// The bounds of a note's words: whatever a bot or a program writes, one
// move's note holds at most these, with what was cut said in its place,
// so that no entrant can grow arena's memory or its replays without
// bound (a go: bot writing 900 KB of text every move did).
const (
	MaxNoteText  = 1024 // bytes of Text
	MaxNoteLine  = 64   // moves of Line, each at most MaxNoteWord bytes
	MaxNoteWord  = 64
	MaxSaidLines = 64  // lines of Said, each at most MaxSaidLine bytes
	MaxSaidLine  = 512 // (a program's own said buffer is smaller: players)
)

// Bound trims what a bot set directly (not through Mark) to the limits,
// and drops marks and places of no kind (a page's bot's JSON can hold
// them), which a replay could not write.
func (n *Note) Bound() {
	n.Text = clipText(n.Text, MaxNoteText)
	if len(n.Line) > MaxNoteLine {
		n.Line = n.Line[:MaxNoteLine:MaxNoteLine]
	}
	for i, w := range n.Line {
		n.Line[i] = clipText(w, MaxNoteWord)
	}
	if len(n.Said) > MaxSaidLines {
		cut := len(n.Said) - MaxSaidLines + 1
		n.Said = append(n.Said[:MaxSaidLines-1:MaxSaidLines-1], fmt.Sprintf("… %d more lines not kept", cut))
	}
	for i, l := range n.Said {
		n.Said[i] = clipText(l, MaxSaidLine)
	}
	n.Marks = slices.DeleteFunc(n.Marks, func(m Mark) bool { return !m.At.valid() })
	n.Expects = slices.DeleteFunc(n.Expects, func(p Place) bool { return !p.valid() })
	if len(n.Marks) > MaxMarks {
		n.MarksLeft += len(n.Marks) - MaxMarks
		n.Marks = n.Marks[:MaxMarks:MaxMarks]
	}
	for i := range n.Marks {
		m := &n.Marks[i]
		m.Value = finite(m.Value)
		if r := []rune(m.Label); len(r) > MaxMarkLabel {
			m.Label = string(r[:MaxMarkLabel])
		}
	}
	if len(n.Expects) > MaxExpect {
		n.Expects = n.Expects[:MaxExpect:MaxExpect]
	}
}

// clipText cuts s to at most max bytes, at a character's boundary, and
// says how much was cut.
func clipText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	tail := fmt.Sprintf("… (%d bytes cut)", len(s)-limit)
	cut := max(limit-len(tail), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + tail
}

// Size is about how many bytes the note takes in a replay.
func (n *Note) Size() int {
	b := 64 + len(n.Text) + 48*len(n.Marks) + 24*len(n.Expects)
	for _, w := range n.Line {
		b += len(w) + 4
	}
	for _, l := range n.Said {
		b += len(l) + 4
	}
	return b
}

// Thought reports whether the note has marks or an expected line to draw.
func (n *Note) Thought() bool { return n != nil && (len(n.Marks) > 0 || len(n.Expects) > 0) }
