//go:build linux

package box

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A program's clock, where arena charges it the CPU time it used (a fair
// clock: the machine's load moves no game), reads the kernel's accounts
// of the program's whole tree, and the side not on move is stopped.
//
// The tree is the box's first process and every process below it, found
// through /proc/PID/task/TID/children (proc(5)): in namespaces of its own
// the first process is the program (the launcher executed it), and every
// process it starts, or that its processes leave behind, is below it
// (the namespace's init reaps orphans); on the portable path the
// launcher stays the program's parent and is a subreaper, so the same
// holds below it. Each process's account is /proc/PID/stat's utime,
// stime, cutime and cstime: its own threads' time, the dead ones'
// included, and that of the children it waited for, which a child's
// account leaves when it is reaped. Summed over the live tree, every
// process's time is counted once. stat counts in clock ticks (USER_HZ,
// 100 a second); each live thread's schedstat counts nanoseconds, so a
// move of live threads is charged to the nanosecond, and what ended
// within it to the tick (see cpuOf).

// clockTick is USER_HZ: Linux reports 100 ticks a second to user space
// whatever the kernel's own HZ (the ABI fixes it).
const clockTick = 10 * time.Millisecond

// CPU is the CPU time the program's tree has used so far, user and
// system; ok is false where this system's box cannot tell.
func (b *Box) CPU() (time.Duration, bool) {
	if b.Cmd == nil || b.Cmd.Process == nil {
		return 0, false
	}
	var sum time.Duration
	for _, pid := range tree(b.Cmd.Process.Pid) {
		sum += cpuOf(pid)
	}
	// A process reaped between the reads of its parent and its own is
	// counted in neither, and a tree that has ended reads nothing: the
	// time is never less than was read before.
	b.meterMu.Lock()
	defer b.meterMu.Unlock()
	b.cpuSeen = max(b.cpuSeen, sum)
	return b.cpuSeen, true
}

// Pause stops the program's tree (SIGSTOP) until Resume: the side not on
// move neither takes its opponent's CPU nor thinks for free. A process
// that forks as it is stopped is caught by the next pass; a stopped
// process forks no more, so the passes end.
func (b *Box) Pause() {
	b.signalTree(syscall.SIGSTOP)
}

// Resume continues what Pause stopped.
func (b *Box) Resume() {
	b.signalTree(syscall.SIGCONT)
}

// signalTree sends sig to every process of the program's tree, again
// until a pass finds no process it had not signalled. On the portable
// path the launcher is left running: it must hear arena's end.
func (b *Box) signalTree(sig syscall.Signal) {
	if b.Cmd == nil || b.Cmd.Process == nil {
		return
	}
	root := b.Cmd.Process.Pid
	done := map[int]bool{}
	for range 64 {
		fresh := false
		for _, pid := range tree(root) {
			if done[pid] || pid == root && b.os.watch != nil {
				continue
			}
			done[pid], fresh = true, true
			syscall.Kill(pid, sig)
		}
		if !fresh {
			return
		}
	}
}

// tree is root and every process below it, parents before children.
func tree(root int) []int {
	out := []int{root}
	for k := 0; k < len(out) && len(out) < 1<<16; k++ {
		out = append(out, children(out[k])...)
	}
	return out
}

// children are pid's children, from each of its threads' children file.
func children(pid int) []int {
	p := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(p)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(p + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// cpuOf is a process's CPU time: its own, and that of the children it
// waited for. Its own is its threads' schedstat (the nanoseconds each
// live thread ran, exact), or stat's utime+stime where that is more (it
// counts the threads that ended too, to the tick); its children's is
// stat's cutime+cstime, to the tick (the kernel sums them exactly and
// rounds the sum). 0 for a process gone.
func cpuOf(pid int) time.Duration {
	dir := "/proc/" + strconv.Itoa(pid)
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0
	}
	// The command's name, in parentheses, may hold spaces and ')': the
	// fields start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime, stime, cutime and cstime are
	// fields 14 to 17.
	if len(f) < 15 {
		return 0
	}
	tick := func(s string) time.Duration {
		n, _ := strconv.ParseInt(s, 10, 64)
		return time.Duration(n) * clockTick
	}
	own, children := tick(f[11])+tick(f[12]), tick(f[13])+tick(f[14])
	var ran time.Duration
	tasks, _ := os.ReadDir(dir + "/task")
	for _, t := range tasks {
		ss, err := os.ReadFile(dir + "/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if first, _, ok := strings.Cut(string(ss), " "); ok {
			n, _ := strconv.ParseInt(first, 10, 64)
			ran += time.Duration(n)
		}
	}
	return max(own, ran) + children
}
