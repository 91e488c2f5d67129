package gobot_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot/build"
)

// botFile writes a Colosseum bot whose Act has the given body.
func botFile(t *testing.T, body string) string {
	t.Helper()
	src := `package bot

import (
	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

var keep [][]byte

func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(colosseum.State)
	` + body + `
	return s.Moves(nil)[0], nil
}
`
	file := filepath.Join(t.TempDir(), "bot.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// botProcesses lists the processes of this binary other than this one
// (the bots' interpreters) and of the bot built from file with Go, still
// running.
func botProcesses(t *testing.T, file string) []int {
	t.Helper()
	self, _ := os.Executable()
	built := self
	if tc, err := build.Find(); err == nil {
		src, _ := os.ReadFile(file)
		if p, ok := tc.Cached(file, string(src), build.Native); ok {
			built = p
		}
	}
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe")); err == nil && (exe == self || exe == built) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestBotsThatMisbehave plays Colosseum with a bot written in Go that
// loops for ever, allocates without bound or panics: each costs the
// game's consequence for a late or crashing move (Colosseum replaces it
// with a random step), the reason says what happened, the match goes on
// to its end (each move starting the bot's process again), and no
// process of it is left running: compiled with Go and interpreted, each
// with its own words for where a panic was (a compiled bot knows the
// line, the interpreter the function's body).
func TestBotsThatMisbehave(t *testing.T) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("needs /proc") // not Linux
	}
	caps := box.DefaultCaps
	caps.Memory = 256 << 20
	for _, c := range []struct{ name, body, why, interpreted string }{
		{"recurses without end", "var f func(int) int\n\tf = func(n int) int { return f(n+1) + 1 }\n\tf(0)", "the bot overflowed its stack", ""},
		{"loops", "for {\n\t}", "did not answer within 100ms at turn 0 and was stopped", ""},
		{"allocates", "for {\n\t\tkeep = append(keep, make([]byte, 1<<20))\n\t}", "over its memory cap of 256M", ""},
		{"panics", `panic("boom")`, "the bot panicked in bot.Act, line 12: boom", "the bot panicked in bot.Act (its body from line 11): boom"},
		{"panics in a goroutine", "done := make(chan bool)\n\tgo func() {\n\t\tvar m map[string]int\n\t\tm[\"x\"] = 1\n\t\tdone <- true\n\t}()\n\t<-done",
			"the bot panicked in bot.Act.func1, line 15: assignment to entry in nil map", "the bot panicked in bot.Act.func (its body from line 14): assignment to entry in nil map"},
	} {
		for _, interpret := range []bool{false, true} {
			why := c.why
			name := c.name + "/compiled"
			if interpret {
				name = c.name + "/interpreted"
				if c.interpreted != "" {
					why = c.interpreted
				}
			}
			t.Run(name, func(t *testing.T) {
				g, _ := match.Lookup("colosseum")
				bot, err := play.ParseSpec("go:" + botFile(t, c.body))
				if err != nil {
					t.Fatal(err)
				}
				greedy, _ := play.ParseSpec("greedy")
				cfg := colosseum.Sized(7)
				cfg.FirstMoveMs, cfg.MoveMs = 100, 100
				if strings.Contains(c.name, "recurses") {
					cfg.FirstMoveMs, cfg.MoveMs = 20000, 20000 // the stack's growth is work: not a clock's to stop
				}
				rec, err := play.Play(context.Background(), play.Setup{Game: g, Config: cfg, Seed: 3, Players: [2]play.Spec{bot, greedy}, Hosting: play.Hosting{Caps: &caps, Interpret: interpret}})
				if err != nil {
					t.Fatal(err)
				}
				if rec.Result == nil || len(rec.Turns) < 4 {
					t.Fatalf("the match did not go on: %d turns, result %v", len(rec.Turns), rec.Result)
				}
				var reasons []string
				for _, turn := range rec.Turns {
					if turn.Replaced[match.P1] != "" {
						reasons = append(reasons, turn.Replaced[match.P1])
					}
					if n := turn.Notes[match.P1].Get(); n != nil {
						for _, l := range append(n.Said, turn.Replaced[match.P1]) {
							if strings.Contains(l, "goroutine ") || strings.Contains(l, ".go:") || strings.Contains(l, "arena-playground/arena/") {
								t.Fatalf("the interpreter's stack reached the record: %q", l)
							}
						}
					}
				}
				if len(reasons) == 0 || !strings.Contains(reasons[0], why) {
					t.Fatalf("first replaced move: %q; want it to say %q (its note: %v)", reasons[:min(len(reasons), 2)], why, rec.Turns[0].Notes[match.P1].Get())
				}
				if n := len(reasons); n < len(rec.Turns)/2 {
					t.Fatalf("%d of P1's moves replaced in %d turns; want all", n, len(rec.Turns))
				}
				if left := botProcesses(t, bot.Command); len(left) > 0 {
					t.Fatalf("bots' processes left running: %v", left)
				}
			})
		}
	}
}

// TestBotThatHangsOnceGoesOn: a bot that loops at its first move only
// loses that move; its next move starts a new interpreter, which rebuilds
// the match from its start and the turns played, and the bot plays on.
func TestBotThatHangsOnceGoesOn(t *testing.T) {
	g, _ := match.Lookup("colosseum")
	bot, _ := play.ParseSpec("go:" + botFile(t, "for s.Turn() == 0 {\n\t}"))
	greedy, _ := play.ParseSpec("greedy")
	cfg := colosseum.Sized(7)
	cfg.FirstMoveMs, cfg.MoveMs = 100, 2000
	rec, err := play.Play(context.Background(), play.Setup{Game: g, Config: cfg, Seed: 3, Players: [2]play.Spec{bot, greedy}})
	if err != nil {
		t.Fatal(err)
	}
	var replaced []int
	own := 0
	for i, turn := range rec.Turns {
		switch {
		case turn.Replaced[match.P1] != "":
			replaced = append(replaced, i)
		case turn.Actions[match.P1] != nil:
			own++
		}
	}
	if len(replaced) != 1 || replaced[0] != 0 || own == 0 {
		t.Fatalf("replaced at turns %v, %d own moves after; want turn 0 only, then its own", replaced, own)
	}
}
