package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/box"
)

// attack is a go: bot that, with tables widened to os, os/exec and net
// (the arena_widened_tables build), tries what a leak in the review would
// let it: read a file, write one, run a program, connect to a port. It
// prints each error, which its note carries, and then moves.
const attack = `package bot

import (
	"fmt"
	"net"
	"os"
	"os/exec"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

func Act(t *match.Turn) (match.Action, error) {
	_, err := os.ReadFile("/etc/passwd")
	fmt.Println("read:", err)
	err = os.WriteFile(%q, []byte("pwned"), 0o644)
	fmt.Println("write:", err)
	cmd := exec.Command("/bin/sh", "-c", %q)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr, os.Stderr // no /dev/null to open: the exec itself is tried
	err = cmd.Run()
	fmt.Println("exec:", err)
	c, err := net.Dial("tcp", %q)
	if c != nil {
		c.Close()
	}
	fmt.Println("dial:", err)
	return t.State.(colosseum.State).Moves(nil)[0], nil
}
`

// TestKernelRefusesWhatTablesLeak builds arena with the tables widened to
// os, os/exec and net, and plays a bot that uses them: the kernel
// (Landlock before the interpreter starts, seccomp once it runs) refuses
// the open, the write, the exec and the socket, and nothing is written,
// run or connected to; with the seccomp filter left off, Landlock alone
// refuses them all (permission denied, its EACCES); without namespaces
// (the portable path) the seccomp filter still holds.
func TestKernelRefusesWhatTablesLeak(t *testing.T) {
	c := box.Contain()
	if c.Landlock == 0 && !c.Seccomp {
		t.Fatalf("this kernel has neither Landlock nor seccomp: %s", c)
	}
	t.Logf("containment here: %s", c)
	dir := t.TempDir()
	bin := filepath.Join(dir, "arena")
	if out, err := exec.Command("go", "build", "-tags", "arena_widened_tables", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags arena_widened_tables: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dialled := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			dialled <- struct{}{}
		}
	}()
	written, ran := filepath.Join(dir, "pwned.txt"), filepath.Join(dir, "ran.txt")
	bot := filepath.Join(dir, "attack.go")
	os.WriteFile(bot, []byte(fmt.Sprintf(attack, written, "id > "+ran, ln.Addr().String())), 0o644)
	full := box.PortableEnv + "=" // whatever the test's environment says
	// Interpreted, and built with Go (-interpret=false), which loads the
	// interpreter's filter itself (internal/confine): with the filter left
	// off, only the interpreter, whose test build can leave it off.
	for _, run := range []struct{ env, how string }{
		{full, "-interpret"}, {full + "\x00ARENA_TEST_NO_SECCOMP=1", "-interpret"}, {box.PortableEnv + "=1", "-interpret"},
		{full, "-interpret=false"}, {box.PortableEnv + "=1", "-interpret=false"},
	} {
		env := run.env
		replay := filepath.Join(dir, "replay.json")
		cmd := exec.Command(bin, "play", run.how, "-game", "colosseum", "-p1", "go:"+bot, "-p2", "random", "-replay", replay)
		cmd.Env = append(os.Environ(), strings.Split(env, "\x00")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s play %s: %v\n%s", env, run.how, err, out)
		}
		data, _ := os.ReadFile(replay)
		for _, want := range []string{`read: open /etc/passwd: `, `write: open ` + written + `: `, `exec: fork/exec /bin/sh: `, `dial: dial tcp `} {
			at := strings.Index(string(data), want)
			if at < 0 {
				t.Fatalf("%s %s: the bot's note has no %q:\n%.2000s", env, run.how, want, data)
			}
			said := string(data[at:])
			said = said[:strings.IndexAny(said, `"`)]
			if !strings.Contains(said, "permission denied") && !strings.Contains(said, "operation not permitted") {
				t.Errorf("%s %s: the kernel did not refuse it: %q", env, run.how, said)
			}
			if env != box.PortableEnv+"=1" {
				t.Logf("%q %s: %s", env, run.how, said)
			}
		}
		for _, f := range []string{written, ran} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%s: the bot made %s", env, f)
			}
		}
		select {
		case <-dialled:
			t.Errorf("%s: the bot connected to a port of this machine", env)
		case <-time.After(100 * time.Millisecond): // an accepted connection is in the queue already
		}
	}
}

// TestEntrantsCannotReachEachOther plays an entrant that looks for its
// rival in /proc and opens the rival's output, as one that forges the
// rival's replies does: in namespaces of its own it sees no other process
// at all; on the portable path (no namespace), Landlock keeps it from
// reading /proc at all. Either way it opens nothing of its rival's.
func TestEntrantsCannotReachEachOther(t *testing.T) {
	spy := selfCommand(t, "misbehave spy")
	rival := selfCommand(t, "bot -game colosseum -bot greedy")
	for _, portable := range []bool{false, true} {
		dir := t.TempDir()
		replay := filepath.Join(dir, "replay.json")
		env := box.PortableEnv + "=" // full, whatever the test's environment says
		if portable {
			env = box.PortableEnv + "=1"
		}
		cmd := exec.Command(os.Args[0], "play", "-game", "colosseum", "-p1", spy, "-p2", rival, "-seed", "3", "-replay", replay)
		cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1", env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s play: %v\n%s", env, err, out)
		}
		data, _ := os.ReadFile(replay)
		at := strings.Index(string(data), "spy: ")
		if at < 0 {
			t.Fatalf("%s: the spy said nothing:\n%.1500s", env, data)
		}
		said := string(data[at:])
		said = said[:strings.IndexByte(said, '"')]
		t.Logf("%s: %s", env, said)
		if said != "spy: 0 other processes; opened the rival's output: []" {
			t.Errorf("%s: the entrant reached others: %s", env, said)
		}
	}
}

// TestTournamentRefusesWeakContainment: where programs cannot be kept
// apart (the portable path here), a tournament of programs is refused
// with the weaker guarantee named, and plays with -containment weak,
// saying it; a tournament of built-in bots needs no containment.
func TestTournamentRefusesWeakContainment(t *testing.T) {
	program := "p=" + selfCommand(t, "bot -game colosseum -bot greedy")
	run := func(args ...string) (int, string) {
		cmd := exec.Command(os.Args[0], append([]string{"tournament", "-game", "colosseum", "-o", t.TempDir()}, args...)...)
		cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1", box.PortableEnv+"=1")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, string(out)
	}
	if code, out := run("-check", program, "g=greedy"); code != 2 || !strings.Contains(out, "programs cannot be kept in boxes of their own here") || !strings.Contains(out, "no namespaces") || !strings.Contains(out, "-containment weak") {
		t.Errorf("a tournament of programs, weakly contained: exit %d\n%s", code, out)
	}
	if code, out := run("-containment", "weak", program, "g=greedy"); code != 0 || !strings.Contains(out, "arena: -containment weak: no namespaces") {
		t.Errorf("with -containment weak: exit %d\n%s", code, out)
	}
	if code, out := run("-check", "a=random", "g=greedy"); code != 0 {
		t.Errorf("a tournament of built-in bots: exit %d\n%s", code, out)
	}
}
