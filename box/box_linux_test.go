//go:build linux

package box

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// world makes the machine an attacker is let loose on (newWorld), in a
// folder of the test's, and returns a check that nothing of it was
// touched.
func world(t *testing.T) (targets, func(t *testing.T)) {
	t.Helper()
	w, touched, end, err := newWorld(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(end)
	return w, func(t *testing.T) {
		t.Helper()
		for _, what := range touched() {
			t.Error(what)
		}
	}
}

// attackers are the hostile entrants: a Python program (python3 on PATH)
// and a Go program built for the purpose (this binary), each with the
// command that starts it and its own file.
func attackers(t *testing.T) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	py := filepath.Join(dir, "entrant", "attack.py")
	os.MkdirAll(filepath.Dir(py), 0o755)
	src, err := os.ReadFile("testdata/attack.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(py, src, 0o644)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"python": {"python3", py},
		"go":     {"env", AttackEnv + "=files", exe},
	}
}

// attack runs an attacker in a box and returns its lines by attack.
func attack(t *testing.T, args []string, w targets) map[string]string {
	t.Helper()
	arg, _ := json.Marshal(w)
	b, err := New(Spec{Args: append(args, string(arg)), Caps: DefaultCaps})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var out bytes.Buffer
	b.Cmd.Stdout, b.Cmd.Stderr = &out, &out
	if err := b.Start(); err != nil {
		t.Fatalf("%s: %v\n%s", args, err, out.String())
	}
	werr := b.Cmd.Wait()
	lines := map[string]string{}
	text := out.String()
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		for _, verdict := range []string{": reached ", ": refused "} {
			if name, rest, ok := strings.Cut(sc.Text(), verdict); ok {
				lines[name] = verdict[2:] + rest
			}
		}
	}
	if _, ok := lines["own: read its program"]; !ok {
		t.Fatalf("%s did not finish (%v):\n%s", args, werr, text)
	}
	return lines
}

// TestBoxHoldsHere lets each attacker loose in a box made as this
// process makes boxes (namespaces of its own here, or the portable path
// with ARENA_PORTABLE=1, as root or not), and every way out is refused
// while its own directory and /tmp are its to write.
func TestBoxHoldsHere(t *testing.T) {
	c := Contain()
	t.Logf("uid %d, %s=%q: %s", os.Getuid(), PortableEnv, os.Getenv(PortableEnv), c)
	if c.Landlock == 0 && !c.Separate {
		t.Fatalf("this kernel gives neither namespaces nor Landlock: nothing here is a box")
	}
	t.Run("kill -9", testKill9)
	t.Run("left behind", testLeftBehind)
	t.Run("meter and pause", testMeterAndPause)
	t.Run("disk", testDiskCap)
	t.Run("shared memory", testSharedMemory)
	for name, args := range attackers(t) {
		t.Run(name, func(t *testing.T) {
			w, check := world(t)
			w.ShmOwn = c.Separate
			lines := attack(t, args, w)
			for what, said := range lines {
				own := strings.HasPrefix(what, "own: ")
				switch {
				case what == "done":
				case own && !strings.HasPrefix(said, "reached"):
					t.Errorf("%s: %s", what, said)
				case !own && !strings.HasPrefix(said, "refused"):
					t.Errorf("the box let it %s: %s", what, said)
				default:
					t.Logf("%s: %s", what, said)
				}
			}
			check(t)
		})
	}
}

// TestBoxHolds runs TestBoxHoldsHere again on the portable path and, when
// this test runs as root, as an unprivileged user, in namespaces and on
// the portable path: every class of attack is tried on each.
func TestBoxHolds(t *testing.T) {
	if os.Getenv("BOX_SUB") != "" {
		t.Skip("run by the parent test")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	type mode struct {
		name string
		env  []string
		user bool
	}
	modes := []mode{{"portable", []string{PortableEnv + "=1"}, false}}
	setpriv, err := exec.LookPath("setpriv")
	if os.Getuid() == 0 && err == nil {
		modes = append(modes, mode{"unprivileged", nil, true}, mode{"unprivileged portable", []string{PortableEnv + "=1"}, true})
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			bin, dir := exe, wd
			env := append(os.Environ(), append(m.env, "BOX_SUB=1")...)
			var args []string
			if m.user {
				// A copy nobody may read and run, with its testdata, and a
				// temporary directory of its own.
				pub, err := os.MkdirTemp("", "box-test-")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(pub) })
				os.Chmod(pub, 0o755)
				bin, dir = filepath.Join(pub, "box.test"), pub
				copyForAll(t, exe, bin, 0o755)
				os.Mkdir(filepath.Join(pub, "testdata"), 0o755)
				copyForAll(t, "testdata/attack.py", filepath.Join(pub, "testdata", "attack.py"), 0o644)
				tmp := filepath.Join(pub, "tmp")
				os.Mkdir(tmp, 0o777)
				os.Chmod(tmp, 0o1777)
				env = append(env, "TMPDIR="+tmp, "HOME="+tmp)
				args = []string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}
				bin = setpriv
			}
			args = append(args, "-test.run=^TestBoxHoldsHere$", "-test.v", "-test.count=1")
			cmd := exec.Command(bin, args...)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", m.name, err, out)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, "uid ") || strings.Contains(l, ": refused") {
					t.Log(strings.TrimSpace(l))
				}
			}
		})
	}
}

func copyForAll(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
	os.Chmod(to, mode)
}

// boxParent is an arena that starts a box and is then killed (kill -9)
// by the test: its program starts a child that leaves its process group
// and session (setsid), then sleeps; each sleeps a number of seconds of
// the test's (BOX_SLEEP), which names it in the machine's /proc.
// What a program started and left running ends with its box, whether
// the program ends first or arena ends it (Kill): a child that left the
// program's group and session, here one that sleeps a number of seconds
// of this test's, which names it.
// A program's tree, one of its processes in a session of its own, is
// metered as it spins, stopped whole by Pause (every process of it in
// state T, and its CPU time still while this test spins), and continued by
// Resume.
func testMeterAndPause(t *testing.T) {
	b, err := New(Spec{Args: []string{"sh", "-c", "setsid sh -c 'while :; do :; done' & while :; do :; done"}, Caps: DefaultCaps})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.Now().Add(2 * time.Minute) // a guard against a hang, not a measure
	grows := func(from time.Duration) time.Duration {
		t.Helper()
		for {
			cpu, ok := b.CPU()
			if !ok {
				t.Fatal("this box reads no CPU time")
			}
			if cpu >= from+200*time.Millisecond && len(b.processes()) >= 2 {
				return cpu
			}
			if time.Now().After(guard) {
				t.Fatalf("the program's CPU time stayed at %s", cpu)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	cpu := grows(0)
	b.Pause()
	for _, p := range b.processes() {
		// A stop is delivered as the process is next scheduled: wait for it.
		for st := procState(p); st != "T"; st = procState(p) {
			if time.Now().After(guard) {
				t.Fatalf("paused, process %d of the program's tree stays in state %s", p, st)
			}
			time.Sleep(time.Millisecond)
		}
	}
	before, _ := b.CPU()
	spin(300 * time.Millisecond) // this process's CPU time: the spinners would have had theirs
	after, _ := b.CPU()
	if after-before > 20*time.Millisecond {
		t.Errorf("paused, the program's tree used %s of CPU time", after-before)
	}
	b.Resume()
	grows(after)
	t.Logf("metered %s before the pause, %s during it", cpu, after-before)
}

// A program that writes past its disk cap, in its directory, its /tmp
// or in more files than the cap, is stopped at it: in a box of its own
// by the kernel (each a tmpfs of the cap's size; no file past it,
// RLIMIT_FSIZE), on the portable path by the same limit on a file and by
// arena, which ends it within a poll and says which cap. The program
// goes on after its writes, as a game's program would.
func testDiskCap(t *testing.T) {
	c := DefaultCaps
	c.Disk, c.Files = 4<<20, 50
	script := `head -c 8388608 /dev/zero > big; echo big $(wc -c < big);
head -c 8388608 /dev/zero > /tmp/big; echo tmp $(wc -c < /tmp/big);
i=0; while [ $i -lt 100 ]; do (: > f$i) 2>/dev/null || break; i=$((i+1)); done; echo files $i; echo done; exec sleep 1000`
	b, err := New(Spec{Args: []string{"sh", "-c", script}, Caps: c})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out, err := b.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b.Cmd.Stderr = b.Cmd.Stdout
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	said, lines := map[string]int{}, []string{}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "done" {
		lines = append(lines, sc.Text())
		if f := strings.Fields(sc.Text()); len(f) == 2 {
			said[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	if len(b.diskDirs) == 0 {
		b.Kill() // the kernel held it: it sleeps on
	}
	werr := b.Cmd.Wait() // on the portable path, arena ends it
	switch {
	case said["big"] > int(c.Disk) || said["tmp"] > int(c.Disk):
		t.Errorf("it wrote past its cap of %d bytes: %s", c.Disk, lines)
	case said["files"] >= 100 && !strings.Contains(b.Exceeded(), "disk cap"):
		t.Errorf("it made %d files past its cap of %d, and went on", said["files"], c.Files)
	case len(b.diskDirs) > 0 && !strings.Contains(b.Exceeded(), "disk cap"):
		t.Errorf("it was not ended at its cap (%v): %s", werr, lines)
	}
	if bytes, _ := usage(b.diskDirs, 0); bytes > 2*c.Disk {
		t.Errorf("its folders on the machine hold %d bytes", bytes)
	}
	t.Logf("%s; ended: %v %s", strings.Join(lines, "; "), werr, b.Exceeded())
}

// A program that touches 600 MB of shared mappings (anonymous, and a
// memfd's) under a memory cap of 256M is ended at the cap where a cgroup
// counts its memory whole, and the cap is named; where none can be made,
// RLIMIT_DATA would not count them, and seccomp refuses them.
func testSharedMemory(t *testing.T) {
	c := DefaultCaps
	c.Memory = 256 << 20
	// Three of 200 MB each: a memfd is a file, and none may pass the disk
	// cap (256M).
	for _, how := range []string{"mmap.mmap(-1, n, flags=mmap.MAP_SHARED)", "mmap.mmap(memfd(), n, flags=mmap.MAP_SHARED)"} {
		script := `import mmap, os, sys
n = 200 << 20
def memfd():
    fd = os.memfd_create("x")
    os.ftruncate(fd, n)
    return fd
kept = []
for k in range(3):
    m = ` + how + `
    for i in range(0, n, 4096):
        m[i] = 1
    kept.append(m)
print("touched", 3 * n >> 20, "MB", flush=True)
`
		b, err := New(Spec{Args: []string{"python3", "-c", script}, Caps: c})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		b.Cmd.Stdout, b.Cmd.Stderr = &out, &out
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		werr := b.Cmd.Wait()
		over := b.Exceeded()
		b.Close()
		counted := Contain().Cgroup != ""
		switch {
		case strings.Contains(out.String(), "touched"):
			t.Errorf("%s: touched 600 MB under a cap of 256M (%s)", how, Contain())
		case counted && !strings.Contains(over, "memory cap of 256M"):
			t.Errorf("%s: ended (%v) with no cap named: %s", how, werr, out.String())
		case !counted && !strings.Contains(out.String(), "Operation not permitted"):
			t.Errorf("%s: with no cgroup, not refused: %s", how, out.String())
		default:
			t.Logf("%s: %v, %s %s", how, werr, over, strings.TrimSpace(out.String()))
		}
	}
}

// processes are the box's tree but, on the portable path, its launcher,
// which Pause leaves running.
func (b *Box) processes() []int {
	ps := tree(b.Cmd.Process.Pid)
	if b.os.watch != nil {
		ps = ps[1:]
	}
	return ps
}

// procState is a process's state letter, from its stat file.
func procState(pid int) string {
	s, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "gone"
	}
	f := strings.Fields(string(s[bytes.LastIndexByte(s, ')')+1:]))
	return f[0]
}

// spin uses d of this thread's CPU time.
func spin(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	start := ts.Nano()
	for x := 0; ; x++ {
		unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		if ts.Nano()-start >= d.Nanoseconds() {
			return
		}
	}
}

func testLeftBehind(t *testing.T) {
	for i, kill := range []bool{false, true} {
		n := 500000 + os.Getpid()%100000*4 + 2*i
		script := "setsid sleep " + strconv.Itoa(n) + " & sleep 0.2; exit 3"
		if kill {
			script = "setsid sleep " + strconv.Itoa(n) + " & exec sleep " + strconv.Itoa(n+1)
		}
		b, err := New(Spec{Args: []string{"sh", "-c", script}, Caps: DefaultCaps})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		guard := time.Now().Add(2 * time.Minute) // a guard against a hang, not a measure
		for len(sleepers(n)) == 0 && time.Now().Before(guard) {
			time.Sleep(5 * time.Millisecond) // it ran: the test waits for that, then for its end
		}
		if kill {
			b.Kill()
		}
		err = b.Cmd.Wait()
		b.Close()
		if !kill && b.Cmd.ProcessState.ExitCode() != 3 {
			t.Errorf("the program's exit is %v, not its own (3)", err)
		}
		guard = time.Now().Add(2 * time.Minute)
		for len(sleepers(n)) > 0 {
			time.Sleep(5 * time.Millisecond)
			if time.Now().After(guard) {
				left := sleepers(n)
				for _, p := range left {
					syscall.Kill(p, syscall.SIGKILL)
				}
				t.Fatalf("killed %v: 2 minutes after its box ended, what its program left %v still runs", kill, left)
			}
		}
	}
}

// An arena killed with SIGKILL leaves nothing of its programs running:
// the program, and the child that left its group and session, end with it
// (in a box of its own, with its PID namespace; on the portable path by
// the launcher that outlives arena, a subreaper that ends all below it,
// and as root every process of the program's uid).
func testKill9(t *testing.T) {
	exe, _ := os.Executable()
	n := 200000 + os.Getpid()%100000*2
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), ParentEnv+"="+strconv.Itoa(n))
	out, _ := parent.StdoutPipe()
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, _ := r.ReadString('\n')
	if line != "started\n" {
		parent.Process.Kill()
		t.Fatalf("the parent said %q", line)
	}
	said := make(chan string, 1)
	go func() { rest, _ := io.ReadAll(r); said <- string(rest) }()
	// A guard, not a measure: a box that hangs fails the test, with what
	// is left, instead of holding the suite to its deadline.
	guard := time.Now().Add(2 * time.Minute)
	for len(sleepers(n)) < 2 {
		select {
		case s := <-said:
			t.Fatalf("the box ended before its sleepers ran: %s", s)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(guard) {
			parent.Process.Kill()
			t.Fatalf("the sleepers did not start in 2 minutes: %v", sleepers(n))
		}
	}
	parent.Process.Kill()
	parent.Wait()
	guard = time.Now().Add(2 * time.Minute)
	for len(sleepers(n)) > 0 {
		time.Sleep(5 * time.Millisecond)
		if time.Now().After(guard) {
			left := sleepers(n)
			for _, p := range left {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("2 minutes after arena was killed, its program's processes %v still run", left)
		}
	}
}
