package colosseum

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

var references = []string{"testdata/boards_2023.jsonl", "testdata/traces_random_2023.jsonl", "testdata/unit_vectors_2023.json"}

func TestConformReference(t *testing.T) {
	for _, f := range references {
		if detail, err := Conform(f, os.ReadFile); err != nil {
			t.Errorf("%s: %v", f, err)
		} else {
			t.Logf("%s: %s", f, detail)
		}
	}
}

// TestConformDetectsDifferences changes one fact in each file and
// requires conformance to fail saying where.
func TestConformDetectsDifferences(t *testing.T) {
	cases := []struct{ file, old, new, want string }{
		{references[0], `"p0":[1,6]`, `"p0":[1,5]`, "p0 (1,6), want [1 5]"},
		{references[0], `"walls":[[1,1,2],[3,5,2]`, `"walls":[[1,1,1],[3,5,2]`, "walls"},
		{references[1], `"to":[3,4],"dir":0,"requested":{"pos":[3,4],"dir":0}`, `"to":[3,4],"dir":1,"requested":{"pos":[3,4],"dir":0}`, "move 0: played 3,4,up, want 3,4,1"},
		{references[1], `"scores":[120,1],"winner":"A","turns":28`, `"scores":[119,1],"winner":"A","turns":28`, "result"},
		{references[2], `"valid": true`, `"valid": false`, "valid true, want false"},
	}
	for _, c := range cases {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(data), c.old, c.new, 1)
		if changed == string(data) {
			t.Fatalf("%s does not contain %s", c.file, c.old)
		}
		_, err = Conform(c.file, func(string) ([]byte, error) { return []byte(changed), nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %s: %v, want %q", c.file, c.new, err, c.want)
		}
	}
}

// unionFindEnd is the original's check_endgame written out: union-find
// over right and down neighbours, then the players' component sizes.
func unionFindEnd(b *Board, a, c Cell) (int, int, bool) {
	n := b.N
	parent := make([]int, n*n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for r := range n {
		for col := range n {
			i := r*n + col
			if !b.Wall(Cell{r, col}, Right) {
				parent[find(i)] = find(i + 1)
			}
			if !b.Wall(Cell{r, col}, Down) {
				parent[find(i)] = find(i + n)
			}
		}
	}
	ra, rc := find(a.Row*n+a.Col), find(c.Row*n+c.Col)
	sa, sc := 0, 0
	for i := range parent {
		switch find(i) {
		case ra:
			sa++
		}
		if find(i) == rc {
			sc++
		}
	}
	return sa, sc, ra != rc
}

// TestRandomPlayouts plays games between the bots on many boards and
// checks each state: the move list is exactly the set of moves Check
// accepts, the end test agrees with a union-find written like the
// original's, the search's own move list and end test agree with the
// state's, and the replay rebuilds every state.
func TestRandomPlayouts(t *testing.T) {
	pairs := [][2]string{{"random", "random"}, {"greedy", "random"}, {"strong:nodes=3000", "greedy"}}
	for seed := range uint64(24) {
		var err error
		pair := pairs[seed%3]
		cfg := Sized(4 + int(seed)%9)
		var specs [2]play.Spec
		for i, p := range pair {
			if specs[i], err = play.ParseSpec(p); err != nil {
				t.Fatal(err)
			}
		}
		rec, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: cfg, Seed: seed, Players: specs})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Result == nil || len(rec.Result.Forfeits) > 0 {
			t.Fatalf("seed %d: %v", seed, rec.Result)
		}
		for k, st := range rec.All() {
			s := st.(State)
			if a, c, over := unionFindEnd(&s.board, s.pos[0], s.pos[1]); over != s.over || [2]int{a, c} != s.scores {
				t.Fatalf("seed %d state %d: end test %v %v, union-find %v %v", seed, k, s.over, s.scores, over, [2]int{a, c})
			}
			if s.over {
				continue
			}
			checkMoves(t, s)
			if k < len(rec.Turns) {
				checkSearchEnd(t, s, rec.Turns[k].Actions[s.Mover()].(Move), rec.State(k+1).(State))
			}
		}
		var buf bytes.Buffer
		if err := play.SaveReplay(&buf, rec); err != nil {
			t.Fatal(err)
		}
		back, err := play.LoadReplay("r.json", buf.Bytes())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if last, want := back.Last().(State), rec.Last().(State); last.scores != want.scores || last.pos != want.pos {
			t.Fatalf("seed %d: replay ends at %v %v, want %v %v", seed, last.pos, last.scores, want.pos, want.scores)
		}
	}
}

// checkMoves compares the move list with Check over every cell and side,
// and with the search's move list.
func checkMoves(t *testing.T, s State) {
	t.Helper()
	moves := s.Moves(nil)
	side := s.Mover()
	for r := range s.board.N {
		for c := range s.board.N {
			for d := Up; d <= Left; d++ {
				m := Move{Cell{r, c}, d}
				if ok := s.Check(side, m) == nil; ok != slices.Contains(moves, m) {
					t.Fatalf("move %v: Check says %v, Moves %v", m, ok, !ok)
				}
			}
		}
	}
	sr := newSearch(s, match.NewTurn(s, side, nil, match.Budget{}))
	got := sr.moves(side, nil)
	slices.SortFunc(got, cmpMove)
	want := slices.SortedFunc(slices.Values(moves), cmpMove)
	if !slices.Equal(got, want) {
		t.Fatalf("search moves %v, want %v", got, want)
	}
}

func cmpMove(a, b Move) int {
	return slices.Compare([]int{a.To.Row, a.To.Col, int(a.Dir)}, []int{b.To.Row, b.To.Col, int(b.Dir)})
}

// checkSearchEnd plays m in the search and compares its end test with
// the state's.
func checkSearchEnd(t *testing.T, s State, m Move, next State) {
	t.Helper()
	side := s.Mover()
	sr := newSearch(s, match.NewTurn(s, side, nil, match.Budget{}))
	h := sr.hash
	from := sr.play(side, m)
	over, mine, theirs := sr.ended(side, m)
	if over != next.over || (over && (mine != next.scores[side] || theirs != next.scores[1-side])) {
		t.Fatalf("move %v: search end %v %d %d, state %v %v", m, over, mine, theirs, next.over, next.scores)
	}
	sr.unplay(side, m, from)
	if sr.hash != h || !slices.Equal(sr.walls, s.board.walls) {
		t.Fatal("unplay does not restore the position")
	}
}

func TestProtocolRoundTrip(t *testing.T) {
	s := NewState(Course(), 7)
	s = s.Play(s.Moves(nil)[3])
	line := Step(s, 12, 2e9)
	back, id, limit, err := ParseStep(line)
	if err != nil {
		t.Fatal(err)
	}
	if id != 12 || limit != 2e9 || back.pos != s.pos || !slices.Equal(back.board.walls, s.board.walls) || back.Mover() != s.Mover() || back.k != s.k {
		t.Errorf("round trip: id %d limit %v pos %v/%v mover %v/%v", id, limit, back.pos, s.pos, back.Mover(), s.Mover())
	}
	for _, bad := range []string{`not json`, `{"pos":[1],"dir":0}`, `{"pos":[1,2],"dir":4}`, `{"pos":[1,2]}`, `[1,2,3]`} {
		if _, err := ParseReply([]byte(bad)); err == nil {
			t.Errorf("ParseReply(%s) accepted", bad)
		}
	}
	if m, err := ParseReply([]byte(`{"pos":[1,2],"dir":3,"id":5}`)); err != nil || m != (Move{Cell{1, 2}, Left}) {
		t.Errorf("ParseReply = %v, %v", m, err)
	}
	if !strings.Contains(string(End(s, match.P1)), `"type":"end"`) {
		t.Error("end message")
	}
	// Numbers out of range are refused by name: a negative turn once made
	// the served bot answer for the other player; a time limit of 1e300
	// seconds overflowed the duration into a negative one.
	for _, c := range []struct{ old, new, want string }{
		{`"turn":1,`, `"turn":-1,`, "turn -1: want the number of moves made"},
		{`"time_limit":2`, `"time_limit":1e300`, "time_limit 1e+300: want 0 to 86400 seconds"},
		{`"time_limit":2`, `"time_limit":-2`, "time_limit -2: want 0 to 86400 seconds"},
	} {
		bad := strings.Replace(string(line), c.old, c.new, 1)
		if bad == string(line) {
			t.Fatalf("the step message has no %s: %s", c.old, line)
		}
		if _, _, _, err := ParseStep([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.new, err, c.want)
		}
	}
	if _, err := ParseConfig("c.json", []byte(`{"size": 8, "move_ms": 9223372036854775807}`)); err == nil || !strings.Contains(err.Error(), "want 1 to 86400000 milliseconds") {
		t.Errorf("move_ms near 2^63: %v", err)
	}
}

// position builds a state from rows of text: '.' open, 'A' and 'B' the
// players; walls are given as [row, col, side] triples.
func position(n int, a, b Cell, walls [][3]int, mover match.Side) State {
	bd := NewBoard(n)
	for _, w := range walls {
		bd.SetWall(Cell{w[0], w[1]}, Dir(w[2]))
	}
	s := State{cfg: Sized(n), board: bd, pos: [2]Cell{a, b}, k: (n + 1) / 2, turn: int(mover), rng: NewNumPy(1)}
	s.scores[0], s.scores[1], s.over = bd.regions(a, b)
	return s
}

// TestStrongTakesTheWin: B sits in a corridor whose mouth one wall
// closes, two steps from A; strong (A) must close it at once.
func TestStrongTakesTheWin(t *testing.T) {
	// 6x6; row 0 is a corridor walled off from row 1 except at column 5.
	var walls [][3]int
	for c := range 5 {
		walls = append(walls, [3]int{0, c, 2})
	}
	s := position(6, Cell{3, 4}, Cell{0, 0}, walls, match.P1)
	b, _ := newStrong(match.Options{})
	a, err := b.Act(match.NewTurn(s, match.P1, nil, match.Budget{Nodes: 20000}))
	if err != nil {
		t.Fatal(err)
	}
	after := s.Play(a.(Move))
	if !after.over || after.scores[0] <= after.scores[1] {
		t.Errorf("strong played %v: over %v, scores %v; want the corridor closed", a, after.over, after.scores)
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{`{"size": 8}`, `{"sizes": [6, 11], "move_ms": 200}`, `{"size": 2}`, `{"variant": "2023", "first_move_ms": 30000}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig("fuzz.json", data)
		if err != nil {
			return
		}
		out, _ := c.MarshalJSON()
		back, err := ParseConfig("again.json", out)
		if err != nil || *back != *c {
			t.Fatalf("round trip: %v %+v %+v", err, c, back)
		}
		if c.Size > 0 {
			NewState(c, 1)
		}
	})
}

func FuzzParseStep(f *testing.F) {
	s := NewState(Course(), 3)
	f.Add(Step(s, 1, 0))
	f.Add([]byte(`{"type":"step","board_size":3,"walls":[[[1,0,0,1],[1,0,0,0],[1,1,0,0]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, _, _, err := ParseStep(data)
		if err != nil {
			return
		}
		// A parsed position is one the bots can think about.
		if !st.over {
			st.Moves(nil)
			st.RandomWalk(NewNumPy(1))
		}
	})
}

func benchState(b *testing.B) State {
	s := NewState(Sized(11), 5)
	for range 6 {
		s = s.Play(s.Moves(nil)[len(s.Moves(nil))/2])
	}
	if s.over {
		b.Fatal("the benchmark position is over")
	}
	return s
}

// BenchmarkMoves generates the moves of an 11x11 position: the search's
// generator (stamped visited set, no allocation) beside State.Moves.
func BenchmarkMoves(b *testing.B) {
	s := benchState(b)
	b.Run("search", func(b *testing.B) {
		sr := newSearch(s, match.NewTurn(s, s.Mover(), nil, match.Budget{}))
		var buf []Move
		for b.Loop() {
			buf = sr.moves(s.Mover(), buf)
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			s.Moves(nil)
		}
	})
}

// BenchmarkEndTest runs the end test after each move of an 11x11
// position: the search's local test (do the wall's two sides still
// connect?) beside flooding both regions as the state does.
func BenchmarkEndTest(b *testing.B) {
	s := benchState(b)
	moves := s.Moves(nil)
	side := s.Mover()
	b.Run("search", func(b *testing.B) {
		sr := newSearch(s, match.NewTurn(s, side, nil, match.Budget{}))
		for i := 0; b.Loop(); i++ {
			m := moves[i%len(moves)]
			from := sr.play(side, m)
			sr.ended(side, m)
			sr.unplay(side, m, from)
		}
	})
	b.Run("reference", func(b *testing.B) {
		bd := s.board.Clone()
		for i := 0; b.Loop(); i++ {
			m := moves[i%len(moves)]
			bd.SetWall(m.To, m.Dir)
			bd.regions(m.To, s.pos[side.Other()])
			bd.clearWall(m.To, m.Dir)
		}
	})
}

// BenchmarkStrong measures the search's speed in nodes per second.
func BenchmarkStrong(b *testing.B) {
	s := benchState(b)
	bot, _ := newStrong(match.Options{})
	var nodes int64
	for b.Loop() {
		tn := match.NewTurn(s, s.Mover(), nil, match.Budget{Nodes: 20000})
		bot.Act(tn)
		nodes += tn.Nodes()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
