package mapcolor

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	_ "github.com/arena-playground/arena/players" // the cmd: kind, which runs the course programs
)

// The test binary doubles as a course program: with ARENA_CSP_PROGRAM set
// it reads input.txt and writes output.txt in its working directory, as a
// student's homework does, well or in one of the ways a program goes wrong.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ARENA_CSP_PROGRAM"); mode != "" {
		os.Exit(courseProgram(mode))
	}
	os.Exit(m.Run())
}

func courseProgram(mode string) int {
	data, err := os.ReadFile("input.txt")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := ParseProblem("input.txt", data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := Solve(p)
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):\nIndexError: list index out of range")
		return 3
	case "hang":
		time.Sleep(time.Minute)
	case "silent":
		return 0
	case "wrongtrace": // the second line changed, the best move kept
		lines := strings.Split(string(out), "\n")
		lines[1] += "0"
		out = []byte(strings.Join(lines, "\n"))
	case "coloured": // names a coloured state as its move
		last := p.Initial[len(p.Initial)-1]
		out = fmt.Appendf(out, "\n%s, %s, 0", p.States[last.State], p.Colours[last.Colour])
	case "garbage":
		out = []byte("I think NSW should be blue")
	case "background": // leaves a child behind that holds its stderr
		child := exec.Command("sleep", "987654")
		child.Stderr = os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "left child %d\n", child.Process.Pid)
	case "zero": // an endless output.txt: a link to a device
		if err := os.Symlink("/dev/zero", "output.txt"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile("output.txt", out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// courseSpec is the bot spec of the test binary as a course program.
// Its mode is set by its command: a program's environment is its box's.
func courseSpec(t *testing.T, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "cmd:env ARENA_CSP_PROGRAM=" + mode + " " + exe
}

// TestCourseProgramPlaysTheCourseSearch: a course program that writes the
// course's output plays, on either side, exactly the moves of the course
// bot (the course's search), and each of its moves' notes says its output
// matched. On P2's turns it is given the swapped input: this holds the swap.
func TestCourseProgramPlaysTheCourseSearch(t *testing.T) {
	program := courseSpec(t, "course")
	asCourse := func(s string) string {
		if s == program {
			return "course"
		}
		return s
	}
	for seed := range uint64(3) {
		cfg := &Config{Map: "voronoi", Regions: 12, Depth: 2}
		for _, pair := range [][2]string{{program, "greedy"}, {"random", program}} {
			got := playMatch(t, cfg, seed, pair[0], pair[1])
			want := playMatch(t, cfg, seed, asCourse(pair[0]), asCourse(pair[1]))
			if !slices.Equal(moves(got), moves(want)) {
				t.Fatalf("seed %d %v: the program played %v, strong %v", seed, pair, moves(got), moves(want))
			}
			side := match.P1
			if pair[1] == program {
				side = match.P2
			}
			for k, turn := range got.Turns {
				note := turn.Notes[side].Get()
				if got.State(k).(State).Mover() == side && (note == nil || !strings.Contains(note.Text, "is the course's") || note.Depth != 2) {
					t.Fatalf("seed %d move %d: note %+v", seed, k, note)
				}
			}
		}
	}
}

func moves(rec *play.Record) []Move {
	var out []Move
	for k, turn := range rec.Turns {
		out = append(out, turn.Actions[rec.State(k).(State).Mover()].(Move))
	}
	return out
}

// TestCourseProgramFailures: a program that crashes, hangs, writes
// nothing, writes garbage or names an illegal move loses the game with the
// reason; one whose trace differs still plays, and the note says where.
func TestCourseProgramFailures(t *testing.T) {
	defer func(d time.Duration) { programTimeout = d }(programTimeout)
	programTimeout = 2 * time.Second
	cases := []struct{ mode, want string }{
		{"crash", "the program failed: exit status 3; it wrote: IndexError: list index out of range"},
		{"hang", "the program did not finish within 2s"},
		{"silent", "the program wrote no output.txt"},
		{"garbage", `output.txt line 1: "I think NSW should be blue": want the best move, STATE, COLOUR, VALUE`},
		{"coloured", "NSW is already coloured"}, // greedy's first move, the root P2 is given
		{"zero", "its output.txt: a device, not a file"},
	}
	for _, c := range cases {
		var specs [2]play.Spec
		specs[0], _ = play.ParseSpec("greedy")
		specs[1], _ = play.ParseSpec(courseSpec(t, c.mode))
		rec, err := play.Play(t.Context(), play.Setup{Game: Game{}, Config: &Config{Map: "australia"}, Seed: 1, Players: specs})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Result == nil || rec.Result.Winner != match.P1 || !strings.Contains(rec.Result.String(), c.want) {
			t.Errorf("%s: %v, want P1 to win because %q", c.mode, rec.Result, c.want)
		}
	}
	rec := playMatch(t, &Config{Map: "australia"}, 1, courseSpec(t, "wrongtrace"), "greedy")
	note := rec.Turns[0].Notes[match.P1].Get()
	if note == nil || !strings.Contains(note.Text, "differs from the course's at line 2:") || note.Depth != 0 {
		t.Errorf("a wrong trace: note %+v", note)
	}
}

// A program that writes a correct output.txt and leaves a child running
// in the background (one that even holds its stderr) has made its move
// once it exits: the move counts, and the child ends with the program's
// process group.
func TestCourseProgramLeavesAChild(t *testing.T) {
	program := courseSpec(t, "background")
	got := playMatch(t, &Config{Map: "australia"}, 1, program, "greedy")
	want := playMatch(t, &Config{Map: "australia"}, 1, "course", "greedy")
	if len(got.Result.Forfeits) > 0 || !slices.Equal(moves(got), moves(want)) {
		t.Fatalf("the program's match: %v, %v; strong's %v", got.Result, moves(got), moves(want))
	}
	// SIGKILL to the group is delivered at once but a busy machine may
	// take a moment to schedule the child's exit: wait for it, within
	// reason.
	left := sleepers(t)
	for i := 0; len(left) > 0 && i < 300; i++ {
		time.Sleep(100 * time.Millisecond)
		left = sleepers(t)
	}
	for _, p := range left {
		t.Errorf("the child sleep 987654 (pid %d) is still running 30 s after its program ended", p)
	}
}

// sleepers lists the live processes running "sleep 987654": the children
// the course program above leaves behind.
func sleepers(t *testing.T) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal("no /proc to look for processes in:", err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if string(cmdline) == "sleep\x00987654\x00" && !strings.Contains(string(stat), ") Z ") {
			out = append(out, pid)
		}
	}
	return out
}

// TestCourseInputRoundTrip: the input written for a position reads back
// as that position, seen from the side to move: its colourings labelled
// 1, the other side's 2, its weights first, the last colouring last.
func TestCourseInputRoundTrip(t *testing.T) {
	rec := playMatch(t, &Config{Map: "usa"}, 4, "random", "random")
	for k, st := range rec.All() {
		if k == rec.Len()-1 {
			break
		}
		s := st.(State)
		side := s.Mover()
		p, err := ParseProblem("in.txt", s.CourseInput(side))
		if err != nil {
			t.Fatalf("state %d: %v\n%s", k, err, s.CourseInput(side))
		}
		if last := p.Initial[len(p.Initial)-1]; last.State != s.last || last.Colour != s.lastColour {
			t.Fatalf("state %d: the root is %v, want the last colouring", k, last)
		}
		for _, a := range p.Initial {
			c, owner := s.Colour(a.State)
			label := match.P2 // the program's Player 1 is the side to move
			if owner == side {
				label = match.P1
			}
			if c != a.Colour || a.Player != label {
				t.Fatalf("state %d: %s written %v, is %d by %v", k, p.States[a.State], a, c, owner)
			}
		}
		if len(p.Initial) != len(s.colouredStates()) || !slices.Equal(p.Weights[0], s.Problem().Weights[side]) || !slices.Equal(p.Weights[1], s.Problem().Weights[side.Other()]) {
			t.Fatalf("state %d: %d of %d coloured states written, weights %v", k, len(p.Initial), len(s.colouredStates()), p.Weights)
		}
	}
}
