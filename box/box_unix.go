//go:build unix && !linux

package box

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// There are no namespaces, Landlock or seccomp here (macOS, the BSDs): a
// program runs in a process group that a launcher watches (see watch),
// in a directory of its own with the clean environment, under the
// rlimits this system enforces, and on macOS under a Seatbelt profile
// (seatbelt.go) that keeps its writes in its box, its network to its
// seat and its signals to its own tree.

// The rlimits macOS and the BSDs are asked for: CPU time alone. macOS
// enforces neither RLIMIT_DATA nor RLIMIT_AS on what malloc maps, and
// counts RLIMIT_NPROC over every process of the user (a laptop's browser
// and editor too), so a cap there would refuse the program's first fork;
// those caps are not applied (Caps says so).
const (
	rlimitMemory = -1
	rlimitNPROC  = -1
)

// osBox is what this system's way of boxing keeps of a box.
type osBox struct {
	sharedSeat bool
	child      *os.File // the launcher's end of the watch pipe
	watch      *os.File // arena's end, never written
}

func (b *Box) prepare() error {
	r, err := resolve(b.spec, nil)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("arena's own binary, which makes the program's box, cannot be found: %v", err)
	}
	p := &plan{
		Program: r.program, Args: r.args, Caps: b.spec.Caps, Dir: b.Dir,
		Env:   Environment(b.Dir, b.tmp(), b.spec.Caps, b.spec.Env),
		Watch: true, WatchFD: 3,
	}
	port := 0
	if b.spec.Seat {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("its seat: %v", err)
		}
		b.seat, b.addr, b.os.sharedSeat = ln, ln.Addr().String(), true
		host, ps, _ := net.SplitHostPort(b.addr)
		p.Args = seatWords(p.Args, host, ps)
		port, _ = strconv.Atoi(ps)
	}
	seatbelt(p, Profile{Read: append(r.files, r.found...), Write: []string{b.Dir, b.tmp()}, Port: port})
	rd, wr, err := os.Pipe()
	if err != nil {
		return err
	}
	b.os.child, b.os.watch = rd, wr
	b.Cmd = &exec.Cmd{Path: exe, Args: []string{exe}, Dir: b.Dir, ExtraFiles: []*os.File{rd}, Env: []string{p.encode()}}
	b.Cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return nil
}

func (b *Box) afterStart() error {
	b.os.child.Close()
	return nil
}

func (b *Box) afterFailedStart() {
	for _, f := range []*os.File{b.os.child, b.os.watch} {
		if f != nil {
			f.Close()
		}
	}
	b.Close()
}

// killTree ends the program's process group, launcher and all.
func (b *Box) killTree() {
	if b.Cmd != nil && b.Cmd.Process != nil {
		syscall.Kill(-b.Cmd.Process.Pid, syscall.SIGKILL)
	}
	if b.os.watch != nil {
		b.os.watch.Close()
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// The launcher's steps that need Linux.
func enterRoot(*rootPlan) error  { return errors.New("no mount namespaces on this system") }
func openSeat(int, int) error    { return errors.New("no network namespaces on this system") }
func confine(*plan) error        { return nil } // the Seatbelt profile is the program's wrapper
func ownParentDeath()            {}
func joinCgroups([]string) error { return nil }

// overMemory: no cgroup here counts a program's memory.
func (b *Box) overMemory() string { return "" }
func endAll(uid, gid int)         { syscall.Kill(0, syscall.SIGKILL) }
func endBelow(uid, gid int)       {}
func childAttr(uid, gid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{}
}
