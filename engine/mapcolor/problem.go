package mapcolor

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Problem is a course input file (input.txt): the colours, the initial
// assignment, the search depth, both players' weights and the map. States
// and colours are kept in ASCII order, the order moves are expanded in.
type Problem struct {
	Colours []string // ASCII order
	States  []string // ASCII order
	// Adj lists each state's neighbours (indices into States), made
	// symmetric and sorted.
	Adj     [][]int
	Initial []Assign // as given, in input order
	Depth   int
	// Weights[p][c] is what colour c is worth to player p+1.
	Weights [2][]int
}

// Assign is a state coloured by a player.
type Assign struct {
	State, Colour int
	Player        match.Side
}

// Limits on a course input, so that no file can size an allocation or
// overflow a score: the course's own inputs have at most a few dozen
// states and weights up to 30. With these, a score's magnitude stays
// below MaxStates*MaxWeight = 10^10, far from Inf.
const (
	MaxStates = 10000
	MaxWeight = 1000000
)

// isName reports whether s is a state name: letters and digits.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isColour reports whether s is a colour name: letters only.
func isColour(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// ParseProblem reads the course's input format:
//
//	R, G, B                      colours
//	WA: R-1, SA: G-2             initial assignment: state: colour-player
//	3                            maximum depth
//	R: 10, G: 5, B: 0            Player 1's weights
//	R: 0, G: 2, B: 8             Player 2's weights
//	SA: WA, NT, Q, NSW, V        one adjacency line per state
//
// Whitespace around items is forgiven. Errors give the file, the line and
// what was expected; nothing is guessed.
func ParseProblem(file string, data []byte) (*Problem, error) {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), " \t\r"))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	fail := func(n int, format string, args ...any) error {
		return &fileerr.FileError{File: file, Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	if len(lines) < 6 {
		return nil, fail(len(lines)+1, "want colours, the initial assignment, the depth, two weight lines and the map's adjacency lines; the file has %d lines", len(lines))
	}
	p := &Problem{}
	// Line 1: colours.
	colours := splitList(lines[0])
	for _, c := range colours {
		if !isColour(c) {
			return nil, fail(1, "colour %q: want a name of letters, such as R or Green", c)
		}
		if slices.Contains(p.Colours, c) {
			return nil, fail(1, "colour %s is listed twice", c)
		}
		p.Colours = append(p.Colours, c)
	}
	if len(p.Colours) == 0 {
		return nil, fail(1, "want the colours, as R, G, B")
	}
	if len(p.Colours) > 64 {
		return nil, fail(1, "%d colours: at most 64", len(p.Colours))
	}
	slices.Sort(p.Colours)
	// Lines 6...: the map, read first so that line 2 can name its states.
	type adjLine struct {
		state string
		nbrs  []string
		line  int
	}
	var adj []adjLine
	firstLine := map[string]int{} // state -> the line of its adjacency list
	for i := 5; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		name, rest, ok := strings.Cut(lines[i], ":")
		name = strings.TrimSpace(name)
		if !ok || !isName(name) {
			return nil, fail(i+1, "want an adjacency line, STATE: NEIGHBOUR, NEIGHBOUR, ...")
		}
		nbrs := splitList(rest)
		for _, n := range nbrs {
			if !isName(n) {
				return nil, fail(i+1, "neighbour %q of %s: want a state name of letters and digits", n, name)
			}
			if n == name {
				return nil, fail(i+1, "state %s is listed as its own neighbour", n)
			}
		}
		if first, seen := firstLine[name]; seen {
			return nil, fail(i+1, "state %s has a second adjacency line (the first is line %d)", name, first)
		}
		firstLine[name] = i + 1
		adj = append(adj, adjLine{name, nbrs, i + 1})
	}
	index := map[string]int{}
	for _, a := range adj {
		index[a.state] = 0
		for _, n := range a.nbrs {
			index[n] = 0 // named only as a neighbour
		}
	}
	if len(index) > MaxStates {
		return nil, fail(6, "the map has %d states: at most %d", len(index), MaxStates)
	}
	for s := range index {
		p.States = append(p.States, s)
	}
	slices.Sort(p.States)
	for i, s := range p.States {
		index[s] = i
	}
	// Every edge both ways (uneven lists are made symmetric), then each
	// list sorted with its repeats dropped: linear in the file's size
	// but for the sort.
	p.Adj = make([][]int, len(p.States))
	for _, a := range adj {
		from := index[a.state]
		for _, n := range a.nbrs {
			to := index[n]
			p.Adj[from] = append(p.Adj[from], to)
			p.Adj[to] = append(p.Adj[to], from)
		}
	}
	for i := range p.Adj {
		slices.Sort(p.Adj[i])
		p.Adj[i] = slices.Clip(slices.Compact(p.Adj[i]))
	}
	// Line 3: depth.
	d, err := strconv.Atoi(strings.TrimSpace(lines[2]))
	if err != nil || d < 0 {
		return nil, fail(3, "depth %q: want a whole number from 0", strings.TrimSpace(lines[2]))
	}
	p.Depth = d
	// Lines 4 and 5: weights.
	for pl := range 2 {
		n := 4 + pl
		p.Weights[pl] = make([]int, len(p.Colours))
		seen := make([]bool, len(p.Colours))
		for _, item := range splitList(lines[n-1]) {
			c, w, ok := strings.Cut(item, ":")
			c, w = strings.TrimSpace(c), strings.TrimSpace(w)
			ci := slices.Index(p.Colours, c)
			if !ok || ci < 0 {
				return nil, fail(n, "weight %q: want COLOUR: WEIGHT with one of the colours %s", item, strings.Join(p.Colours, ", "))
			}
			v, err := strconv.Atoi(w)
			if err != nil || v < -MaxWeight || v > MaxWeight {
				return nil, fail(n, "weight of %s is %q: want a whole number from %d to %d", c, w, -MaxWeight, MaxWeight)
			}
			p.Weights[pl][ci], seen[ci] = v, true
		}
		for ci, ok := range seen {
			if !ok {
				return nil, fail(n, "Player %d's weights give no weight for colour %s", pl+1, p.Colours[ci])
			}
		}
	}
	// Line 2: the initial assignment.
	colour := make([]int, len(p.States))
	for i := range colour {
		colour[i] = -1
	}
	for _, item := range splitList(lines[1]) {
		s, rest, ok := strings.Cut(item, ":")
		s, rest = strings.TrimSpace(s), strings.TrimSpace(rest)
		c, pl, ok2 := strings.Cut(rest, "-")
		if !ok || !ok2 {
			return nil, fail(2, "%q: want STATE: COLOUR-PLAYER, as WA: R-1", item)
		}
		si, known := index[s]
		if !known {
			return nil, fail(2, "state %s is not on the map", s)
		}
		ci := slices.Index(p.Colours, strings.TrimSpace(c))
		if ci < 0 {
			return nil, fail(2, "colour %q of %s is not one of %s", c, s, strings.Join(p.Colours, ", "))
		}
		player := strings.TrimSpace(pl)
		if player != "1" && player != "2" {
			return nil, fail(2, "player %q of %s: want 1 or 2", player, s)
		}
		if colour[si] >= 0 {
			return nil, fail(2, "state %s is coloured twice", s)
		}
		for _, nb := range p.Adj[si] {
			if colour[nb] == ci {
				return nil, fail(2, "%s and its neighbour %s are both %s", s, p.States[nb], p.Colours[ci])
			}
		}
		colour[si] = ci
		p.Initial = append(p.Initial, Assign{State: si, Colour: ci, Player: match.Side(player[0] - '1')})
	}
	if len(p.Initial) == 0 {
		return nil, fail(2, "want an initial assignment, as WA: R-1, SA: G-2: with nothing coloured no state can be played")
	}
	return p, nil
}

// splitList splits "a, b, c" into trimmed items, dropping empty ones.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
