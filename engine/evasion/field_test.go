package evasion

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/play"
)

// randomOrders draws a hunter's and a prey's orders the way a careless
// player would: walls often, deletions with bad indices, prey steps beyond
// ±1.
func randomOrders(r *rand.Rand, f *Field) (HunterMove, PreyMove) {
	h := HunterMove{Build: NoWall}
	if r.IntN(3) == 0 {
		h.Build = Kind(r.IntN(4))
	}
	if n := len(f.Walls()); r.IntN(8) == 0 {
		h.Delete = []int{r.IntN(n+2) - 1, r.IntN(n + 1)}
	}
	return h, PreyMove{r.IntN(5) - 2, r.IntN(5) - 2}
}

// Random playouts: walls never overlap each other, the hunter or the prey;
// players stay on the board; the grid agrees with the wall list; a field
// that scans its walls (the original's way) plays the same game.
func TestRandomPlayouts(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		maxWalls, delay := []int{0, 1, 2, 5, 10, 100}[seed%6], int(seed%4)
		fast := NewField(maxWalls, delay)
		slow := NewField(maxWalls, delay)
		slow.Scan()
		for tick := 0; tick < 3000; tick++ {
			h, p := randomOrders(r, &fast)
			cf, cs := fast.Step(h, p), slow.Step(h, p)
			if a, b := string(fast.AppendState(nil, 0)), string(slow.AppendState(nil, 0)); a != b || cf != cs {
				t.Fatalf("seed %d tick %d: grid and scan differ:\n %s %v\n %s %v", seed, tick, a, cf, b, cs)
			}
			checkField(t, &fast)
			if cf {
				break
			}
		}
	}
}

// checkField checks the invariants of a field against its wall list.
func checkField(t *testing.T, f *Field) {
	t.Helper()
	count := map[Point]int{}
	for i := range f.walls {
		w := &f.walls[i]
		if !w.valid() {
			t.Fatalf("tick %d: wall %s is malformed", f.Tick, w)
		}
		w.Cells(func(x, y int) { count[Point{x, y}]++ })
	}
	n := 0
	for c, k := range count {
		if k > 1 {
			t.Fatalf("tick %d: %d walls share cell %v", f.Tick, k, c)
		}
		if !f.occ.has(c.X, c.Y) {
			t.Fatalf("tick %d: wall cell %v is not in the grid", f.Tick, c)
		}
		n++
	}
	if bits := popCount(f.occ) - popCount(fenced()); bits != n {
		t.Fatalf("tick %d: the grid holds %d cells inside its border, the walls %d", f.Tick, bits, n)
	}
	for _, p := range []Point{f.Hunter, f.Prey} {
		if f.Blocked(p.X, p.Y) {
			t.Fatalf("tick %d: a player stands on a blocked cell %v", f.Tick, p)
		}
	}
}

// The grid's arm scan (word at a time in a row, bit by bit otherwise)
// finds what the original's cell-by-cell scan finds, from anchors
// anywhere, the players often in the arm's way, and walls across word
// boundaries and up to the border.
func TestGridArmsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		f := NewField(100, 0)
		for range 40 {
			f.Step(randomOrders(r, &f))
		}
		slow := f.Fork()
		slow.Scan()
		for range 100 {
			c := Point{r.IntN(Size), r.IntN(Size)}
			if f.Blocked(c.X, c.Y) {
				continue
			}
			// The players on the anchor's row or column half the time.
			for _, q := range []*Point{&f.Hunter, &f.Prey} {
				switch r.IntN(4) {
				case 0:
					q.Y = c.Y
				case 1:
					q.X = c.X
				}
			}
			slow.Hunter, slow.Prey = f.Hunter, f.Prey
			for k := range arms {
				for side := range 2 {
					gl, gok, gn := f.arm(c, arms[k][side])
					sl, sok, sn := slow.arm(c, arms[k][side])
					if gok != sok || gok && (gn != sn || gl != sl) {
						t.Fatalf("%s arm %d from %v (hunter %v, prey %v): grid %v %v %d, scan %v %v %d",
							Kind(k), side, c, f.Hunter, f.Prey, gl, gok, gn, sl, sok, sn)
					}
				}
			}
		}
	}
}

// Overlapping walls, which only a state message can bring, keep the
// field scanning its walls: deleting one leaves the cells it shares with
// the other blocked, as in the original.
func TestOverlappingWallsScan(t *testing.T) {
	f := NewField(10, 0)
	f.walls = []Wall{{Kind: Horizontal, X1: 10, X2: 20, Y1: 50, Y2: 50}, {Kind: Vertical, X1: 15, X2: 15, Y1: 40, Y2: 60}}
	f.Scan()
	f.Index()
	if f.occ != nil {
		t.Fatal("a field with overlapping walls has a grid")
	}
	f.Step(HunterMove{Build: NoWall, Delete: []int{0}}, PreyMove{})
	if !f.Blocked(15, 50) || f.Blocked(14, 50) {
		t.Errorf("after deleting the horizontal wall: (15,50) blocked %v (want true), (14,50) %v (want false)",
			f.Blocked(15, 50), f.Blocked(14, 50))
	}
}

// Copies share walls until they change them: stepping a copy leaves the
// original as it was.
func TestForkIsolates(t *testing.T) {
	f := NewField(10, 0)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		f.Step(randomOrders(r, &f))
	}
	before := string(f.AppendState(nil, 0))
	g := f.Fork()
	for range 500 {
		g.Step(randomOrders(r, &g))
	}
	if after := string(f.AppendState(nil, 0)); after != before {
		t.Fatalf("stepping a copy changed the original:\n %s\n %s", before, after)
	}
	checkField(t, &f)
	checkField(t, &g)
}

// The README's examples of the bounce rules (spec §4).
func TestBounceExamples(t *testing.T) {
	f := NewField(10, 0)
	f.walls = []Wall{{Kind: Horizontal, X1: 10, X2: 299, Y1: 200, Y2: 200}}
	f.Scan()
	f.Index()
	if p, v := f.Move(Point{9, 199}, Point{1, 1}); p != (Point{10, 199}) || v != (Point{1, -1}) {
		t.Errorf("(9,199) by (1,1) toward the wall's end: %v %v, want (10,199) (1,-1)", p, v)
	}
	if p, v := f.Move(Point{9, 200}, Point{1, 1}); p != (Point{10, 201}) || v != (Point{1, 1}) {
		t.Errorf("(9,200) by (1,1) beside the wall: %v %v, want (10,201) (1,1)", p, v)
	}
	if p, v := f.Move(Point{299, 299}, Point{1, 1}); p != (Point{299, 299}) || v != (Point{-1, -1}) {
		t.Errorf("corner: %v %v, want to turn round in place", p, v)
	}
}

// The tick's fast path: no build, no deletion; the hunter and the prey
// move (the hunter bouncing off walls now and then) and the capture is
// tested. The occupancy grid against a scan of the wall list.
func BenchmarkTick(b *testing.B) {
	for _, bc := range []struct {
		name  string
		walls int
		scan  bool
	}{{"walls=10/grid", 10, false}, {"walls=10/scan", 10, true}, {"walls=100/grid", 100, false}, {"walls=100/scan", 100, true}} {
		b.Run(bc.name, func(b *testing.B) {
			f := benchField(bc.walls)
			if bc.scan {
				f.Scan()
			}
			start := f
			h := HunterMove{Build: NoWall}
			// The prey paces back and forth in the open, as a prey away
			// from the hunter does; the hunter bounces off the walls.
			steps := [4]PreyMove{{1, -1}, {1, -1}, {-1, 1}, {-1, 1}}
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				// Start again after a capture or 16,384 ticks (counted
				// here, so that the loop does not wait on Step's writes).
				if f.Step(h, steps[i&3]) || i&(1<<14-1) == 0 {
					f = start
				}
			}
		})
	}
}

// benchField is a mid-game field with n walls of every kind: 10 as a
// session at the default preset holds, 100 at the README's.
func benchField(n int) Field {
	f := NewField(n, 0)
	r := rand.New(rand.NewPCG(3, 4))
	for len(f.Walls()) < n {
		f.Step(HunterMove{Build: Kind(r.IntN(4))}, PreyMove{r.IntN(3) - 1, r.IntN(3) - 1})
	}
	f.own = true
	return f
}

func popCount(g *grid) int {
	n := 0
	for _, w := range g {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// BenchmarkSessionTick replays the ticks of whole sessions as the bots
// play them at the default preset (builds, deletions, bounces, captures
// and all), with the occupancy grid and with a scan of the wall list.
// ns/tick is the mean tick of a real game, where BenchmarkTick is its
// cheapest kind.
func BenchmarkSessionTick(b *testing.B) {
	games := sessionOrders(b)
	ticks := 0
	for _, g := range games {
		ticks += len(g)
	}
	for _, scan := range []bool{false, true} {
		name := "grid"
		if scan {
			name = "scan"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, g := range games {
					f := NewField(10, 10)
					if scan {
						f.Scan()
					}
					for _, o := range g {
						f.Step(o.h, o.p)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ticks), "ns/tick")
		})
	}
}

type orders struct {
	h HunterMove
	p PreyMove
}

// sessionOrders plays three sessions of strong against greedy at the
// default preset (each hunts once in each) and returns each game's
// orders, tick by tick.
func sessionOrders(b *testing.B) [][]orders {
	var games [][]orders
	for seed := range uint64(3) {
		r, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: Preset(10, 10), Seed: seed,
			Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}})
		if err != nil {
			b.Fatal(err)
		}
		var game []orders
		for k, turn := range r.Turns {
			s := r.State(k).(State)
			if k > 0 && s.GameNum() != r.State(k-1).(State).GameNum() {
				games, game = append(games, game), nil
			}
			hs := s.Hunter()
			h, p, _ := s.Orders(turn.Actions[hs].(Action), turn.Actions[1-hs].(Action))
			game = append(game, orders{h, p})
		}
		games = append(games, game)
	}
	return games
}
