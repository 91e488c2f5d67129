package mapcolor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// TestCourseOutputs: every input in testdata gives its expected output
// byte for byte (the Australia example, the generated cases, the edge
// cases).
func TestCourseOutputs(t *testing.T) {
	var inputs []string
	for _, pat := range []string{"testdata/t5.txt", "testdata/case*.txt", "testdata/edge/e*.txt"} {
		m, _ := filepath.Glob(pat)
		inputs = append(inputs, m...)
	}
	if len(inputs) != 1+17+9 {
		t.Fatalf("found %d inputs, want 27", len(inputs))
	}
	for _, in := range inputs {
		if _, err := Conform(in, os.ReadFile); err != nil {
			t.Error(err)
		}
	}
}

// TestAustraliaTrace spells out what the handout's example shows: the
// first lines, the last line, no final newline.
func TestAustraliaTrace(t *testing.T) {
	data, _ := os.ReadFile("testdata/t5.txt")
	p, err := ParseProblem("t5.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	out := string(Solve(p))
	lines := strings.Split(out, "\n")
	if len(lines) != 86 || lines[0] != "SA, G, 0, -inf, -inf, inf" || lines[12] != "Q, R, 2, 18, 8, 10" || lines[85] != "NSW, B, 10" || strings.HasSuffix(out, "\n") {
		t.Errorf("trace of %d lines: first %q, line 13 %q, last %q", len(lines), lines[0], lines[12], lines[len(lines)-1])
	}
}

func TestConformDetectsADifference(t *testing.T) {
	want, _ := os.ReadFile("testdata/output_t5.txt")
	changed := bytes.Replace(want, []byte("Q, R, 2, 18, 8, 10"), []byte("Q, R, 2, 18, 10, 10"), 1)
	read := func(name string) ([]byte, error) {
		if strings.HasSuffix(name, "output_t5.txt") {
			return changed, nil
		}
		return os.ReadFile(name)
	}
	_, err := Conform("testdata/t5.txt", read)
	if err == nil || !strings.Contains(err.Error(), `line 13: "Q, R, 2, 18, 8, 10", want "Q, R, 2, 18, 10, 10"`) {
		t.Errorf("Conform = %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	good, _ := os.ReadFile("testdata/t5.txt")
	cases := []struct{ old, new, want string }{
		{"R, G, B\n", "R, G3, B\n", `t5.txt:1: colour "G3": want a name of letters`},
		{"WA: R-1, SA: G-2", "WA: R-1, XX: G-2", "t5.txt:2: state XX is not on the map"},
		{"WA: R-1, SA: G-2", "WA: R-1, SA: G-3", `t5.txt:2: player "3" of SA: want 1 or 2`},
		{"WA: R-1, SA: G-2", "WA: R-1, SA: R-2", "t5.txt:2: SA and its neighbour WA are both R"},
		{"WA: R-1, SA: G-2", "WA: R-1, SA: Y-2", `t5.txt:2: colour "Y" of SA is not one of B, G, R`},
		{"WA: R-1, SA: G-2", "WA R-1", `t5.txt:2: "WA R-1": want STATE: COLOUR-PLAYER`},
		{"\n3\n", "\nthree\n", `t5.txt:3: depth "three": want a whole number`},
		{"R: 10, G: 5, B: 0", "R: 10, G: 5.5, B: 0", `t5.txt:4: weight of G is "5.5": want a whole number`},
		{"R: 0, G: 2, B: 8", "R: 0, G: 2", "t5.txt:5: Player 2's weights give no weight for colour B"},
		// Weights near 2^62 would overflow a score and crown the wrong player.
		{"R: 0, G: 2, B: 8", "R: 0, G: 4611686018427387904, B: 8", `t5.txt:5: weight of G is "4611686018427387904": want a whole number from -1000000 to 1000000`},
		{"\n3\n", "\n99999999999999999999\n", `t5.txt:3: depth "99999999999999999999": want a whole number`},
		{"V: SA, NSW", "V SA NSW", "t5.txt:11: want an adjacency line"},
		{"V: SA, NSW", "V: SA, V", "t5.txt:11: state V is listed as its own neighbour"},
	}
	for _, c := range cases {
		data := strings.Replace(string(good), c.old, c.new, 1)
		if data == string(good) {
			t.Fatalf("t5.txt does not contain %q", c.old)
		}
		if _, err := ParseProblem("t5.txt", []byte(data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q -> %q: %v, want %q", c.old, c.new, err, c.want)
		}
	}
	if _, err := ParseProblem("short.txt", []byte("R, G\nA: R-1\n")); err == nil || !strings.Contains(err.Error(), "short.txt:3:") {
		t.Errorf("a short file: %v", err)
	}
}

// A depth far past the map's size asks for nothing more: the search is the
// one of a depth as deep as the map, and no buffer is sized by the number.
func TestHugeDepth(t *testing.T) {
	good, _ := os.ReadFile("testdata/t5.txt")
	deep, err := ParseProblem("deep.txt", []byte(strings.Replace(string(good), "\n3\n", "\n10000000000\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	whole, err := ParseProblem("whole.txt", []byte(strings.Replace(string(good), "\n3\n", fmt.Sprintf("\n%d\n", len(deep.States)), 1)))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Solve(deep)
	runtime.ReadMemStats(&after)
	if want := Solve(whole); !bytes.Equal(got, want) {
		t.Errorf("depth 10^10 traces differently from depth %d", len(deep.States))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("depth 10^10 allocated %d MB", n>>20)
	}
}

// A map past MaxStates is refused by its size, before anything is sized
// by it; one at the limit parses. (The parse once went through every
// earlier line for each line: a 2.2 MB input took 90 s. That it is linear
// now is BenchmarkParseProblem's to show: 1,000 and 10,000 states.)
func TestLargeInputs(t *testing.T) {
	if _, err := ParseProblem("big.txt", largeInput(MaxStates+1, 1)); err == nil || !strings.Contains(err.Error(), "at most 10000") {
		t.Errorf("a map of %d states: %v", MaxStates+1, err)
	}
	p, err := ParseProblem("big.txt", largeInput(MaxStates, 20))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.States) != MaxStates || len(p.Adj[0]) != 40 {
		t.Errorf("%d states, the first with %d neighbours; want %d and 40", len(p.States), len(p.Adj[0]), MaxStates)
	}
}

// largeInput is a course input of n states in a ring, each listing its
// next deg states.
func largeInput(n, deg int) []byte {
	var b strings.Builder
	b.WriteString("R, G, B\nS0: R-1\n2\nR: 1, G: 2, B: 3\nR: 3, G: 2, B: 1\n")
	for i := range n {
		fmt.Fprintf(&b, "S%d:", i)
		for j := 1; j <= deg; j++ {
			fmt.Fprintf(&b, " S%d,", (i+j)%n)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

func BenchmarkParseProblem(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := largeInput(n, 20)
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseProblem("big.txt", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Asymmetric neighbour lists are made symmetric.
func TestSymmetricAdjacency(t *testing.T) {
	p, err := ParseProblem("a.txt", []byte("R, G\nA: R-1\n1\nR: 1, G: 2\nR: 3, G: 4\nA: B\nB: C\nC:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Adj[1], []int{0, 2}) || !slices.Equal(p.Adj[2], []int{1}) {
		t.Errorf("adjacency %v", p.Adj)
	}
}

func FuzzParseProblem(f *testing.F) {
	for _, name := range []string{"testdata/t5.txt", "testdata/edge/e6_case.txt", "testdata/edge/e4_depth0.txt"} {
		data, _ := os.ReadFile(name)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProblem("fuzz.txt", data)
		if err != nil {
			return
		}
		if len(p.States)*len(p.Colours) <= 40 && p.Depth <= 3 {
			Solve(p) // any parsed problem can be solved
		}
	})
}

// reference is the plain algorithm: recursive alpha-beta over a colouring
// kept in maps, copied for every child, the frontier found by scanning
// the states, and lines formatted with fmt. It is the oracle of the fast
// search and its yardstick in the benchmarks.
type reference struct {
	p       *Problem
	maxD    int
	tracing bool
	lines   []string
	nodes   int
}

type refColouring struct {
	colour map[string]string
	owner  map[string]int
}

func (r *reference) copyOf(c refColouring) refColouring {
	n := refColouring{colour: map[string]string{}, owner: map[string]int{}}
	for k, v := range c.colour {
		n.colour[k] = v
	}
	for k, v := range c.owner {
		n.owner[k] = v
	}
	return n
}

func (r *reference) eval(c refColouring) int {
	v := 0
	for s, col := range c.colour {
		w := r.p.Weights[c.owner[s]][slices.Index(r.p.Colours, col)]
		if c.owner[s] == 0 {
			v += w
		} else {
			v -= w
		}
	}
	return v
}

func (r *reference) moves(c refColouring) [][2]string {
	var out [][2]string
	for si, s := range r.p.States {
		if _, done := c.colour[s]; done {
			continue
		}
		near, used := false, map[string]bool{}
		for _, nb := range r.p.Adj[si] {
			if col, ok := c.colour[r.p.States[nb]]; ok {
				near, used[col] = true, true
			}
		}
		if !near {
			continue
		}
		for _, col := range r.p.Colours {
			if !used[col] {
				out = append(out, [2]string{s, col})
			}
		}
	}
	return out
}

func refValue(v int) string {
	switch {
	case v >= Inf:
		return "inf"
	case v <= -Inf:
		return "-inf"
	}
	return fmt.Sprint(v)
}

func (r *reference) line(name, col string, d, v, a, b int) {
	if r.tracing {
		r.lines = append(r.lines, fmt.Sprintf("%s, %s, %d, %s, %s, %s", name, col, d, refValue(v), refValue(a), refValue(b)))
	}
}

func (r *reference) node(c refColouring, d, a, b int, player int, name, col string) int {
	r.nodes++
	ms := r.moves(c)
	if d == r.maxD || len(ms) == 0 {
		v := r.eval(c)
		r.line(name, col, d, v, a, b)
		return v
	}
	max := player == 0
	v := Inf
	if max {
		v = -Inf
	}
	r.line(name, col, d, v, a, b)
	for _, m := range ms {
		child := r.copyOf(c)
		child.colour[m[0]], child.owner[m[0]] = m[1], player
		cv := r.node(child, d+1, a, b, 1-player, m[0], m[1])
		if max {
			v = maxInt(v, cv)
			if v >= b {
				r.line(name, col, d, v, a, b)
				return v
			}
			a = maxInt(a, v)
		} else {
			v = minInt(v, cv)
			if v <= a {
				r.line(name, col, d, v, a, b)
				return v
			}
			b = minInt(b, v)
		}
		r.line(name, col, d, v, a, b)
	}
	return v
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// solve is the reference's output.txt.
func (r *reference) solve() string {
	c := refColouring{colour: map[string]string{}, owner: map[string]int{}}
	for _, a := range r.p.Initial {
		c.colour[r.p.States[a.State]], c.owner[r.p.States[a.State]] = r.p.Colours[a.Colour], int(a.Player)
	}
	last := r.p.Initial[len(r.p.Initial)-1]
	name, col := r.p.States[last.State], r.p.Colours[last.Colour]
	ms := r.moves(c)
	if r.maxD == 0 || len(ms) == 0 {
		r.line(name, col, 0, r.eval(c), -Inf, Inf)
		return strings.Join(r.lines, "\n")
	}
	v, a := -Inf, -Inf
	var best [2]string
	r.line(name, col, 0, v, a, Inf)
	for _, m := range ms {
		child := r.copyOf(c)
		child.colour[m[0]], child.owner[m[0]] = m[1], 0
		cv := r.node(child, 1, a, Inf, 1, m[0], m[1])
		if cv > v {
			v, best = cv, m
		}
		a = maxInt(a, v)
		r.line(name, col, 0, v, a, Inf)
	}
	r.lines = append(r.lines, fmt.Sprintf("%s, %s, %s", best[0], best[1], refValue(v)))
	return strings.Join(r.lines, "\n")
}

// randomProblem makes a course-shaped problem: a random connected map,
// two adjacent initial states (P1 then P2), 2 to 5 colours.
func randomProblem(r *rand.Rand, states, colours, depth int) *Problem {
	names := make([]string, states)
	for i := range names {
		names[i] = fmt.Sprintf("S%02d", i)
	}
	cols := []string{"B", "G", "O", "P", "R", "Y"}[:colours]
	adj := make([][]int, states)
	link := func(a, b int) {
		if a != b && !slices.Contains(adj[a], b) {
			adj[a], adj[b] = append(adj[a], b), append(adj[b], a)
		}
	}
	for i := 1; i < states; i++ {
		link(i, r.IntN(i))
		if r.IntN(2) == 0 {
			link(i, r.IntN(i))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", strings.Join(cols, ", "))
	fmt.Fprintf(&b, "%s: %s-1, %s: %s-2\n", names[1], cols[0], names[adj[1][0]], cols[1%colours])
	fmt.Fprintf(&b, "%d\n", depth)
	for range 2 {
		var ws []string
		for _, c := range cols {
			ws = append(ws, fmt.Sprintf("%s: %d", c, r.IntN(30)))
		}
		fmt.Fprintf(&b, "%s\n", strings.Join(ws, ", "))
	}
	for i, n := range names {
		var ns []string
		for _, j := range adj[i] {
			ns = append(ns, names[j])
		}
		fmt.Fprintf(&b, "%s: %s\n", n, strings.Join(ns, ", "))
	}
	p, err := ParseProblem("random", []byte(b.String()))
	if err != nil {
		panic(err)
	}
	return p
}

// TestMatchesReference compares the fast search's output with the
// reference's on random problems.
func TestMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(561, 2017))
	for i := range 150 {
		p := randomProblem(r, 4+r.IntN(12), 2+r.IntN(4), r.IntN(5))
		got := string(Solve(p))
		ref := &reference{p: p, maxD: p.Depth, tracing: true}
		if want := ref.solve(); got != want {
			t.Fatalf("problem %d: the outputs differ:\n%s", i, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return fmt.Sprintf("line %d: %q vs %q", i+1, x[i], y[i])
		}
	}
	return fmt.Sprintf("%d lines vs %d", len(x), len(y))
}

// benchProblem is a course-shaped problem whose trace runs to tens of
// thousands of lines: 30 states, 5 colours, depth 4.
func benchProblem() *Problem {
	return randomProblem(rand.New(rand.NewPCG(7, 7)), 30, 5, 4)
}

// BenchmarkSearch: the search with the course's trace and without,
// beside the reference, which copies the colouring per node.
func BenchmarkSearch(b *testing.B) {
	p := benchProblem()
	var lines, nodes int
	b.Run("traced", func(b *testing.B) {
		for b.Loop() {
			out := Solve(p)
			lines = bytes.Count(out, []byte("\n")) + 1
		}
		b.ReportMetric(float64(lines), "lines")
	})
	run := func(b *testing.B, tracing bool) {
		pos := newPosition(p)
		for _, a := range p.Initial {
			pos.play(move{a.State, a.Colour}, a.Player)
		}
		var n int64
		for b.Loop() {
			res, _ := search(pos, p.Depth, match.P1, 0, 0, tracing, nil)
			n += res.Nodes
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		nodes = int(n / int64(b.N))
	}
	b.Run("untraced", func(b *testing.B) { run(b, false) })
	b.Run("reference", func(b *testing.B) {
		var n int
		for b.Loop() {
			ref := &reference{p: p, maxD: p.Depth}
			ref.solve()
			n += ref.nodes
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
	})
	_ = nodes
}

// sampler is a writer that discards the trace and samples the live heap
// every so many writes.
type sampler struct {
	n, bytes int64
	peak     uint64
}

func (s *sampler) Write(b []byte) (int, error) {
	s.bytes += int64(len(b))
	if s.n++; s.n%64 == 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.peak = max(s.peak, ms.HeapInuse)
	}
	return len(b), nil
}

// BenchmarkSolveStream writes the course's trace of the United States at
// depth 7 (3.57 M lines, 70 MB) as arena csp does, sampling the heap: it
// streams in a few megabytes where holding the trace took 300 MB.
func BenchmarkSolveStream(b *testing.B) {
	data, err := os.ReadFile("../../assets/mapcolor/usa.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitN(string(data), "\n", 4)
	lines[2] = "7"
	p, err := ParseProblem("usa7.txt", []byte(strings.Join(lines, "\n")))
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		runtime.GC()
		s := &sampler{}
		if err := SolveTo(s, p); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(s.peak)/(1<<20), "MB-heap-peak")
		b.ReportMetric(float64(s.bytes)/(1<<20), "MB-trace")
	}
}
