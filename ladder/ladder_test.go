package ladder

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	_ "github.com/arena-playground/arena/players"          // the kinds of player
	_ "github.com/arena-playground/arena/players/gointerp" // this binary interprets go: bots, as arena's does
)

// newLadder is a ladder of Colosseum on the 6x6 board, with the roster
// given, its tokens issued.
func newLadder(t testing.TB, names ...string) (*Store, map[string]string) {
	t.Helper()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g, _ := match.Lookup("colosseum")
	six, _ := match.LookupPreset(g, "6")
	cfg, _ := json.Marshal(six.Config)
	if err := st.Setup("colosseum", "6", cfg); err != nil {
		t.Fatal(err)
	}
	issued, err := st.IssueTokens(context.Background(), NamesRoster(names...))
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]string{}
	for _, is := range issued {
		tokens[is.Name] = is.Token
	}
	return st, tokens
}

// pythonWith finds a Python that runs check.
func pythonWith(t testing.TB, check string) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", check).Run() == nil {
			return p
		}
	}
	t.Fatalf("no python3 that can %q: make deps installs python3 and python3-numpy", check)
	return ""
}

// zipOf is a zip archive of files, under a folder as zip makes of one.
func zipOf(t testing.TB, folder string, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(folder + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.Close()
	return buf.Bytes()
}

// Three students submit: a go: file (the template), a Colosseum agent
// for py: (the course's student agent, as a zip of its folder) and a
// Python program that dies at once. The first two pass their check game
// and play the ladder, in pairs of games on one seed; the third is
// refused with its reason. The standings rate the two over their games.
func TestLadderChecksPlaysAndRanks(t *testing.T) {
	st, tokens := newLadder(t, "alice", "bob", "carol")
	ctx := context.Background()
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import numpy"))
	for name, tok := range tokens {
		id, err := st.Who(ctx, tok)
		if err != nil || name != Staff && name != Worker && (id.Role != Student || id.Student != name) || name == Staff && id.Role != Staff {
			t.Fatalf("%s's token names %+v (%v)", name, id, err)
		}
	}
	if _, err := st.Who(ctx, strings.Repeat("x", 32)); err != ErrNoToken {
		t.Errorf("a made-up token: %v", err)
	}
	template, _ := gobot.Template("colosseum")
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	submit := func(student, name string, data []byte, command string) Version {
		t.Helper()
		u, err := ReadUpload(name, data, command)
		if err != nil {
			t.Fatal(err)
		}
		v, err := st.Submit(ctx, student, u)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	submit("alice", "bot.go", []byte(template), "")
	submit("bob", "agent.zip", zipOf(t, "agent", map[string][]byte{"student_agent.py": agent}), "py:student_agent.py")
	submit("carol", "crash.zip", zipOf(t, "crash", map[string][]byte{"crash.py": []byte("import sys\nsys.exit('carol gives up')\n")}), "python3 crash.py")

	workCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := Local{Store: st, Name: "local-" + string(rune('a'+k)), Width: 1e9, Queued: 2}
			Player{Dir: filepath.Join(t.TempDir(), "programs")}.Serve(workCtx, src, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
		}()
	}
	defer func() { stop(); wg.Wait() }()
	// It waits for the games, however long this machine takes; a guard
	// ends a ladder that stalls instead of holding the suite.
	guard := time.Now().Add(10 * time.Minute)
	var s *Standings
	for {
		if s, err = st.Standings(ctx); err != nil {
			t.Fatal(err)
		}
		if s.Checking == 0 && len(s.Ranked) == 2 && s.Played >= 2*2*MinPairs/2 && s.Ranked[0].Games >= 2*MinPairs && s.Ranked[1].Games >= 2*MinPairs {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("the ladder stalled: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	wg.Wait()
	if len(s.Refused) != 1 || s.Refused[0].Name != "carol" || !strings.Contains(s.Refused[0].Reason, "carol gives up") {
		t.Errorf("refused: %+v", s.Refused)
	}
	for _, r := range s.Ranked {
		if r.Wins+r.Draws+r.Losses != r.Games || !(r.Low < r.Rating && r.Rating < r.High) {
			t.Errorf("a ranked line: %+v", r)
		}
	}
	games, err := st.Games(ctx, LadderGame, "done")
	if err != nil {
		t.Fatal(err)
	}
	bySeed := map[uint64][]Game{}
	for _, g := range games {
		bySeed[g.Seed] = append(bySeed[g.Seed], g)
	}
	for seed, pair := range bySeed {
		if len(pair) == 2 && (pair[0].Seats[0] != pair[1].Seats[1] || pair[0].Seats[1] != pair[1].Seats[0]) {
			t.Errorf("seed %d's games are not one pairing in both seats: %+v", seed, pair)
		}
	}
	replay, err := st.Replay(ctx, games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := play.LoadReplay("replay", replay); err != nil {
		t.Errorf("a game's replay: %v", err)
	}
	checkLessons(t, st, tokens, "alice", "bob")
	checkSuite(t, st, tokens, "alice", submit("alice", "bot.go", []byte(template), ""), template)
	t.Logf("%d games; %s %+.0f [%+.0f, %+.0f] %d-%d-%d; %s %+.0f [%+.0f, %+.0f] %d-%d-%d; refused %s: %s", s.Played,
		s.Ranked[0].Name, s.Ranked[0].Rating, s.Ranked[0].Low, s.Ranked[0].High, s.Ranked[0].Wins, s.Ranked[0].Draws, s.Ranked[0].Losses,
		s.Ranked[1].Name, s.Ranked[1].Rating, s.Ranked[1].Low, s.Ranked[1].High, s.Ranked[1].Wins, s.Ranked[1].Draws, s.Ranked[1].Losses,
		s.Refused[0].Name, s.Refused[0].Reason)
}

// A version whose program is late once, in a game whose rules replace a
// late move (Colosseum's random walk), has paid for it in that game: its
// check passes, and the move is counted as replaced where the ladder
// keeps its games' tallies (the final's report counts them).
func TestOneLateMoveDoesNotRefuse(t *testing.T) {
	st, _ := newLadder(t, "alice")
	ctx := context.Background()
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import numpy"))
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/random_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	// Its second move thinks for 2.5 s of CPU time: past the course's 2 s.
	late := strings.Replace(string(agent), "    def step(self, chess_board, my_pos, adv_pos, max_step):\n",
		"    def step(self, chess_board, my_pos, adv_pos, max_step):\n"+
			"        import time\n        self.moves = getattr(self, 'moves', 0) + 1\n"+
			"        if self.moves == 2:\n            t0 = time.process_time()\n            while time.process_time() - t0 < 2.5:\n                pass\n", 1)
	u, err := ReadUpload("late.zip", zipOf(t, "late", map[string][]byte{"late_agent.py": []byte(late)}), "py:late_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Submit(ctx, "alice", u); err != nil {
		t.Fatal(err)
	}
	w, err := Local{Store: st, Name: "local-1", Width: 1e9, Queued: 1}.Next(ctx)
	if err != nil || w == nil || w.Kind != CheckGame {
		t.Fatalf("the check game: %+v %v", w, err)
	}
	o := Player{Dir: t.TempDir()}.Play(ctx, w)
	if err := st.Finish(ctx, w.Lease.Lease, o); err != nil {
		t.Fatal(err)
	}
	vs, _ := st.Versions(ctx, "alice")
	games, _ := st.Games(ctx, CheckGame, "done")
	if vs[0].State != Ready {
		t.Errorf("a version late once is %s: %s", vs[0].State, vs[0].Reason)
	}
	if len(games) != 1 || games[0].Tally == nil || games[0].Tally.Replaced[0] != 1 || !strings.Contains(games[0].Faults[0], "turn 2") {
		t.Errorf("the check game's late move is not counted: %+v %+v", games, games[0].Tally)
	}
	t.Logf("its check game: %s; %+v", games[0].Faults[0], games[0].Tally)
}

// A ladder on fair clocks gives the same results under load as idle:
// two students' agents, each thinking 0.3 s of CPU time a move under the
// course's clock of 0.4 s and moving as the position alone says, play
// their check games and a pair of ladder games idle, then again on a
// ladder of their own while two processes burn both cores. Every game's
// result is the same, and no move was late (on the wall clock, under the
// burners, their moves took longer than the clock).
func TestLadderUnderLoadGivesIdleResults(t *testing.T) {
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import numpy"))
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/random_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	// It thinks its 0.3 s, then goes nowhere and walls its k-th free side.
	think := func(k int) []byte {
		return []byte(strings.Replace(string(agent), "    def step(self, chess_board, my_pos, adv_pos, max_step):\n",
			"    def step(self, chess_board, my_pos, adv_pos, max_step):\n"+
				"        import time\n        t0 = time.process_time()\n        while time.process_time() - t0 < 0.3:\n            pass\n"+
				"        free = [d for d in range(4) if not chess_board[my_pos[0], my_pos[1], d]]\n"+
				"        return my_pos, free["+strconv.Itoa(k)+" % len(free)]\n", 1))
	}
	play := func() map[[2]int64][]float64 {
		st, _ := newLadder(t, "alice", "bob")
		cfg := `{"variant":"2023","size":6,"first_move_ms":400,"move_ms":400}`
		st.SetMeta("config", cfg)
		ctx := context.Background()
		for k, name := range []string{"alice", "bob"} {
			u, err := ReadUpload(name+".zip", zipOf(t, name, map[string][]byte{"student_agent.py": think(k)}), "py:student_agent.py")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Submit(ctx, name, u); err != nil {
				t.Fatal(err)
			}
		}
		results := map[[2]int64][]float64{}
		late := 0
		src := Local{Store: st, Name: "local-1", Width: 1e9, Queued: 2}
		for played := 0; played < 4; played++ { // two check games, a pair of ladder games
			w, err := src.Next(ctx)
			if err != nil || w == nil {
				t.Fatalf("game %d: %v", played, err)
			}
			o := (Player{Dir: t.TempDir()}).Play(ctx, w)
			if o.Failure != "" {
				t.Fatalf("game %d: %s", played, o.Failure)
			}
			if err := st.Finish(ctx, w.Lease.Lease, o); err != nil {
				t.Fatal(err)
			}
			late += o.Tally.Replaced[0] + o.Tally.Replaced[1]
			results[w.Lease.Game.Seats] = append(results[w.Lease.Game.Seats], o.Result.Points(0))
		}
		if late > 0 {
			t.Errorf("%d moves were late", late)
		}
		return results
	}
	idle := play()
	var burners []*exec.Cmd
	for range 2 {
		b := exec.Command("sh", "-c", "while :; do :; done")
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		burners = append(burners, b)
	}
	loaded := play()
	for _, b := range burners {
		b.Process.Kill()
		b.Wait()
	}
	if fmt.Sprint(idle) != fmt.Sprint(loaded) {
		t.Errorf("idle, the games gave %v; beside two burners, %v", idle, loaded)
	}
	t.Logf("the games' points for P1, by seats: %v", idle)
}
