package mapcolor

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// programTimeout bounds one decision of a course program: the course set
// no time limit, but arena must never hang on a program.
var programTimeout = 60 * time.Second

// The course's homework is a program that reads input.txt and writes
// output.txt in its working directory: arena plays such a program
// ("cmd:python3 hw2.py", run by package players) by giving it the
// position as an input.txt each move and playing the best-move line of
// its output.txt. The course's program always decides for Player 1, the
// maximiser; for Player 2 the input swaps the players' labels and weight
// lines, which makes maximising there the same search as minimising here.
// Its whole output is compared with the course's: the note says whether
// the trace matches, or where it first differs. A program that fails,
// hangs, writes no output or an illegal move loses the game, with the
// reason.

// CourseFiles names the homework's files and bounds one run.
func (Game) CourseFiles() (input, output string, limit time.Duration) {
	return "input.txt", "output.txt", programTimeout
}

// CourseInput is the position as the course's input.txt, for the side to
// move.
func (Game) CourseInput(t *match.Turn) ([]byte, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	return s.CourseInput(t.Side), nil
}

// CourseMove plays the best-move line of the program's output.txt and
// notes whether its trace is the course's.
func (Game) CourseMove(t *match.Turn, input, out []byte) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	m, err := bestMove(out)
	if err != nil {
		return nil, err
	}
	p, err := ParseProblem("input.txt", input)
	if err != nil {
		return nil, fmt.Errorf("the position as input.txt: %v", err) // a bug: the input is made here
	}
	if err := compareOutput(out, Solve(p)); err != nil {
		t.Note.Text = "its output.txt differs from the course's at " + err.Error()
	} else {
		t.Note.Text = fmt.Sprintf("its output.txt is the course's, %d lines", bytes.Count(out, []byte("\n"))+1)
		t.Note.Depth = s.Depth() // the same search as the course's: its tree can be drawn
	}
	return m, nil
}

// bestMove reads the last line of an output.txt: "STATE, COLOUR, VALUE".
func bestMove(out []byte) (Move, error) {
	lines := strings.Split(strings.TrimRight(string(out), "\r\n"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	f := splitList(last)
	if len(f) != 3 {
		return Move{}, fmt.Errorf("output.txt line %d: %q: want the best move, STATE, COLOUR, VALUE", len(lines), last)
	}
	return Move{State: f[0], Colour: f[1]}, nil
}

// CourseInput writes the position as the course's input.txt for side to
// decide: every coloured state in the initial assignment, the last
// colouring last (it names the root of the search), the depth, the
// weights and the map. The course's program decides for Player 1, so for
// P2 the labels 1 and 2 and the two weight lines are swapped.
func (s State) CourseInput(side match.Side) []byte {
	p := s.w.p
	var b bytes.Buffer
	b.WriteString(strings.Join(p.Colours, ", ") + "\n")
	label := func(owner match.Side) int {
		if owner == side {
			return 1
		}
		return 2
	}
	var assign []string
	for _, i := range append(slices.DeleteFunc(s.colouredStates(), func(i int) bool { return i == s.last }), s.last) {
		assign = append(assign, fmt.Sprintf("%s: %s-%d", p.States[i], p.Colours[s.colour[i]], label(match.Side(s.owner[i]))))
	}
	b.WriteString(strings.Join(assign, ", ") + "\n")
	fmt.Fprintf(&b, "%d\n", s.w.depth)
	for _, who := range []match.Side{side, side.Other()} {
		var ws []string
		for c, name := range p.Colours {
			ws = append(ws, fmt.Sprintf("%s: %d", name, p.Weights[who][c]))
		}
		b.WriteString(strings.Join(ws, ", ") + "\n")
	}
	for i, name := range p.States {
		var nbrs []string
		for _, j := range p.Adj[i] {
			nbrs = append(nbrs, p.States[j])
		}
		fmt.Fprintf(&b, "%s: %s\n", name, strings.Join(nbrs, ", "))
	}
	return b.Bytes()
}

// colouredStates lists the coloured states in the order of the map.
func (s State) colouredStates() []int {
	var out []int
	for i, c := range s.colour {
		if c >= 0 {
			out = append(out, i)
		}
	}
	return out
}
