//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestProgramsChildrenEndWithTheMatch: a program that starts a child
// holding its output open, then hangs, loses its moves to the clock; the
// match ends, and so does the child (its process group is ended).
func TestProgramsChildrenEndWithTheMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fast.json")
	os.WriteFile(cfg, []byte(`{"size": 6, "first_move_ms": 300, "move_ms": 200}`), 0o644)
	orphanToken(t)
	seen := watchSleeper(t)
	code, out, stderr := arena(t, "play", "-game", "colosseum", "-p1", selfCommand(t, "misbehave orphan"), "-p2", "greedy", "-seed", "5", "-config", cfg)
	if code != 0 || !strings.Contains(out, "result:") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	pid := seen()
	if pid == 0 {
		t.Fatal("the program's child was never seen running, for a match of several seconds")
	}
	waitGone(pid)
}

// sleeperPid finds the misbehaving program's child as this machine sees
// it, by the token its command line carries (see startChild); 0 when
// none runs. The test sets ARENA_ORPHAN_TOKEN, a number of its own.
func sleeperPid() int {
	want := "\x00misbehave\x00sleeper-" + os.Getenv("ARENA_ORPHAN_TOKEN") + "\x00"
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); strings.HasSuffix(string(cmdline), want) {
			return pid
		}
	}
	return 0
}

// watchSleeper watches the machine's processes for the sleeper from now
// on, and returns what it saw: the sleeper's pid, the first time it was
// seen running, or 0.
func watchSleeper(t *testing.T) func() int {
	var pid atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for pid.Load() == 0 {
			if p := sleeperPid(); p != 0 {
				pid.Store(int64(p))
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() int {
		close(stop)
		<-done
		return int(pid.Load())
	}
}

// readPid waits until the sleeper runs, and returns its pid.
func readPid(t *testing.T) int {
	t.Helper()
	var pid int
	waitFor(func() bool { pid = sleeperPid(); return pid != 0 })
	return pid
}

// orphanToken gives this test's orphans a token of their own.
func orphanToken(t *testing.T) {
	t.Setenv("ARENA_ORPHAN_TOKEN", fmt.Sprint(time.Now().UnixNano()%1_000_000_000))
}

// arenaProcess starts this test binary as arena with args, in a process
// of its own, so that the test can signal it.
func arenaProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// waitFor polls until ok holds: the test waits for progress, however long
// a busy machine takes, up to go test's deadline.
func waitFor(ok func() bool) {
	for !ok() {
		time.Sleep(5 * time.Millisecond)
	}
}

// waitGone waits until pid has ended (or is a zombie waiting for init);
// 0 has.
func waitGone(pid int) {
	waitFor(func() bool {
		if pid == 0 {
			return true
		}
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		state, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return bytes.Contains(state, []byte(") Z "))
	})
}

// exitStatus is the status a process ended with, as a shell reports it.
func exitStatus(t *testing.T, cmd *exec.Cmd) int {
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestSignalEndsPlayersGroups: SIGTERM during a match whose program has
// started a child (both in a process group of their own, which a
// terminal's Ctrl-C would not reach) ends arena with status 143, and
// the program and its child with it.
func TestSignalEndsPlayersGroups(t *testing.T) {
	orphanToken(t)
	cmd := arenaProcess(t, "play", "-game", "colosseum", "-p1", selfCommand(t, "misbehave orphan"), "-p2", "greedy")
	pid := readPid(t)
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitStatus(t, cmd); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	waitGone(pid)
}

// What a program starts ends with arena however arena ends, even a child
// that left the program's process group for a session of its own: when
// its game ends, and when arena is killed with SIGKILL mid-game (which no
// handler sees: the program dies of its parent-death signal, and its PID
// namespace with it). A py: agent's runner leaves no file behind either:
// it is handed to Python on its command line. Where programs run in
// process groups only (the portable path, whose watching launcher macOS
// runs too), the program and its group end all the same, by the launcher
// that watches arena (it has no parent-death signal of its own), and so
// does the child that left the group: on Linux the launcher is a
// subreaper and ends all below it.
func TestProgramsEndWithArenaHoweverItEnds(t *testing.T) {
	py := python(t, true)
	for _, how := range []string{"game over", "kill -9"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			orphanToken(t)
			t.Setenv("TMPDIR", dir)
			var cmd *exec.Cmd
			pid := 0
			for { // until arena is caught mid-game, with the escapee running
				exited := make(chan struct{})
				cmd = arenaProcess(t, "play", "-game", "colosseum", "-preset", "6", "-p1", selfCommand(t, "misbehave escape"),
					"-p2", "py:testdata/comp424/agents/random_agent.py", "-python", py, "-seed", "3")
				go func() { cmd.Process.Wait(); close(exited) }()
				waitFor(func() bool {
					select {
					case <-exited:
						return true
					default:
					}
					pid = sleeperPid()
					return pid != 0
				})
				if pid != 0 || how != "kill -9" {
					break
				}
			}
			if how == "kill -9" {
				cmd.Process.Kill()
			}
			cmd.Wait()
			if pid == 0 {
				t.Fatal("the escapee was never seen running")
			}
			waitFor(func() bool {
				return len(leftover(t, "random_agent.py")) == 0 && len(leftover(t, "misbehave\x00escape")) == 0
			})
			waitGone(pid)
			left, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, l := range left {
				if !strings.HasPrefix(filepath.Base(l), "arena-box-") || how != "kill -9" {
					t.Errorf("left in the temporary directory: %s", l)
				}
			}
		})
	}
}

// TestInterruptLeavesNoTemporaryFile: Ctrl-C while a GIF is being written
// ends arena with status 130 and leaves neither the GIF nor its
// temporary file.
func TestInterruptLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	cmd := arenaProcess(t, "record", "-game", "life", "-p1", "random", "-p2", "random", "-size", "1024", "-o", filepath.Join(dir, "m.gif"))
	waitFor(func() bool { m, _ := filepath.Glob(filepath.Join(dir, ".m.gif.*.tmp")); return len(m) > 0 })
	cmd.Process.Signal(os.Interrupt)
	if code := exitStatus(t, cmd); code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left in the directory: %v", left)
	}
}

// What another program wrote reaches the operator's terminal quoted: a
// program whose last words are escape sequences (set the window's title,
// clear the screen, recolour) and a carriage return shows them as text,
// in play's result, autoplay's list of replaced moves and a tournament's
// standings, and arena's output holds no ESC byte.
func TestProgramsCannotDriveTheTerminal(t *testing.T) {
	evil := selfCommand(t, "misbehave escapes")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"play", "-game", "pathgame", "-preset", "short", "-p1", "tcp:" + evil + " {port}", "-p2", "greedy"},
		{"autoplay", "-game", "colosseum", "-preset", "6", "-p1", evil, "-p2", "greedy", "-n", "2"},
		{"tournament", "-game", "colosseum", "-preset", "6", "-o", filepath.Join(dir, "t"), "-containment", "weak", "evil=" + evil, "good=greedy"},
	} {
		exe, _ := os.Executable()
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
		out, _ := cmd.CombinedOutput()
		if bytes.ContainsRune(out, 0x1b) || bytes.Contains(out, []byte("red\rfake")) {
			t.Errorf("arena %s: the program's bytes reached the terminal raw:\n%q", args[0], out)
		}
		if !bytes.Contains(out, []byte(`\x1b]0;pwned\a\x1b[2J\x1b[31mred\rfake line`)) {
			t.Errorf("arena %s: the program's words are not shown quoted:\n%s", args[0], out)
		}
	}
}

// Programs run under caps (-caps): one that allocates without end fails
// at its memory cap, one that spins is ended at its CPU time cap, each
// losing its game with the cap named in the reason; the caps are those
// the command line gave (as the program's /proc/self/limits shows), and
// a tournament of programs keeps them in its plan.
func TestProgramCaps(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatal("caps are applied on Linux")
	}
	py := python(t, false)
	dir := t.TempDir()
	script := func(name, src string) string {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(src), 0o644)
		return f
	}
	hog := script("hog.py", "a = []\nwhile True:\n    a.append(bytearray(10**7))\n")
	spin := script("spin.py", "while True:\n    pass\n")
	// It tells its limits on its standard error, which arena shows (its box
	// has nowhere else to write them), as /proc/self/limits words them; it
	// asks the kernel itself, since a box with no /proc of its own (the
	// portable path) reads no /proc.
	show := script("show.py", "import resource, sys\n"+
		"for name, r in (('Max cpu time', resource.RLIMIT_CPU), ('Max processes', resource.RLIMIT_NPROC), ('Max data size', resource.RLIMIT_DATA)):\n"+
		"    sys.stderr.write('%s %d %d\\n' % ((name,) + resource.getrlimit(r)))\nsys.stderr.flush()\n")
	// Neither program connects: each must end at its cap, not at the
	// wait for a connection, however long a busy machine takes to spend
	// a second of CPU time.
	for _, c := range []struct{ program, caps, want string }{
		{hog, "memory=256M", "MemoryError; over its memory cap of 256M"},
		{spin, "cpu=1s", "over its CPU time cap of 1s"},
	} {
		code, out, stderr := arena(t, "play", "-game", "pathgame", "-preset", "short", "-p1", "tcp:cmd:"+py+" "+c.program+" {port}", "-p2", "greedy", "-caps", c.caps, "-connect-wait", "1h")
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("-caps %s: exit %d, want the result to say %q:\n%s%s", c.caps, code, c.want, out, stderr)
		}
	}
	code, _, stderr := arena(t, "play", "-game", "colosseum", "-preset", "6", "-p1", "cmd:"+py+" "+show, "-p2", "greedy", "-caps", "memory=512M,procs=32,cpu=30s")
	if code != 0 {
		t.Fatal(stderr)
	}
	got := []byte(stderr)
	for _, want := range []string{`Max cpu time\s+30\s`, `Max processes\s+32\s+32\s`, `Max data size\s+536870912\s+536870912\s`} {
		if !regexp.MustCompile(want).Match(got) {
			t.Errorf("the program's limits lack %s:\n%s", want, got)
		}
	}
	tdir := filepath.Join(dir, "t")
	if code, _, stderr := arena(t, "tournament", "-game", "colosseum", "-preset", "6", "-o", tdir, "-containment", "weak", "-caps", "memory=1G", "a=cmd:"+py+" "+show, "b=greedy"); code != 0 {
		t.Fatal(stderr)
	}
	if plan, _ := os.ReadFile(filepath.Join(tdir, "tournament.json")); !strings.Contains(string(plan), `"caps": "memory=1G,procs=256,cpu=10m0s,disk=256M,files=4096"`) {
		t.Errorf("the plan does not keep the caps:\n%s", plan)
	}
}
