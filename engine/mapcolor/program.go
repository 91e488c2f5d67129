package mapcolor

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/cleanup"
)

// programTimeout bounds one decision of a course program: the course set
// no time limit, but arena must never hang on a program.
var programTimeout = 60 * time.Second

// CommandBot makes a course program a player ("cmd:python3 hw2.py"): the
// program a student wrote for the homework, which reads input.txt and
// writes output.txt in its working directory. Each move it gets the
// position as an input.txt in a fresh directory and the best-move line of
// its output.txt is played. The course's program always decides for
// Player 1, the maximiser; for Player 2 the input swaps the players' labels
// and weight lines, which makes maximising there the same search as
// minimising here. Its whole output is compared with the course's: the
// note says whether the trace matches, or where it first differs. A
// program that fails, hangs, writes no output or an illegal move loses the
// game, with the reason.
func (Game) CommandBot(command string) (match.Bot, error) {
	if strings.TrimSpace(command) == "" {
		return nil, fmt.Errorf("cmd: give the program to run, as in cmd:python3 hw2.py")
	}
	return &programBot{command: command}, nil
}

type programBot struct{ command string }

func (b *programBot) Act(t *match.Turn) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "arena-csp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	defer cleanup.Add(func() { os.RemoveAll(dir) })()
	input := s.CourseInput(t.Side)
	if err := os.WriteFile(filepath.Join(dir, "input.txt"), input, 0o644); err != nil {
		return nil, err
	}
	if err := match.RunOnce(t.Context(), b.command, dir, programTimeout); err != nil {
		return nil, err
	}
	out, err := match.ReadFile(filepath.Join(dir, "output.txt"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("the program wrote no output.txt")
	case err != nil: // a named pipe, a link to a device, a file too large
		return nil, fmt.Errorf("its %s", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
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
