package mapcolor

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

var update = flag.Bool("update", false, "rewrite the golden random map in testdata")

// playMatch plays a whole game between two bot specs.
func playMatch(t *testing.T, cfg match.Config, seed uint64, p1, p2 string) *play.Record {
	t.Helper()
	var specs [2]play.Spec
	for i, p := range []string{p1, p2} {
		var err error
		if specs[i], err = play.ParseSpec(p); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: cfg, Seed: seed, Players: specs})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == nil || len(rec.Result.Forfeits) > 0 {
		t.Fatalf("seed %d %s vs %s: %v", seed, p1, p2, rec.Result)
	}
	return rec
}

// courseInput is a config of a course input file of the testdata.
func courseInput(t *testing.T, name string) *Config {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestRandomPlayouts plays whole games on every kind of map and checks
// each state: the move list is exactly what Check accepts over every
// state and colour, each move adds its weight to its mover's score, the
// game ends exactly when nothing can be coloured, the outcome follows the
// scores, and the replay rebuilds the game.
func TestRandomPlayouts(t *testing.T) {
	configs := []*Config{{Map: "australia"}, {Map: "usa"}, {Map: "voronoi", Regions: 24},
		{Map: "voronoi", Regions: 9, Depth: 2}, courseInput(t, "testdata/case1100.txt")}
	pairs := [][2]string{{"random", "random"}, {"greedy", "random"}, {"course:depth=2", "greedy"}, {"random", "strong:depth=1"}, {"strong:nodes=5000", "course"}}
	for i, cfg := range configs {
		for seed := range uint64(4) {
			pair := pairs[(i+int(seed))%len(pairs)]
			rec := playMatch(t, cfg, seed, pair[0], pair[1])
			for k, st := range rec.All() {
				s := st.(State)
				checkMoves(t, s)
				if k == len(rec.Turns) {
					break
				}
				m := rec.Turns[k].Actions[s.Mover()].(Move)
				next := rec.State(k + 1).(State)
				stIdx, c, _ := s.index(m)
				want := s.Score()
				want[s.Mover()] += s.Problem().Weights[s.Mover()][c]
				if next.Score() != want || next.Turn() != s.Turn()+1 {
					t.Fatalf("%s seed %d move %v: scores %v turn %d, want %v turn %d", cfg.Map, seed, m, next.Score(), next.Turn(), want, s.Turn()+1)
				}
				if got, owner := next.Colour(stIdx); got != c || owner != s.Mover() {
					t.Fatalf("%s seed %d move %v: state coloured %d by %v", cfg.Map, seed, m, got, owner)
				}
			}
			last := rec.Last().(State)
			if len(last.Moves()) != 0 || last.ToMove() != match.Nobody {
				t.Fatalf("%s seed %d: the game ended with moves left", cfg.Map, seed)
			}
			o := last.Outcome()
			sc := last.Score()
			if (sc[0] > sc[1]) != (o.Winner == match.P1) || (sc[1] > sc[0]) != (o.Winner == match.P2) {
				t.Fatalf("%s seed %d: scores %v, winner %v", cfg.Map, seed, sc, o.Winner)
			}
			checkReplay(t, rec)
		}
	}
}

// checkMoves compares the move list with Check over every state and
// colour: Moves and Check are written apart (one the search's frontier,
// the other the rule as the handout states it).
func checkMoves(t *testing.T, s State) {
	t.Helper()
	p := s.Problem()
	moves := s.Moves()
	for _, name := range p.States {
		for _, col := range p.Colours {
			m := Move{name, col}
			if ok := s.Check(s.Mover(), m) == nil; ok != slices.Contains(moves, m) {
				t.Fatalf("move %v: Check accepts %v, Moves lists %v", m, ok, !ok)
			}
		}
	}
	if !slices.IsSortedFunc(moves, func(a, b Move) int {
		return strings.Compare(a.State+"\x00"+a.Colour, b.State+"\x00"+b.Colour)
	}) {
		t.Fatalf("moves %v are not in ASCII order of state then colour", moves)
	}
	if s.Check(s.Mover(), Move{"Atlantis", p.Colours[0]}) == nil || s.Check(s.Mover(), Move{p.States[0], "Octarine"}) == nil {
		t.Fatal("Check accepts a state or colour not in the input")
	}
}

func checkReplay(t *testing.T, rec *play.Record) {
	t.Helper()
	var buf bytes.Buffer
	if err := play.SaveReplay(&buf, rec); err != nil {
		t.Fatal(err)
	}
	back, err := play.LoadReplay("r.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, want := back.Last().(State), rec.Last().(State)
	if got.Score() != want.Score() || !slices.Equal(got.colour, want.colour) || !slices.Equal(got.owner, want.owner) {
		t.Fatalf("the replay ends at %v, want %v", got.Score(), want.Score())
	}
}

// TestDecisionIsTheCourseTrace: the tree the playground draws for a
// decision has the course's trace, line for line, and its chosen move is
// the course's best move, for the Australia example and every generated
// case.
func TestDecisionIsTheCourseTrace(t *testing.T) {
	files := []string{"testdata/t5.txt"}
	more, _ := filepath.Glob("testdata/case*.txt")
	for _, name := range append(files, more...) {
		cfg := courseInput(t, name)
		st, err := Game{}.Start(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(State)
		tree := Decision(s, s.Depth())
		want := strings.Split(string(Solve(s.Problem())), "\n")
		got := treeTrace(s.Problem(), tree)
		if tree.Best >= 0 {
			n := tree.Nodes[tree.Best]
			got = append(got, fmt.Sprintf("%s, %s, %s", s.Problem().States[n.State], s.Problem().Colours[n.Colour], FormatValue(tree.Value)))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the tree's %d lines differ from the course's %d: %s", name, len(got), len(want), firstDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
		}
		checkTreeShape(t, name, tree)
	}
}

// treeTrace writes a tree's lines as the course's trace does.
func treeTrace(p *Problem, t *Tree) []string {
	var out []string
	for i := range t.Lines {
		out = append(out, t.Line(p, i))
	}
	return out
}

// checkTreeShape: children are one deeper than their parent and appear
// after it; a pruned move has no lines and no children; a searched node's
// lines start at its First.
func checkTreeShape(t *testing.T, name string, tree *Tree) {
	t.Helper()
	first := make([]int, len(tree.Nodes))
	for i := range first {
		first[i] = -1
	}
	for i, l := range tree.Lines {
		if first[l.Node] < 0 {
			first[l.Node] = i
		}
	}
	for id, n := range tree.Nodes {
		for _, ch := range n.Children {
			c := tree.Nodes[ch]
			if c.Parent != id || c.Depth != n.Depth+1 || c.First < n.First {
				t.Fatalf("%s: node %d below %d: parent %d depth %d first %d", name, ch, id, c.Parent, c.Depth, c.First)
			}
		}
		switch {
		case n.Pruned && (first[id] >= 0 || len(n.Children) > 0):
			t.Fatalf("%s: pruned node %d has lines or children", name, id)
		case !n.Pruned && first[id] != n.First:
			t.Fatalf("%s: node %d first appears on line %d, recorded %d", name, id, first[id], n.First)
		}
	}
}

// TestCoursePlaysTheCourseMove: from a course input's position the course
// bot plays the course's best move, and its note carries the depth.
func TestCoursePlaysTheCourseMove(t *testing.T) {
	for _, name := range []string{"testdata/t5.txt", "testdata/case1000.txt", "testdata/case1151.txt"} {
		cfg := courseInput(t, name)
		st, _ := Game{}.Start(cfg, 1)
		s := st.(State)
		out := string(Solve(s.Problem()))
		best := out[strings.LastIndexByte(out, '\n')+1:]
		if s.ToMove() == match.Nobody {
			continue
		}
		bot, err := newCourse(match.Options{})
		if err != nil {
			t.Fatal(err)
		}
		turn := match.NewTurn(s, match.P1, nil, match.Budget{})
		a, err := bot.Act(turn)
		if err != nil {
			t.Fatal(err)
		}
		if m := a.(Move); !strings.HasPrefix(best, m.State+", "+m.Colour+", ") {
			t.Errorf("%s: course plays %v, the course's best move is %q", name, m, best)
		}
	}
}

// TestVoronoiMaps: random maps tile the unit square with convex cells,
// each around its site, and neighbours are mutual.
func TestVoronoiMaps(t *testing.T) {
	for _, n := range []int{4, 9, 24, 60, 120} {
		for seed := range uint64(3) {
			cells, adj, sites := randomRegions(n, seed)
			area := 0.0
			for i, cell := range cells {
				a := polygonArea(cell)
				if a <= 0 {
					t.Fatalf("%d regions seed %d: cell %d has area %v", n, seed, i, a)
				}
				area += a
				if !convexContains(cell, sites[i]) {
					t.Fatalf("%d regions seed %d: site %d outside its cell", n, seed, i)
				}
				if len(adj[i]) == 0 {
					t.Fatalf("%d regions seed %d: region %d has no neighbour", n, seed, i)
				}
				for _, j := range adj[i] {
					if j == i || !slices.Contains(adj[j], i) {
						t.Fatalf("%d regions seed %d: %d lists %d, not mutual", n, seed, i, j)
					}
				}
			}
			if math.Abs(area-1) > 1e-9 {
				t.Fatalf("%d regions seed %d: cells cover %v of the square", n, seed, area)
			}
		}
	}
}

func polygonArea(poly []Point) float64 {
	a := 0.0
	for k, p := range poly {
		q := poly[(k+1)%len(poly)]
		a += p.X*q.Y - q.X*p.Y
	}
	return math.Abs(a) / 2
}

func convexContains(poly []Point, x Point) bool {
	sign := 0.0
	for k, p := range poly {
		q := poly[(k+1)%len(poly)]
		c := (q.X-p.X)*(x.Y-p.Y) - (q.Y-p.Y)*(x.X-p.X)
		if c != 0 && sign != 0 && (c > 0) != (sign > 0) {
			return false
		}
		if c != 0 {
			sign = c
		}
	}
	return true
}

// TestVoronoiGolden pins the random map of a seed, as a course input: the
// same seed must make the same map on every machine and in the browser.
func TestVoronoiGolden(t *testing.T) {
	const golden = "testdata/voronoi-24-seed7.txt"
	_, adj, _ := randomRegions(24, 7)
	got := voronoiInput(adj, 7)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the 24-region map of seed 7 differs from %s: %s", golden, firstDiff(got, string(want)))
	}
	if p, err := ParseProblem(golden, want); err != nil || len(p.States) != 24 {
		t.Errorf("%s: %v", golden, err)
	}
}

// TestConfigErrors: a config names what is wrong and where.
func TestConfigErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"map": "mars"}`, `c.json:1: map "mars": want "australia", "usa", "voronoi" or "input"`},
		{"{\n  \"map\": \"voronoi\",\n  \"regions\": 2\n}", "c.json:3: a random map of 2 regions: want 4 to 120"},
		{`{"map": "usa", "depth": 40}`, "depth 40: want 0 to 12"},
		{`{"map": "usa", "colours": 3}`, `unknown field "colours"`},
		{"{\"map\": \"input\",\n \"input\": \"R, G\\nA: R-3\\n1\\nR: 1, G: 2\\nR: 3, G: 4\\nA: B\\n\"}", `c.json: input:2: player "3" of A: want 1 or 2`},
		{"R, G\nA: R-1\nthree\nR: 1, G: 2\nR: 3, G: 4\nA: B\n", `c.json:3: depth "three": want a whole number`},
	}
	for _, c := range cases {
		if _, err := ParseConfig("c.json", []byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	data, _ := os.ReadFile("testdata/t5.txt")
	cfg, err := ParseConfig("t5.txt", data)
	if err != nil || cfg.Map != "input" {
		t.Fatalf("a course input as config: %v %v", cfg, err)
	}
	js, _ := cfg.MarshalJSON()
	back, err := ParseConfig("back.json", js)
	if err != nil || *back != *cfg {
		t.Errorf("config round trip: %v %v", back, err)
	}
}

// TestBadMoves: a move of the wrong kind, an unknown state or colour, a
// coloured state, a state with no coloured neighbour and a clash are each
// refused with the reason.
func TestBadMoves(t *testing.T) {
	st, _ := Game{}.Start(&Config{Map: "australia"}, 1)
	s := st.(State)
	cases := []struct {
		a    match.Action
		want string
	}{
		{"NSW", "is not a move"},
		{Move{"Tasmania", "R"}, `state "Tasmania" is not on the map`},
		{Move{"NSW", "P"}, `colour "P" is not one of`},
		{Move{"WA", "B"}, "WA is already coloured"},
		{Move{"NT", "R"}, "NT's neighbour WA is R already"},
	}
	for _, c := range cases {
		if err := s.Check(match.P1, c.a); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.a, err, c.want)
		}
	}
	line, _ := ParseConfig("line.txt", []byte("R, G\nA: R-1\n1\nR: 1, G: 2\nR: 3, G: 4\nA: B\nB: C\nC:\n"))
	ls, _ := Game{}.Start(line, 1)
	if err := ls.(State).Check(match.P1, Move{"C", "G"}); err == nil || !strings.Contains(err.Error(), "C has no coloured neighbour yet") {
		t.Errorf("C, G on A-B-C with A coloured: %v", err)
	}
	a, err := Game{}.DecodeAction([]byte(`{"state": "NT", "colour": "B"}`))
	if err != nil || s.Check(match.P1, a) != nil {
		t.Errorf("decoded %v: %v", a, err)
	}
}

// When strong searches to the end of the game its value is exact: the
// minimax value of the final scores, which the course's search to the same
// depth also finds (it has no table, no ordering and no estimate at the
// leaves to get wrong).
func TestStrongIsExactToTheEnd(t *testing.T) {
	checked := 0
	for seed := range uint64(4) {
		cfg := &Config{Map: "voronoi", Regions: 9, Depth: 3}
		st, err := Game{}.Start(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(State)
		for s.ToMove() != match.Nobody {
			info, _ := match.LookupBot(Game{}, "strong")
			bot, _ := info.New(match.Options{Budget: match.Budget{Nodes: 5_000_000}})
			turn := match.NewTurn(s, s.Mover(), rand.New(rand.NewPCG(seed, 1)), match.Budget{Nodes: 5_000_000})
			a, err := bot.Act(turn)
			if err != nil {
				t.Fatal(err)
			}
			if turn.Note.Text == "searched to the end of the game" {
				left := 0
				for _, c := range s.colour {
					if c < 0 {
						left++
					}
				}
				stt, col := s.Last()
				res, _ := search(s.position(), left, s.Mover(), stt, col, false, nil)
				want := float64(res.Value)
				if s.Mover() == match.P2 {
					want = -want
				}
				checked++
				if *turn.Note.Eval != want {
					t.Fatalf("seed %d turn %d: strong's value %v, the minimax value %v", seed, s.Turn(), *turn.Note.Eval, want)
				}
			}
			var acts [2]match.Action
			acts[s.Mover()] = a
			s = s.Apply(acts).(State)
		}
	}
	if checked < 8 {
		t.Errorf("strong searched to the end only %d times", checked)
	}
}
