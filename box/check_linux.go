//go:build linux

package box

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// arena box check lets arena's own attacker loose in boxes made as this
// machine makes them, as an operator would before a class's programs
// play here, and says what held. Its attacks are those TestBoxHolds
// makes (the files, processes, sockets, IPC and capabilities of the
// machine; memory, disk and processes past their caps; kill -9 of arena
// itself). The attacker is arena's own binary, started in a box with
// AttackEnv set: the box package's init runs the attack in its place.

// AttackEnv names the attack a binary of arena's runs instead of itself
// (files, memory, disk or fork); ParentEnv has it make a box and wait to
// be killed (its value: the sleepers' seconds).
const (
	AttackEnv = "ARENA_BOX_ATTACK"
	ParentEnv = "ARENA_BOX_PARENT"
)

func init() {
	if n := os.Getenv(ParentEnv); n != "" {
		boxParent(n)
		os.Exit(0)
	}
	switch os.Getenv(AttackEnv) {
	case "":
		return
	case "files":
		goAttack(os.Args[len(os.Args)-1])
	case "memory":
		attackMemory()
	case "disk":
		attackDisk()
	case "fork":
		attackFork()
	}
	os.Exit(0)
}

// victimText is what the world's files say, and must go on saying.
const victimText = "the operator's file\n"

// world makes the machine an attacker is let loose on: an operator's
// secret and token, a tournament's private directory, a rival entrant in
// a box of its own, a file and a folder anyone may write, a process of
// arena's user, and TCP, UDP and Unix listeners; and returns a check that
// nothing of it was touched.
func newWorld(outside string) (w targets, touched func() []string, end func(), err error) {
	var cleanups []func()
	end = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	defer func() {
		if err != nil {
			end()
		}
	}()
	os.Chmod(outside, 0o755)
	w = targets{
		Secret:      filepath.Join(outside, "secret.txt"),
		SecretValue: "tok-" + fmt.Sprint(time.Now().UnixNano()),
		Journal:     filepath.Join(outside, "class", "games.jsonl"),
		RivalFile:   filepath.Join(outside, "rival", "bot.py"),
		HostTmp:     os.TempDir(),
		Victim:      filepath.Join(outside, "victim", "victim.txt"),
		VictimDir:   filepath.Join(outside, "victim"),
	}
	was, had := os.LookupEnv("ARENA_SECRET_TOKEN")
	os.Setenv("ARENA_SECRET_TOKEN", w.SecretValue) // the operator's: no box may carry it
	cleanups = append(cleanups, func() {
		if had {
			os.Setenv("ARENA_SECRET_TOKEN", was)
		} else {
			os.Unsetenv("ARENA_SECRET_TOKEN")
		}
	})
	for path, mode := range map[string]os.FileMode{w.Secret: 0o644, w.Journal: 0o644, w.RivalFile: 0o644, w.Victim: 0o666} {
		os.MkdirAll(filepath.Dir(path), 0o777)
		os.Chmod(filepath.Dir(path), 0o777) // no permission of the file system's keeps the attacker out
		if err = os.WriteFile(path, []byte(victimText), mode); err != nil {
			return
		}
		os.Chmod(path, mode)
	}
	Private(filepath.Dir(w.Journal))

	sentinel := exec.Command("sleep", "600")
	if err = sentinel.Start(); err != nil {
		return
	}
	cleanups = append(cleanups, func() { sentinel.Process.Kill(); sentinel.Wait() })
	w.Sentinel = sentinel.Process.Pid

	rival, err := New(Spec{Args: []string{"sleep", "600"}})
	if err != nil {
		return
	}
	if err = rival.Start(); err != nil {
		return
	}
	cleanups = append(cleanups, func() { rival.Close(); rival.Cmd.Wait() })
	w.RivalBox = rival.Dir

	heard := make(chan string, 16)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return
	}
	cleanups = append(cleanups, func() { tcp.Close() })
	w.TCPPort = tcp.Addr().(*net.TCPAddr).Port
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return
	}
	cleanups = append(cleanups, func() { udp.Close() })
	w.UDPPort = udp.LocalAddr().(*net.UDPAddr).Port
	w.ShmKey = 0x41520000 + os.Getpid()%0xffff
	shm, err := unix.SysvShmGet(w.ShmKey, 4096, unix.IPC_CREAT|unix.IPC_EXCL|0o666)
	if err != nil {
		err = fmt.Errorf("the machine's SysV segment: %v", err)
		return
	}
	cleanups = append(cleanups, func() { unix.SysvShmCtl(shm, unix.IPC_RMID, nil) })
	w.UnixSocket = filepath.Join(w.VictimDir, "arena.sock")
	unixLn, err := net.Listen("unix", w.UnixSocket)
	if err != nil {
		return
	}
	os.Chmod(w.UnixSocket, 0o777)
	cleanups = append(cleanups, func() { unixLn.Close() })
	for _, ln := range []net.Listener{tcp, unixLn} {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				heard <- ln.Addr().Network()
				c.Close()
			}
		}()
	}
	go func() {
		buf := make([]byte, 64)
		if _, _, err := udp.ReadFrom(buf); err == nil {
			heard <- "udp"
		}
	}()

	touched = func() (out []string) {
		st, err := os.Stat(w.Victim)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("the victim file is gone: %v", err))
		case st.Mode().Perm() != 0o666 || st.Mode()&os.ModeSetuid != 0:
			out = append(out, fmt.Sprintf("the victim file's mode is now %v", st.Mode()))
		case st.ModTime().Unix() < 1000:
			out = append(out, fmt.Sprintf("the victim file's times were changed: %v", st.ModTime()))
		}
		if b, _ := os.ReadFile(w.Victim); string(b) != victimText {
			out = append(out, fmt.Sprintf("the victim file now says %q", b))
		}
		ents, _ := os.ReadDir(w.VictimDir)
		for _, e := range ents {
			if e.Name() != "victim.txt" && e.Name() != "arena.sock" {
				out = append(out, fmt.Sprintf("the attacker made %s outside its box", e.Name()))
			}
		}
		for _, p := range []string{filepath.Join(w.RivalBox, "pwned.txt"), "/usr/arena-pwned"} {
			if _, err := os.Stat(p); err == nil {
				out = append(out, fmt.Sprintf("the attacker wrote %s", p))
				os.Remove(p)
			}
		}
		if sentinel.ProcessState != nil {
			out = append(out, fmt.Sprintf("the sentinel process ended: %v", sentinel.ProcessState))
		}
		select {
		case what := <-heard:
			out = append(out, fmt.Sprintf("the attacker reached a %s listener of the machine", what))
		default:
		}
		return out
	}
	return w, touched, end, nil
}

// boxParent makes a box whose program leaves a sleeper of n seconds in
// a session of its own and sleeps n+1 itself, says "started", and waits
// to be killed (kill -9): the box must end with it.
func boxParent(n string) {
	b, err := New(Spec{Args: []string{"sh", "-c", "setsid sleep " + n + " & exec sleep $(( " + n + " + 1 ))"}, Caps: DefaultCaps})
	if err != nil {
		fmt.Println(err)
		return
	}
	b.Cmd.Stdout, b.Cmd.Stderr = os.Stdout, os.Stdout
	if err := b.Start(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("started")
	err = b.Cmd.Wait()
	fmt.Println("ended:", err) // the test fails on it rather than wait for sleepers that never come
	select {}
}

// sleepers are the machine's processes that sleep n seconds or n+1.
func sleepers(n int) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if string(b) == fmt.Sprintf("sleep\x00%d\x00", n) || string(b) == fmt.Sprintf("sleep\x00%d\x00", n+1) {
			if st, _ := os.ReadFile("/proc/" + e.Name() + "/stat"); !bytes.Contains(st, []byte(") Z ")) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// attackMemory touches 600 MB of shared anonymous memory, which
// RLIMIT_DATA does not count.
func attackMemory() {
	const n = 600 << 20
	m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_ANONYMOUS)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	for i := 0; i < n; i += 4096 {
		m[i] = 1
	}
	fmt.Println("reached: touched 600 MB")
}

// attackDisk writes 8 MB into its directory and 8 MB into its /tmp, then
// 100 files, and goes on as a game's program would.
func attackDisk() {
	tmp := os.Getenv("TMPDIR")
	for _, f := range []string{"big", tmp + "/big"} {
		err := os.WriteFile(f, make([]byte, 8<<20), 0o644)
		st, _ := os.Stat(f)
		size := int64(0)
		if st != nil {
			size = st.Size()
		}
		fmt.Printf("%s %d %v\n", f, size, err)
	}
	made := 0
	for ; made < 100; made++ {
		if err := os.WriteFile("f"+strconv.Itoa(made), nil, 0o644); err != nil {
			break
		}
	}
	fmt.Println("files", made)
	time.Sleep(time.Hour)
}

// attackFork starts sleepers until the kernel refuses one.
func attackFork() {
	started := 0
	for ; started < 1000; started++ {
		if _, err := syscall.ForkExec("/bin/sleep", []string{"sleep", "3600"}, &syscall.ProcAttr{}); err != nil {
			fmt.Println("refused after", started, "processes:", err)
			return
		}
	}
	fmt.Println("reached:", started, "processes")
}

// TryAttacks lets arena's attacker loose in boxes made as this machine makes
// them, and writes one line for each attack, held or BROKE, after a line
// on what the machine gives and what it lacks. It returns how many broke.
func TryAttacks(out io.Writer) (int, error) {
	c := Contain()
	fmt.Fprintf(out, "this machine: %s\n", c)
	for _, lack := range c.lacks() {
		fmt.Fprintf(out, "lacks: %s\n", lack)
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "arena-check-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	// The attacker is a copy of arena: "write its own program" must not
	// reach arena's own binary if it broke.
	attacker := filepath.Join(dir, "entrant", "arena")
	if err := os.MkdirAll(filepath.Dir(attacker), 0o755); err != nil {
		return 0, err
	}
	if err := copyFile(exe, attacker, 0o755); err != nil {
		return 0, err
	}
	broke := 0
	say := func(held bool, what, detail string) {
		verdict := "held "
		if !held {
			verdict, broke = "BROKE", broke+1
		}
		fmt.Fprintf(out, "%s %s: %s\n", verdict, what, detail)
	}
	if err := checkFiles(dir, attacker, say); err != nil {
		return broke, err
	}
	checkMemory(attacker, say)
	checkDisk(attacker, say)
	checkFork(attacker, say)
	checkKill9(exe, say)
	return broke, nil
}

// lacks says, a line each, which layer this machine lacks.
func (c Containment) lacks() []string {
	var out []string
	if !c.Separate {
		out = append(out, "namespaces of each program's own (user namespaces refused here, or the portable path asked): a process group, Landlock and seccomp hold it")
	}
	if c.Landlock == 0 {
		out = append(out, "Landlock (this kernel has none)")
	} else if c.Landlock < 6 {
		out = append(out, fmt.Sprintf("Landlock ABI 6 or later (this kernel's is %d: signals and abstract sockets are not scoped)", c.Landlock))
	}
	if !c.Seccomp {
		out = append(out, "seccomp")
	}
	if c.Cgroup == "" {
		out = append(out, "a cgroup for each box ("+c.NoCgroup+"): memory counts a program's private data alone, and shared anonymous memory and memfd are refused")
	}
	return out
}

// runAttack runs attacker in a box under c with the attack named, and
// returns what it printed, how it ended and the cap its box names.
func runAttack(attacker, attack string, c Caps, args ...string) (string, error, string) {
	b, err := New(Spec{Args: append([]string{attacker}, args...), Env: []string{AttackEnv + "=" + attack}, Alone: true, Caps: c})
	if err != nil {
		return "", err, ""
	}
	defer b.Close()
	var said bytes.Buffer
	b.Cmd.Stdout, b.Cmd.Stderr = &said, &said
	if err := b.Start(); err != nil {
		return said.String(), err, ""
	}
	werr := b.Cmd.Wait()
	return said.String(), werr, b.Exceeded()
}

// checkFiles: the files, processes, sockets, IPC and privileges of the
// machine, and the box's own directory and /tmp, which the program must
// reach.
func checkFiles(dir, attacker string, say func(bool, string, string)) error {
	w, touched, end, err := newWorld(filepath.Join(dir, "world"))
	if err != nil {
		return fmt.Errorf("the machine to attack: %v", err)
	}
	defer end()
	w.ShmOwn = Contain().Separate
	arg, _ := json.Marshal(w)
	said, werr, _ := runAttack(attacker, "files", DefaultCaps, string(arg))
	n := 0
	for _, l := range strings.Split(said, "\n") {
		for _, verdict := range []string{": reached ", ": refused "} {
			name, rest, ok := strings.Cut(l, verdict)
			if !ok {
				continue
			}
			n++
			reached := verdict == ": reached "
			if own, ok := strings.CutPrefix(name, "own: "); ok {
				say(reached, "the program may "+own, strings.TrimSpace(verdict[2:]+" "+rest))
			} else {
				say(!reached, name, strings.TrimSpace(verdict[2:]+" "+rest))
			}
		}
	}
	if n == 0 {
		say(false, "the attacker ran", fmt.Sprintf("it said nothing (%v): %s", werr, strings.TrimSpace(said)))
	}
	for _, t := range touched() {
		say(false, "the machine afterwards", t)
	}
	return nil
}

// checkMemory: 600 MB of shared memory under a cap of 256M.
func checkMemory(attacker string, say func(bool, string, string)) {
	c := DefaultCaps
	c.Memory = 256 << 20
	said, werr, over := runAttack(attacker, "memory", c)
	reached := strings.Contains(said, "reached")
	detail := strings.TrimSpace(said)
	switch {
	case over != "":
		detail = fmt.Sprintf("ended (%v), %s", werr, over)
	}
	say(!reached, "touch 600 MB of shared memory under memory=256M", detail)
}

// checkDisk: 8 MB into its directory and its /tmp, and 100 files, under
// disk=4M,files=50.
func checkDisk(attacker string, say func(bool, string, string)) {
	c := DefaultCaps
	c.Disk, c.Files = 4<<20, 50
	b, err := New(Spec{Args: []string{attacker}, Env: []string{AttackEnv + "=disk"}, Alone: true, Caps: c})
	if err != nil {
		say(false, "write past disk=4M,files=50", err.Error())
		return
	}
	defer b.Close()
	out, _ := b.Cmd.StdoutPipe()
	b.Cmd.Stderr = b.Cmd.Stdout
	if err := b.Start(); err != nil {
		say(false, "write past disk=4M,files=50", err.Error())
		return
	}
	var lines []string
	held := true
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		lines = append(lines, sc.Text())
		if len(f) >= 2 && f[0] != "files" {
			if n, _ := strconv.ParseInt(f[1], 10, 64); n > c.Disk {
				held = false
			}
		}
		if len(f) == 2 && f[0] == "files" {
			if n, _ := strconv.Atoi(f[1]); n >= 100 && len(b.diskDirs) == 0 {
				held = false
			}
			break
		}
	}
	if len(b.diskDirs) == 0 {
		b.Kill() // the kernel held it; it sleeps on
	}
	werr := b.Cmd.Wait()
	if len(b.diskDirs) > 0 && !strings.Contains(b.Exceeded(), "disk cap") {
		held = false
	}
	say(held, "write 8 MB into its box and its /tmp, and 100 files, under disk=4M,files=50",
		fmt.Sprintf("%s; ended: %v %s", strings.Join(lines, "; "), werr, b.Exceeded()))
}

// checkFork: processes without end under procs=32.
func checkFork(attacker string, say func(bool, string, string)) {
	c := DefaultCaps
	c.Procs = 32
	said, werr, _ := runAttack(attacker, "fork", c)
	n := -1
	if _, rest, ok := strings.Cut(said, "refused after "); ok {
		n, _ = strconv.Atoi(strings.Fields(rest)[0])
	}
	say(n >= 0 && n <= c.Procs, "start processes without end under procs=32", fmt.Sprintf("%s (%v)", strings.TrimSpace(said), werr))
}

// checkKill9: arena killed with SIGKILL while its box's program, and a
// process it left in a session of its own, run: both must end.
func checkKill9(exe string, say func(bool, string, string)) {
	const what = "kill -9 of arena while its program and a process it left behind run"
	n := 300000 + os.Getpid()%100000*2
	parent := exec.Command(exe)
	parent.Env = append(os.Environ(), ParentEnv+"="+strconv.Itoa(n))
	out, _ := parent.StdoutPipe()
	if err := parent.Start(); err != nil {
		say(false, what, err.Error())
		return
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "started\n" {
		parent.Process.Kill()
		parent.Wait()
		say(false, what, "the box did not start: "+strings.TrimSpace(line))
		return
	}
	guard := time.Now().Add(time.Minute) // a guard against a hang, not a measure
	for len(sleepers(n)) < 2 && time.Now().Before(guard) {
		time.Sleep(5 * time.Millisecond)
	}
	parent.Process.Kill()
	parent.Wait()
	guard = time.Now().Add(time.Minute)
	for len(sleepers(n)) > 0 && time.Now().Before(guard) {
		time.Sleep(5 * time.Millisecond)
	}
	left := sleepers(n)
	for _, p := range left {
		syscall.Kill(p, syscall.SIGKILL)
	}
	say(len(left) == 0, what, fmt.Sprintf("%d of its processes left a minute after", len(left)))
}
