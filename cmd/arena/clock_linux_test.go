package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// agentWith is the course's random agent with code put at the start of
// its step, written to a folder of its own.
func agentWith(t *testing.T, name, code string) string {
	t.Helper()
	src, err := os.ReadFile("testdata/comp424/agents/random_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	head := "    def step(self, chess_board, my_pos, adv_pos, max_step):\n"
	text := strings.Replace(string(src), head, head+code, 1)
	if text == string(src) {
		t.Fatal("the random agent's step was not found")
	}
	dir := filepath.Join(t.TempDir(), name)
	os.Mkdir(dir, 0o755)
	file := filepath.Join(dir, name+".py")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// On a CPU clock, a program that keeps two processes burning both cores
// takes nothing from its opponent: it is stopped while its opponent
// moves (its burners report how far they got between its moves, against
// how far they get in a tenth of a second of its own move, on the same
// machine under the same load: no further), and the opponent, which
// thinks for 0.7 s of CPU time a move under a 1 s clock, is charged that
// and plays every move as its own, however loaded the machine (on the
// wall clock, with both cores taken, its moves came late and were
// replaced).
func TestCPUClockStopsTheSideNotOnMove(t *testing.T) {
	py := python(t, true)
	burner := agentWith(t, "burner", `        import os, sys
        if not hasattr(self, "burned"):
            r, w = os.pipe()
            for _ in range(2):
                if os.fork() == 0:
                    os.close(r)
                    n = 0
                    while True:
                        n += 1
                        if n % 200000 == 0:
                            os.write(w, b"x")
            os.close(w)
            os.set_blocking(r, False)
            self.burned = r
        else:
            import time
            def drain():
                try:
                    return len(os.read(self.burned, 1 << 16))
                except BlockingIOError:
                    return 0
            got = drain()  # since its last move: while the thinker moved
            time.sleep(0.1)
            print("burned", got, drain(), file=sys.stderr, flush=True)
`)
	thinker := agentWith(t, "thinker", `        import time
        t0 = time.process_time()
        while time.process_time() - t0 < 0.7:
            pass
`)
	g, err := match.Lookup("colosseum")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.LoadConfig("clock test", []byte(`{"variant":"2023","size":12,"first_move_ms":30000,"move_ms":1000}`))
	if err != nil {
		t.Fatal(err)
	}
	// The agents move at random (NumPy's unseeded generator): a game
	// too short to tell (fewer than 3 thinker's moves or 2 burner's
	// reports) is followed by another, on the next seed, up to five.
	var rec *play.Record
	var burned []string // each report: while the thinker moved / in 0.1 s of their own move
	for seed := uint64(3); seed < 8; seed++ {
		setup := play.Setup{Game: g, Config: cfg, Seed: seed,
			Players: [2]play.Spec{{Name: "py", Command: burner}, {Name: "py", Command: thinker}},
			Hosting: play.Hosting{Python: py, CPUClock: true}}
		var err error
		if rec, err = play.Play(context.Background(), setup); err != nil {
			t.Fatal(err)
		}
		if rec.Clock != play.CPUClock {
			t.Errorf("the record's clock is %q", rec.Clock)
		}
		moves, reports := 0, 0
		burned = nil
		for k, turn := range rec.Turns {
			if turn.Replaced[1] != "" {
				t.Errorf("seed %d, turn %d: the thinker's move was replaced: %s", seed, k, turn.Replaced[1])
			}
			if turn.Actions[1] != nil {
				moves++
				if d := turn.Think[1]; d < 690*time.Millisecond || d > time.Second {
					t.Errorf("seed %d, turn %d: the thinker was charged %s for 0.7 s of CPU time", seed, k, d)
				}
			}
			if n := turn.Notes[0].Get(); n != nil {
				for _, l := range n.Said {
					var got, running int
					if _, err := fmt.Sscanf(l, "burned %d %d", &got, &running); err == nil {
						reports++
						burned = append(burned, fmt.Sprintf("%d/%d", got, running))
						// Running on through the thinker's 0.7 s, the burners
						// would report seven times what they report in a
						// tenth of a second of their own move; stopped, what
						// they got around the moves' edges, a few hundredths
						// of a second, however busy the machine (both counts
						// slow down alike).
						if got > 2*running && got > 4 {
							t.Errorf("seed %d, turn %d: the burners ran while the thinker moved (%d reports, %d in 0.1 s of their own move)", seed, k, got, running)
						}
					}
				}
			}
		}
		if moves >= 3 && reports >= 2 {
			break
		}
		if seed == 7 {
			t.Errorf("five games too short to tell: the last had %d moves of the thinker's and %d of the burner's reports", moves, reports)
		}
	}
	rp, _ := rec.Replay()
	b, _ := json.Marshal(rp)
	if !strings.Contains(string(b), `"clock":"cpu"`) {
		t.Error("the replay does not say its clock was the CPU's")
	}
	t.Logf("seed %d: %d turns, the thinker's moves charged %v", rec.Seed, len(rec.Turns), func() (out []string) {
		for _, turn := range rec.Turns {
			if turn.Actions[1] != nil {
				out = append(out, turn.Think[1].Round(time.Millisecond).String())
			}
		}
		return
	}())
	t.Logf("the burners' reports, while the thinker moved / in 0.1 s of their own move: %v", burned)
}

// A course's accommodation stretches one side's clock: an agent that
// thinks 1.2 s of CPU time a move under the course's 1 s is late on every
// move, and in time on each with its clock stretched 1.5x, which its
// replay keeps.
func TestClockFactorStretchesOneSide(t *testing.T) {
	py := python(t, true)
	slow := agentWith(t, "slow", `        import time
        t0 = time.process_time()
        while time.process_time() - t0 < 1.2:
            pass
`)
	g, _ := match.Lookup("colosseum")
	cfg, err := g.LoadConfig("clock test", []byte(`{"variant":"2023","size":6,"first_move_ms":1000,"move_ms":1000}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, factor := range []float64{0, 1.5} {
		setup := play.Setup{Game: g, Config: cfg, Seed: 3, ClockFactor: [2]float64{factor, 0},
			Players: [2]play.Spec{{Name: "py", Command: slow}, {Name: "random"}},
			Hosting: play.Hosting{Python: py, CPUClock: true}}
		rec, err := play.Play(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		late, moves := 0, 0
		for _, turn := range rec.Turns {
			if turn.Actions[0] != nil || turn.Replaced[0] != "" {
				moves++
			}
			if turn.Late[0] {
				late++
			}
		}
		rp, _ := rec.Replay()
		b, _ := json.Marshal(rp)
		switch {
		case factor == 0 && late != moves:
			t.Errorf("on the course's clock, %d of its %d moves were late", late, moves)
		case factor == 1.5 && late != 0:
			t.Errorf("with its clock stretched 1.5x, %d of its %d moves were late", late, moves)
		case factor == 1.5 && !strings.Contains(string(b), `"clock_factor":[1.5,0]`):
			t.Errorf("the replay does not keep the factor: %.300s", b)
		}
		t.Logf("factor %g: %d of %d moves late", factor, late, moves)
	}
}
