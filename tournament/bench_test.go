package tournament

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
)

// benchPlan is a two-entrant match of Colosseum games on 6x6 boards,
// strong:nodes=20000 (or BENCH_NODES) against greedy: about 0.15 s a
// game here, short for a class tournament (a game of bots at the course's
// 2 s a move lasts a minute).
func benchPlan(b *testing.B, games int) *Plan {
	g, _ := match.Lookup("colosseum")
	p, _ := match.LookupPreset(g, "6")
	cfg, _ := json.Marshal(p.Config)
	pl := &Plan{Game: "colosseum", Config: cfg, Seed: 1, Format: RoundRobin, Rounds: games / 2,
		Entrants: []Entrant{{"a", "strong:nodes=" + benchNodes}, {"b", "greedy"}}}
	if err := pl.Check(); err != nil {
		b.Fatal(err)
	}
	return pl
}

// playPlain plays the plan's games as autoplay does (play.Play on jobs
// goroutines), keeping nothing: the reference the runner is measured
// against.
func playPlain(ctx context.Context, p *Plan, jobs int) error {
	next := make(chan int)
	var wg sync.WaitGroup
	var first error
	var mu sync.Mutex
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				s, err := p.Setup(p.At(k))
				if err == nil {
					_, err = play.Play(ctx, s)
				}
				if err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}
		}()
	}
	for k := range p.Games() {
		next <- k
	}
	close(next)
	wg.Wait()
	return first
}

// BenchmarkRunner plays the same 20 games with the tournament runner and
// with a plain loop (what autoplay does), on 1 core and on all, in turn
// one first and then the other: the ratio is what the runner adds;
// games/s is the throughput. Short games vary by several percent from run
// to run with the garbage collector's timing.
func BenchmarkRunner(b *testing.B) {
	const games = 20
	for _, jobs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("j=%d", jobs), func(b *testing.B) {
			p := benchPlan(b, games)
			var plain, runner float64
			for i := range b.N {
				for turn := range 2 {
					start := nowNano()
					if (i+turn)%2 == 0 {
						if err := playPlain(b.Context(), p, jobs); err != nil {
							b.Fatal(err)
						}
						plain += float64(nowNano() - start)
						continue
					}
					if _, err := Run(b.Context(), p, Options{Dir: b.TempDir(), Jobs: jobs}); err != nil {
						b.Fatal(err)
					}
					runner += float64(nowNano() - start)
				}
			}
			b.ReportMetric(runner/plain, "runner/plain")
			b.ReportMetric(float64(games*b.N)/(runner/1e9), "games/s")
			b.ReportMetric(float64(games*b.N)/(plain/1e9), "plain-games/s")
		})
	}
}

// BenchmarkJournal streams a journal of 10,000 and of 100,000 games into
// standings, sampling the live heap as it goes: it stays flat, whatever
// the number of games.
func BenchmarkJournal(b *testing.B) {
	for _, games := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(games), func(b *testing.B) {
			p := benchPlan(b, games)
			dir := b.TempDir()
			writeJournal(b, p, dir)
			var peak uint64
			for range b.N {
				runtime.GC()
				var ms runtime.MemStats
				s := NewStandings(p)
				n := 0
				if err := Entries(dir, func(e Entry) error {
					if n++; n%5000 == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
					}
					return s.Add(e)
				}); err != nil {
					b.Fatal(err)
				}
				if s.Played != games {
					b.Fatalf("%d games read", s.Played)
				}
			}
			st, _ := os.Stat(filepath.Join(dir, JournalFile))
			b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-journal")
		})
	}
}

// writeJournal writes a journal of every game of p, with made-up results.
func writeJournal(b *testing.B, p *Plan, dir string) {
	d, err := safefile.OpenDir(dir, true)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	if err := prepareDir(d, p); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, JournalFile))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for k := range p.Games() {
		g := p.At(k)
		res := &play.Result{Outcome: match.Outcome{Winner: match.Side(k % 2), Scores: [2]match.Score{match.Count(20), match.Count(16)}, Reason: "regions of 20 and 16 cells"}, Turns: 30}
		e := Entry{Index: k, ID: g.ID(p), Seed: g.Seed, Seats: [2]string{p.Entrants[g.Seats[0]].Name, p.Entrants[g.Seats[1]].Name},
			Result: res, Moves: [2]int{15, 15}, ThinkMs: [2]float64{30.5, 2.25}, MaxMs: [2]float64{4.5, 0.5}, Replay: "replays/" + g.ID(p) + ".json"}
		line, _ := json.Marshal(e)
		w.Write(append(line, '\n'))
	}
	w.Flush()
	f.Close()
}

func nowNano() int64 { return time.Now().UnixNano() }

var benchNodes = func() string {
	if v := os.Getenv("BENCH_NODES"); v != "" {
		return v
	}
	return "20000"
}()
