package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/colosseum"
)

// TestMain lets this test binary stand in for programs the tests run as
// players: with ARENA_AS_MAIN=1 it is arena itself, and its "misbehave"
// command is an agent that hangs, crashes, talks nonsense or answers late.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_AS_MAIN") == "1" || filepath.Base(os.Args[0]) == "arena" {
		if len(os.Args) > 2 && os.Args[1] == "misbehave" {
			misbehave(os.Args[2])
			return
		}
		main()
	}
	os.Exit(m.Run())
}

// startChild starts a child that holds the program's output open (this
// binary, sleeping), in a session of its own when escape is set, whose
// command line carries $ARENA_ORPHAN_TOKEN (set by the program's command)
// for the test to find it by as the machine sees it: the program may be
// in PID and mount namespaces of its own, where its pids and /proc are not
// the machine's. It returns once the child runs: the child marks it in
// the box's working directory, which is theirs.
func startChild(escape bool) {
	self, _ := os.Executable()
	args := []string{self, "misbehave", "sleeper-" + os.Getenv("ARENA_ORPHAN_TOKEN")}
	if escape {
		args = append([]string{"setsid"}, args...)
	}
	child := exec.Command(args[0], args[1:]...)
	child.Stdout = os.Stdout
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "the child did not start:", err)
		return
	}
	for { // the game may end at once, and the child with it
		if _, err := os.Stat(sleeperMark); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sleeperMark is the file the sleeper makes once it runs, in its box's
// working directory.
const sleeperMark = "sleeper.started"

// sleeper is the child startChild starts: it says it runs, and sleeps.
func sleeper() {
	os.WriteFile(sleeperMark+".tmp", []byte("started\n"), 0o644)
	os.Rename(sleeperMark+".tmp", sleeperMark)
	time.Sleep(10 * time.Minute)
}

// spy looks through /proc for the other entrant (a process whose command
// line says "bot"), as a hostile entrant does, and opens its output for
// writing, which would let it forge the rival's replies; it says on
// standard error what it saw and what it opened.
func spy() {
	entries, _ := os.ReadDir("/proc")
	seen, opened := 0, []string{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		seen++
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !strings.Contains(string(cmdline), "bot\x00-game") {
			continue
		}
		if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", pid), os.O_WRONLY, 0); err == nil {
			f.Close()
			opened = append(opened, fmt.Sprint(pid))
		}
	}
	fmt.Fprintf(os.Stderr, "spy: %d other processes; opened the rival's output: [%s]\n", seen, strings.Join(opened, " "))
}

// misbehave reads step messages and answers them badly.
func misbehave(mode string) {
	if strings.HasPrefix(mode, "sleeper-") {
		sleeper()
		return
	}
	if mode == "escapes" { // what would set the terminal's title, clear it and recolour it
		fmt.Fprint(os.Stderr, "\x1b]0;pwned\a\x1b[2J\x1b[31mred\rfake line\n")
		os.Exit(3)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<24)
	for n := 0; sc.Scan(); n++ {
		s, id, _, err := colosseum.ParseStep(sc.Bytes())
		if err != nil {
			continue
		}
		legal := s.Moves(nil)[0]
		switch mode {
		case "spy": // look for the rival in /proc, and reach for its pipes; then play
			if n == 0 {
				spy()
			}
			fmt.Printf("{\"pos\":[%d,%d],\"dir\":%d,\"id\":%d}\n", legal.To.Row, legal.To.Col, legal.Dir, id)
		case "hang":
			time.Sleep(time.Hour)
		case "orphan": // a child that holds the output open, then hang
			startChild(false)
			time.Sleep(time.Hour)
		case "escape": // a child in a session of its own, out of the program's group; then play
			if n == 0 {
				startChild(true)
				// Think a while on the first move (the clock gives 30 s):
				// the test sees the child run, however short the game.
				time.Sleep(300 * time.Millisecond)
			}
			fmt.Printf("{\"pos\":[%d,%d],\"dir\":%d,\"id\":%d}\n", legal.To.Row, legal.To.Col, legal.Dir, id)
		case "crash":
			fmt.Fprintln(os.Stderr, "agent: something broke")
			os.Exit(3)
		case "nonsense":
			fmt.Println("I think I'll go left")
		case "offboard":
			fmt.Println(`{"pos":[99,0],"dir":0}`)
		case "late": // the first answer comes too late; later ones are fine
			if n == 0 {
				time.Sleep(900 * time.Millisecond) // past the wait: it arrives during the next request
			}
			fmt.Printf("{\"pos\":[%d,%d],\"dir\":%d,\"id\":%d}\n", legal.To.Row, legal.To.Col, legal.Dir, id)
		}
	}
}

func selfCommand(t *testing.T, args string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A program's environment is its box's, not arena's: the variables
	// that make this binary arena (and name its orphans) are set by its
	// command, as a student's "env VAR=1 python3 agent.py" would be.
	return fmt.Sprintf("cmd:env ARENA_AS_MAIN=1 ARENA_ORPHAN_TOKEN=%s '%s' %s", os.Getenv("ARENA_ORPHAN_TOKEN"), exe, args)
}

// TestArenaBotPlaysThroughTheProtocol: our greedy bot served by `arena
// bot` plays the same match as greedy in the process.
func TestArenaBotPlaysThroughTheProtocol(t *testing.T) {
	cmd := selfCommand(t, "bot -game colosseum -bot greedy")
	for seed := range 3 {
		s := fmt.Sprint(seed + 10)
		_, inProcess, _ := arena(t, "play", "-game", "colosseum", "-p1", "greedy", "-p2", "random", "-seed", s, "-json")
		code, external, stderr := arena(t, "play", "-game", "colosseum", "-p1", cmd, "-p2", "random", "-seed", s, "-json")
		if code != 0 {
			t.Fatalf("%d %s", code, stderr)
		}
		var a, b playJSON
		json.Unmarshal([]byte(inProcess), &a)
		json.Unmarshal([]byte(external), &b)
		if a.Summary == "" || a.Summary != b.Summary || a.Result.Scores != b.Result.Scores {
			t.Errorf("seed %s: in process %q, through the protocol %q", s, a.Summary, b.Summary)
		}
	}
}

// TestMisbehavingPrograms: a program that hangs, crashes, answers nonsense
// or an illegal move gets the random walk for that move, with the reason
// in the replay, and the match ends; a late answer is not mistaken for
// the next one.
func TestMisbehavingPrograms(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fast.json")
	os.WriteFile(cfg, []byte(`{"size": 6, "first_move_ms": 500, "move_ms": 300}`), 0o644)
	cases := []struct{ mode, reason string }{
		{"hang", "did not answer within"},
		{"crash", "the program ended: exit status 3; it wrote: agent: something broke"},
		{"nonsense", `answered nonsense: reply "I think I'll go left" is not a JSON object`},
		{"offboard", "cell (99,0) is off the 6x6 board"},
		{"late", "did not answer within 750ms"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			replay := filepath.Join(dir, c.mode+".json")
			start := time.Now()
			code, _, stderr := arena(t, "play", "-game", "colosseum", "-p1", selfCommand(t, "misbehave "+c.mode),
				"-p2", "greedy", "-seed", "5", "-config", cfg, "-replay", replay)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			// A program that hangs must not hang arena: the match ends
			// (go test's timeout catches one that does not), its time logged.
			t.Logf("the match took %v", time.Since(start).Round(time.Millisecond))
			data, err := os.ReadFile(replay)
			if err != nil {
				t.Fatal(err)
			}
			var rp struct {
				Turns []struct {
					Replaced [2]string `json:"replaced"`
				} `json:"turns"`
			}
			json.Unmarshal(data, &rp)
			replaced, first, other := 0, "", ""
			for _, tn := range rp.Turns {
				if why := tn.Replaced[0]; why != "" {
					if replaced++; first == "" {
						first = why
					} else if !strings.Contains(why, "did not answer within") && !strings.Contains(why, "out of time") {
						other = why
					}
				}
			}
			if replaced == 0 || !strings.Contains(first, c.reason) {
				t.Errorf("%d moves replaced, the first because %q; want %q", replaced, first, c.reason)
			}
			// The late answer, when it comes, is dropped: were it taken
			// for the next request's, that move would be replaced for
			// another reason (the stale move is illegal there) or played.
			// A busy machine may make other moves late too (not answered
			// within the wait, or answered past the clock); nothing else.
			if c.mode == "late" && other != "" {
				t.Errorf("late: a move was replaced because %q: an answer was taken for another request's", other)
			}
		})
	}
}
