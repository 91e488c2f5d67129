package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/bradleyterry"
)

// ladderResults is a term's ladder: students with versions each, the
// latest ranked, games pairs of versions met mostly among the latest, as
// the scheduler plays them.
func ladderResults(r *rand.Rand, students, versions, games int) bradleyterry.Results {
	n := students * versions
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = r.NormFloat64()
	}
	res := bradleyterry.Results{N: n}
	at := map[[2]int]int{}
	for range games / 2 { // pairs of games
		i, j := r.IntN(n), r.IntN(n)
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		k, ok := at[[2]int{i, j}]
		if !ok {
			k = len(res.Pairs)
			at[[2]int{i, j}] = k
			res.Pairs = append(res.Pairs, bradleyterry.PairResult{I: i, J: j})
		}
		res.Pairs[k].Games += 2
		for range 2 {
			if r.Float64() < bradleyterry.Logistic(strength[i]-strength[j]) {
				res.Pairs[k].PointsI++
			}
		}
	}
	return res
}

// BenchmarkFit fits 50,000 games of 300 students with 5 versions each,
// and the intervals of the 300 ranked versions, as the leaderboard does,
// and reports the time against the promise: under a second.
func BenchmarkFit(b *testing.B) {
	res := ladderResults(rand.New(rand.NewPCG(3, 4)), 300, 5, 50000)
	var took time.Duration
	for b.Loop() {
		start := time.Now()
		f := bradleyterry.New(res)
		for i := 0; i < res.N; i += 5 {
			f.SE(i)
		}
		took += time.Since(start)
	}
	b.ReportMetric(float64(took)/float64(b.N)/float64(time.Second), "of-the-1s-limit")
	b.ReportMetric(float64(len(res.Pairs)), "pairs")
}

// simLadder is a ladder simulated without a store: students of known
// strengths, every one's single version ranked, the games played by the
// model's own probabilities. It holds a snapshot as the store makes one
// for the scheduler, so that the scheduler's own plan picks the pairs,
// a batch at a time as a ladder's workers play them.
type simLadder struct {
	r        *rand.Rand
	strength []float64 // natural-log strengths
	sn       *snapshot
	res      bradleyterry.Results
	at       map[[2]int]int
	games    int
	students int // the first entrants; the rest are refused versions, which never play
}

func newSim(seed uint64, n int, spread float64, refused int) *simLadder {
	s := &simLadder{r: rand.New(rand.NewPCG(seed, 7)), at: map[[2]int]int{}, students: n}
	var vs []Version
	for i := range n {
		s.strength = append(s.strength, s.r.NormFloat64()*spread/bradleyterry.EloScale)
		vs = append(vs, Version{ID: int64(i + 1), Student: fmt.Sprintf("s%03d", i), State: Ready})
	}
	for i := range refused { // other students, whose only version was refused at its check
		vs = append(vs, Version{ID: int64(n + i + 1), Student: fmt.Sprintf("r%03d", i), State: Refused})
	}
	s.sn = newSnapshot(vs)
	s.res.N = n + refused
	s.sn.fit = bradleyterry.New(s.res)
	return s
}

// play plays a pair of games between i and j (both seats).
func (s *simLadder) play(i, j int) {
	for seat := range 2 {
		a, b := i, j
		if seat == 1 {
			a, b = j, i
		}
		pts := 0.0
		if s.r.Float64() < bradleyterry.Logistic(s.strength[a]-s.strength[b]) {
			pts = 1
		}
		lo, hi := a, b
		if lo > hi {
			lo, hi, pts = hi, lo, 1-pts
		}
		k, ok := s.at[[2]int{lo, hi}]
		if !ok {
			k = len(s.res.Pairs)
			s.at[[2]int{lo, hi}] = k
			s.res.Pairs = append(s.res.Pairs, bradleyterry.PairResult{I: lo, J: hi})
		}
		s.res.Pairs[k].Games++
		s.res.Pairs[k].PointsI += pts
	}
	s.sn.met[ordered(i, j)] += 2
	s.sn.count[int64(i+1)] += 2
	s.sn.count[int64(j+1)] += 2
	s.games += 2
}

// refit fits the games played, from the last fit, as the store does.
func (s *simLadder) refit() {
	s.sn.fit = bradleyterry.From(s.res, s.sn.fit.Strengths())
}

// schedulerBatch plays a batch of pairs the ladder's plan chooses.
func (s *simLadder) schedulerBatch(pairs int) {
	clear(s.sn.pending)
	for _, p := range s.sn.plan(0, pairs) { // width 0: everyone needs games
		s.play(p[0], p[1])
	}
	s.refit()
}

// randomBatch plays a batch of pairs drawn at random.
func (s *simLadder) randomBatch(pairs int) {
	n := s.students
	for range pairs {
		i := s.r.IntN(n)
		s.play(i, (i+1+s.r.IntN(n-1))%n)
	}
	s.refit()
}

// top10Tau is Kendall's tau between the fitted order and the true order
// of the ten strongest students.
func (s *simLadder) top10Tau() float64 {
	idx := make([]int, s.students)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.strength[idx[a]] > s.strength[idx[b]] })
	top := idx[:10]
	agree := 0
	for a := range top {
		for b := a + 1; b < len(top); b++ {
			if s.sn.fit.Strength(top[a]) > s.sn.fit.Strength(top[b]) {
				agree++
			} else {
				agree--
			}
		}
	}
	return float64(agree) / 45
}

// gamesToStable plays batches until each student has played perStudent
// games on average, and returns the games per student from which the top
// ten's Kendall tau stayed at 0.9 or more to the end, and whether it did.
func (s *simLadder) gamesToStable(batch func(), perStudent int) (float64, bool) {
	stableFrom := -1
	for s.games < perStudent*s.students {
		batch()
		if s.top10Tau() < 0.9 {
			stableFrom = -1
		} else if stableFrom < 0 {
			stableFrom = s.games
		}
	}
	if stableFrom < 0 {
		return float64(perStudent), false
	}
	return float64(stableFrom) / float64(s.students), true
}

// BenchmarkSchedulerStableTop10 compares the ladder's scheduler with
// random pairing on simulated ladders of 40 students (strengths spread
// 200 Elo, the truth known), pairs played in batches of 8 as a ladder's
// workers take them: the games per student until the top ten's order
// (Kendall's tau against the true order) is at 0.9 or more for good,
// averaged over seeds, and their ratio. The truth stands in for the
// issue's 1,000-game round robin: it is that round robin's limit. A run
// never stable counts as its length, which flatters the loser; how many
// were is reported.
func BenchmarkSchedulerStableTop10(b *testing.B) {
	// Ten more students' only versions were refused at their checks: they
	// are in the ladder's versions, and play no game.
	const students, refused, perStudent, seeds, batch = 40, 10, 1000, 16, 8
	var sched, random float64
	var schedOpen, randomOpen int
	for b.Loop() {
		sched, random, schedOpen, randomOpen = 0, 0, 0, 0
		for seed := range uint64(seeds) {
			s := newSim(seed, students, 200, refused)
			g, ok := s.gamesToStable(func() { s.schedulerBatch(batch) }, perStudent)
			sched += g
			if !ok {
				schedOpen++
			}
			r := newSim(seed, students, 200, refused)
			g, ok = r.gamesToStable(func() { r.randomBatch(batch) }, perStudent)
			random += g
			if !ok {
				randomOpen++
			}
		}
	}
	b.ReportMetric(sched/seeds, "games/student-scheduler")
	b.ReportMetric(random/seeds, "games/student-random")
	b.ReportMetric(sched/random, "scheduler/random")
	b.ReportMetric(float64(schedOpen), "never-stable-scheduler")
	b.ReportMetric(float64(randomOpen), "never-stable-random")
}

// termAt300 is a term's ladder: 300 students with 5 versions each and
// 50,000 games played; it returns it with its tokens, by name.
func termAt300(b *testing.B) (*Store, map[string]string) {
	st, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	g, _ := match.Lookup("colosseum")
	cfg, _ := json.Marshal(g.Presets()[0].Config)
	st.Setup("colosseum", "course", cfg)
	ctx := context.Background()
	var names []string
	for i := range 300 {
		names = append(names, fmt.Sprintf("s%03d", i))
	}
	issued, _ := st.IssueTokens(ctx, NamesRoster(names...))
	tokens := map[string]string{}
	for _, is := range issued {
		tokens[is.Name] = is.Token
	}
	template, _ := gobot.Template("colosseum")
	up, err := ReadUpload("bot.go", []byte(template), "")
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	err = st.tx(ctx, func(t *sql.Tx) error {
		for v := range 5 {
			for _, n := range names {
				if _, err := t.Exec(`INSERT INTO versions (student, number, submitted, kind, command, digest, size, files, state) VALUES (?, ?, 0, 'go', '', 'x', 1, ?, 'ready')`, n, v+1, up.Files); err != nil {
					return err
				}
			}
		}
		for range 50000 {
			a, c := 1+r.Int64N(1500), 1+r.Int64N(1500)
			if a == c {
				continue
			}
			res := play.Result{Outcome: match.Outcome{Winner: match.Sides[r.IntN(2)]}, Turns: 1}
			b, _ := json.Marshal(res)
			if _, err := t.Exec(`INSERT INTO games (kind, p1, p2, seed, state, result, points1, finished) VALUES ('ladder', ?, ?, 1, 'done', ?, ?, 1)`,
				a, c, string(b), res.Points(match.P1)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st, tokens
}

// PageLimit is what a page of the ladder may take to make at a term's
// size (300 students, 50,000 games): a second, the time after which a
// reader's flow of thought is lost (Nielsen's limits).
const PageLimit = time.Second

// BenchmarkPagesAt300 makes the pages a course reads most at a term's
// size, as their readers ask for them over HTTP: the leaderboard, a
// student's page (their 167 games of 50,000, paged) and the staff page,
// each as a share of PageLimit; the leaderboard (on its own and on the
// staff page) made afresh, as after a write, and kept (see Standings).
func BenchmarkPagesAt300(b *testing.B) {
	st, tokens := termAt300(b)
	ts := httptest.NewServer((&Server{Store: st, Width: 1e9}).Handler())
	defer ts.Close()
	get := func(path, token string) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %s", path, res.Status)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, p := range []struct {
		name, path, who string
		made            int // 0: the leaderboard kept; 1: made after 20 more games; 2: made, with nothing more
	}{
		{"leaderboard-after-20-games", "/", "s007", 1},
		{"leaderboard-kept", "/", "s007", 0},
		{"student", "/students/s007?page=3", "s007", 0},
		{"staff-after-20-games", "/staff?kind=ladder&page=2", Staff, 1},
		{"staff-kept", "/staff?kind=ladder&page=2", Staff, 0},
	} {
		b.Run(p.name, func(b *testing.B) {
			var start time.Time
			var took time.Duration
			for b.Loop() {
				st.standings.mu.Lock()
				switch p.made {
				case 2:
					st.standings.st = nil
				case 1:
					st.standings.st = nil
					for range 20 {
						a, c := 1201+r.Int64N(300), 1201+r.Int64N(300) // between the latest versions
						if a != c {
							st.db.Exec(`INSERT INTO games (kind, p1, p2, seed, state, result, points1, finished) VALUES ('ladder', ?, ?, 1, 'done', '{}', ?, 1)`, a, c, float64(r.IntN(2)))
						}
					}
				}
				st.standings.mu.Unlock()
				start = time.Now()
				get(p.path, tokens[p.who])
				took += time.Since(start)
			}
			per := took / time.Duration(b.N)
			b.ReportMetric(float64(per)/float64(time.Millisecond), "ms-a-page")
			b.ReportMetric(float64(per)/float64(PageLimit), "of-the-limit")
		})
	}
}

// BenchmarkScheduleAt300 is the scheduler's cost on a term's ladder, 300
// students with 5 versions each and 50,000 games played, as a share of
// the games it schedules: the time to queue a batch of pairs (its query,
// the fit and the intervals), per game queued, against the time of one
// ladder game measured in the same run, two go: templates in their boxes
// on Colosseum's course board, the median of three (a Python program's
// game takes longer).
func BenchmarkScheduleAt300(b *testing.B) {
	st, _ := termAt300(b)
	ctx := context.Background()
	// One game, as a worker plays it.
	lease := &Lease{Game: Game{Seats: [2]int64{1, 2}, Seed: 1}}
	work, err := st.Work(ctx, lease)
	if err != nil {
		b.Fatal(err)
	}
	var games []time.Duration
	for range 3 {
		start := time.Now()
		if o := (Player{Dir: b.TempDir()}).Play(ctx, work); o.Failure != "" {
			b.Fatal(o.Failure)
		}
		games = append(games, time.Since(start))
	}
	slices.Sort(games)
	game := games[1] // the median
	var took time.Duration
	queued := 0
	for b.Loop() {
		st.db.Exec(`DELETE FROM games WHERE state = 'queued'`)
		start := time.Now()
		n, err := st.Schedule(ctx, 1, 8)
		if err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		queued += 2 * n
	}
	perGame := took / time.Duration(max(queued, 1))
	b.ReportMetric(float64(perGame)/float64(time.Millisecond), "ms-per-game-scheduled")
	b.ReportMetric(float64(game)/float64(time.Millisecond), "ms-a-game")
	b.ReportMetric(float64(perGame)/float64(game), "of-a-game")
}

// BenchmarkReportsBesideGames plays a ladder's games on two local workers
// (this machine's cores, each game's programs in their boxes): alone, and
// with the ladder's reporter working beside them through the reports of
// every game, in its process at the lowest priority (ReportIn, as arena
// ladder serve runs it). It
// reports the games' rate with the reporter as a share of their rate
// without (1: the reports delay no game), and the reports made while the
// games were played. The programs are the course's: the Go template and
// the Python agent with NumPy.
func BenchmarkReportsBesideGames(b *testing.B) {
	const games = 24 // a phase's
	for b.Loop() {
		st, _ := newLadder(b, "alice", "bob")
		ctx := context.Background()
		b.Setenv("ARENA_PYTHON", pythonWith(b, "import numpy"))
		template, _ := gobot.Template("colosseum")
		agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
		if err != nil {
			b.Fatal(err)
		}
		for _, u := range []struct {
			student, name, command string
			data                   []byte
		}{
			{"alice", "bot.go", "", []byte(template)},
			{"bob", "agent.zip", "py:student_agent.py", zipOf(b, "agent", map[string][]byte{"student_agent.py": agent})},
		} {
			up, err := ReadUpload(u.name, u.data, u.command)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.Submit(ctx, u.student, up); err != nil {
				b.Fatal(err)
			}
		}
		workCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		dir := b.TempDir()
		for k := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				src := Local{Store: st, Name: fmt.Sprintf("local-%d", k), Width: 1, Queued: 2}
				Player{Dir: dir}.Serve(workCtx, src, 20*time.Millisecond, nil, func(string) {})
			}()
		}
		done := func() int {
			var n int
			st.db.QueryRow(`SELECT count(*) FROM games WHERE state = 'done' AND kind = 'ladder'`).Scan(&n)
			return n
		}
		reports := func() int {
			var n int
			st.db.QueryRow(`SELECT count(*) FROM reports`).Scan(&n)
			return n
		}
		phase := func() time.Duration { // the time the next games take
			from := done()
			for done() == from { // a whole game's time from its start
				time.Sleep(5 * time.Millisecond)
			}
			start, from := time.Now(), done()
			for done() < from+games {
				time.Sleep(5 * time.Millisecond)
			}
			return time.Since(start)
		}
		// Off, on, on, off: a drift over the run (the store grows) weighs
		// on both alike.
		var alone, beside time.Duration
		made := 0
		for _, on := range []bool{false, true, true, false} {
			if !on {
				alone += phase()
				continue
			}
			repCtx, stopReports := context.WithCancel(ctx)
			finished := make(chan struct{})
			go func() {
				ReportIn(repCtx, func() *exec.Cmd {
					cmd := exec.Command(os.Args[0], "-test.run=^$")
					cmd.Env = append(os.Environ(), "ARENA_LADDER_REPORTER="+st.Dir(), "ARENA_LADDER_PROGRAMS="+dir)
					return cmd
				}, func(s string) { b.Log(s) })
				close(finished)
			}()
			before := reports()
			beside += phase()
			made += reports() - before
			stopReports()
			<-finished
		}
		stop()
		wg.Wait()
		// With the games stopped, the reporter has the machine: it reports.
		repCtx, stopReports := context.WithCancel(ctx)
		go ReportIn(repCtx, func() *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "ARENA_LADDER_REPORTER="+st.Dir(), "ARENA_LADDER_PROGRAMS="+dir)
			return cmd
		}, func(s string) { b.Log(s) })
		idleFrom, start, guard := reports(), time.Now(), time.Now().Add(10*time.Minute)
		for reports() < idleFrom+2 {
			if time.Now().After(guard) {
				b.Fatalf("the reporter made %d reports in 10 minutes of an idle machine", reports()-idleFrom)
			}
			time.Sleep(10 * time.Millisecond)
		}
		stopReports()
		b.ReportMetric(time.Since(start).Seconds()/2, "s/report-idle")
		b.ReportMetric(alone.Seconds()/beside.Seconds(), "rate-with/without")
		b.ReportMetric(float64(made), "reports-meanwhile")
		b.ReportMetric(alone.Seconds()/(2*games), "s/game-alone")
	}
}
