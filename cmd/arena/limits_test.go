package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkLimits plays each limit in the README's table at the limit, as
// a user would: the arena command in a process of its own. Each reports
// the wall time of the whole command, the process's peak resident memory,
// and the longest and mean move of each bot. Run it with
//
//	go test -run '^$' -bench Limits -benchtime 1x -timeout 3h ./cmd/arena
//
// (make limits); -bench 'Limits/pathgame' and the like pick some.
func BenchmarkLimits(b *testing.B) {
	dir := b.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		return f
	}
	path := write("path-5000.txt", pathGraph(5000))
	dense := write("dense-5000x200000.txt", denseGraph(5000, 200_000, 5))
	life := write("life-4096.json", lifeConfig(4096, 4096))
	colosseum := write("colosseum-50.json", `{"size": 50}`)
	evasionWalls := write("evasion-1000-walls.json", `{"max_walls": 1000, "delay": 1, "tick_cap": 1000000}`)
	evasionDelay := write("evasion-delay.json", `{"max_walls": 1000, "delay": 1000000, "tick_cap": 1000000}`)
	mapText := gridMap(100, 100)
	mapcolor := write("map-10000.json", mustJSON(map[string]any{"map": "input", "input": mapText, "name": "map-10000.txt"}))

	type limit struct {
		name string
		args []string
	}
	var cases []limit
	bots := []string{"random", "greedy", "strong", "choke", "raiser", "babysnakes"}
	for _, g := range []struct{ name, file string }{{"path-5000", path}, {"dense-5000x200000", dense}} {
		for i, p1 := range bots {
			for _, p2 := range bots[i:] {
				cases = append(cases, limit{"pathgame/" + g.name + "/" + p1 + "-" + p2,
					[]string{"play", "-game", "pathgame", "-config", g.file, "-p1", p1, "-p2", p2}})
			}
		}
	}
	cases = append(cases,
		limit{"colosseum/50x50/strong-strong", []string{"play", "-game", "colosseum", "-config", colosseum, "-p1", "strong", "-p2", "strong"}},
		limit{"evasion/1000-walls-1M-ticks/random-random", []string{"play", "-game", "evasion", "-config", evasionWalls, "-p1", "random", "-p2", "random"}},
		limit{"evasion/delay-1M-1M-ticks/strong-greedy", []string{"play", "-game", "evasion", "-config", evasionDelay, "-p1", "strong", "-p2", "greedy"}},
		limit{"mapcolor/10000-states/strong-greedy", []string{"play", "-game", "mapcolor", "-config", mapcolor, "-p1", "strong", "-p2", "greedy"}},
		// The course's own search has no budget: its depth-3 search takes
		// 0.44 ms a move on 100 states, 10 ms on 400 and did not end a
		// 1,600-state game in 200 s; at 10,000 states a game would take
		// about a day. Its node budget bounds it.
		limit{"mapcolor/10000-states/course-nodes-20000-random", []string{"play", "-game", "mapcolor", "-config", mapcolor, "-p1", "course:nodes=20000", "-p2", "random"}},
		limit{"life/4096x4096x4096/random-random/play", []string{"play", "-game", "life", "-config", life, "-p1", "random", "-p2", "random"}},
		limit{"life/4096x4096x4096/greedy-random/autoplay", []string{"autoplay", "-game", "life", "-config", life, "-p1", "greedy", "-p2", "random", "-n", "1"}},
		limit{"life/4096x4096x4096/random-random/record", []string{"record", "-game", "life", "-config", life, "-p1", "random", "-p2", "random", "-size", "480", "-o", filepath.Join(dir, "life.gif")}},
	)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				m := measureArena(b, c.args)
				b.ReportMetric(m.wall.Seconds(), "s/run")
				b.ReportMetric(float64(m.peak)/(1<<20), "peak-MB")
				for i, side := range []string{"p1", "p2"} {
					if m.maxMove[i] > 0 {
						b.ReportMetric(m.maxMove[i], side+"-max-ms/move")
						b.ReportMetric(m.avgMove[i], side+"-avg-ms/move")
					}
				}
				b.Logf("%s: %s", c.name, m.summary)
			}
		})
	}
}

// measured is what one run of arena cost.
type measured struct {
	wall             time.Duration
	peak             int64 // bytes
	maxMove, avgMove [2]float64
	summary          string
}

// measureArena runs this test binary as arena (TestMain) with args and
// -json where the command has it.
func measureArena(b *testing.B, args []string) measured {
	b.Helper()
	if args[0] == "play" || args[0] == "autoplay" {
		args = append(args, "-json")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	m := measured{wall: time.Since(start)}
	if err != nil {
		b.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	m.peak = peakMemory(cmd.ProcessState)
	var res struct {
		Summary string     `json:"summary"`
		AvgMs   [2]float64 `json:"think_avg_ms"`
		MaxMs   [2]float64 `json:"think_max_ms"`
		Bots    []struct {
			AvgMs float64 `json:"avg_ms"`
			MaxMs float64 `json:"max_ms"`
		} `json:"bots"`
	}
	m.summary = strings.TrimSpace(out.String() + errb.String())
	if json.Unmarshal([]byte(out.String()), &res) == nil {
		m.avgMove, m.maxMove = res.AvgMs, res.MaxMs
		for i, bt := range res.Bots {
			if i < 2 {
				m.avgMove[i], m.maxMove[i] = bt.AvgMs, bt.MaxMs
			}
		}
		if res.Summary != "" {
			m.summary = res.Summary
		}
	}
	return m
}

// pathGraph is a path of n nodes from 0 to n-1: the longest cheapest
// path a graph file can hold.
func pathGraph(n int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "Starting node: 0\nEnding node: %d\nEdges:\n", n-1)
	for i := range n - 1 {
		fmt.Fprintf(&s, "%d %d\n", i, i+1)
	}
	return s.String()
}

// denseGraph is m random distinct edges on n nodes.
func denseGraph(n, m int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0))
	seen := map[[2]int]bool{}
	var s strings.Builder
	fmt.Fprintf(&s, "Starting node: 0\nEnding node: %d\nEdges:\n", n-1)
	for len(seen) < m {
		a, c := r.IntN(n), r.IntN(n)
		if a == c || seen[[2]int{min(a, c), max(a, c)}] {
			continue
		}
		seen[[2]int{min(a, c), max(a, c)}] = true
		fmt.Fprintf(&s, "%d %d\n", a, c)
	}
	return s.String()
}

// lifeConfig is the 128x128 preset's game on a rows x cols board for as many
// iterations as the 2^36 cell-generation limit allows.
func lifeConfig(rows, cols int) string {
	iters := (1 << 36) / (rows * cols)
	return fmt.Sprintf(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": %d, "cols": %d, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": %d, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`, rows, cols, iters)
}

// gridMap is a course input of rows x cols states, each bordering the
// states beside it.
func gridMap(rows, cols int) string {
	name := func(r, c int) string { return fmt.Sprintf("S%03d%03d", r, c) }
	var s strings.Builder
	fmt.Fprintf(&s, "R, G, B, Y\n%s: R-1, %s: G-2\n3\nR: 10, G: 7, B: 5, Y: 2\nR: 2, G: 5, B: 10, Y: 7\n", name(0, 0), name(0, 1))
	for r := range rows {
		for c := range cols {
			var nb []string
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if rr, cc := r+d[0], c+d[1]; rr >= 0 && rr < rows && cc >= 0 && cc < cols {
					nb = append(nb, name(rr, cc))
				}
			}
			fmt.Fprintf(&s, "%s: %s\n", name(r, c), strings.Join(nb, ", "))
		}
	}
	return s.String()
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}
