//go:build linux

package box

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// osBox is what Linux's way of boxing keeps of a box.
type osBox struct {
	separate   bool // in namespaces of its own
	sharedSeat bool
	uid        int      // the program's uid on the machine, when one of its own (arena as root)
	ctrl       *os.File // arena's end of the seat's socket
	child      *os.File // the launcher's end of the seat's socket or the watch pipe
	watch      *os.File // arena's end of the watch pipe, never written
	alive      *os.File // arena's end of the alive pipe (plan.AliveFD), never written
	aliveChild *os.File // the launcher's end, closed once it has it
	cgroup     string   // the box's cgroup v2, where arena makes one
	cgroupV1   []string // or its cgroups v1 (memory, pids), as root
	cgroupDir  *os.File // its folder, open for CLONE_INTO_CGROUP until the box starts
}

// inCgroupV1 has the launcher join cgroups v1 of the box's own under its
// caps, where arena makes no cgroup v2 and may make these
// (cgroupv1_linux.go).
func (b *Box) inCgroupV1(p *plan) error {
	if cgroups().dir != "" {
		return nil
	}
	dirs, err := makeV1(cgroupsV1(), b.spec.Caps)
	p.Join, b.os.cgroupV1 = dirs, dirs
	p.Uncounted = len(dirs) == 0 && b.spec.Caps.Memory > 0
	return err
}

// overMemory names the memory cap where the kernel ended a process of
// the box's cgroup at it.
func (b *Box) overMemory() string {
	dirs := b.os.cgroupV1
	if b.os.cgroup != "" {
		dirs = append(dirs, b.os.cgroup)
	}
	if len(dirs) > 0 && oomKilled(dirs...) {
		return "over its memory cap of " + SizeText(b.spec.Caps.Memory)
	}
	return ""
}

// inCgroup has cmd start in a cgroup of the box's own under its caps,
// where arena may make one (cgroup_linux.go).
func (b *Box) inCgroup(attr *syscall.SysProcAttr) error {
	f, dir, err := makeCgroup(b.spec.Caps)
	if err != nil || f == nil {
		return err
	}
	attr.UseCgroupFD, attr.CgroupFD = true, int(f.Fd())
	b.os.cgroup, b.os.cgroupDir = dir, f
	return nil
}

// namespaceFlags of the box: user, PID, mount, network, IPC and UTS.
const boxNamespaces = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// prepare makes the launcher's command for the program: in namespaces
// of its own where the kernel allows them (Contain), else in a watched
// process group.
func (b *Box) prepare() error {
	separate := Contain().Separate
	var reach func(string) bool
	if !separate && os.Getuid() == 0 {
		reach = func(dir string) bool { return othersMay(dir, true) }
	}
	r, err := resolve(b.spec, reach)
	if err != nil {
		return err
	}
	if separate {
		return b.separate(r, false)
	}
	return b.watched(r)
}

// self is arena's own binary, the launcher.
func self() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("arena's own binary, which makes the program's box, cannot be found: %v", err)
	}
	return p, nil
}

// separate prepares a box in namespaces of its own (see enterRoot).
func (b *Box) separate(r resolved, probe bool) error {
	exe, err := self()
	if err != nil {
		return err
	}
	uid, gid := os.Getuid(), os.Getgid()
	root := uid == 0
	uidMap := []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
	gidMap := []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
	rp := &rootPlan{Mount: b.mountPoint(), Box: b.Dir, Tmp: b.tmp(), System: systemDirs,
		Disk: b.spec.Caps.Disk, FileCap: b.spec.Caps.Files, Scratch: b.spec.Dir == ""}
	if rp.Disk > 0 { // its /tmp, and /box where the box made it, are tmpfs of the cap's size
		b.diskDirs = nil
		if !rp.Scratch {
			b.diskDirs = []string{b.Dir}
		}
	}
	if root {
		// The launcher is the machine's root within the namespace (it
		// binds what only root may read), the program boxUID, a uid of
		// its own on the machine.
		uid, gid = newUID(), newUID()
		if err := b.chown(uid, gid); err != nil {
			return err
		}
		b.os.uid = uid
		uidMap = append(uidMap, syscall.SysProcIDMap{ContainerID: boxUID, HostID: uid, Size: 1})
		gidMap = append(gidMap, syscall.SysProcIDMap{ContainerID: boxUID, HostID: gid, Size: 1})
		rp.Uid = boxUID
	}
	if rp.Files, err = b.givenFiles(r.files, r.found, uid, gid, true); err != nil {
		return err
	}
	p := &plan{
		Program: r.program, Args: r.args, Caps: b.spec.Caps, Probe: probe,
		Root:  rp,
		Env:   Environment("/box", "/tmp", b.spec.Caps, b.spec.Env),
		Read:  []string{"/"},
		Write: []string{"/box", "/tmp", "/dev"},
	}
	cmd := &exec.Cmd{Path: exe, Args: []string{exe}, Dir: "/"}
	rd, wr, err := os.Pipe()
	if err != nil {
		return err
	}
	b.os.alive, b.os.aliveChild = wr, rd
	cmd.ExtraFiles = []*os.File{rd} // 3
	p.AliveFD = 3
	if b.spec.Seat {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		b.os.ctrl, b.os.child = os.NewFile(uintptr(fds[0]), "seat"), os.NewFile(uintptr(fds[1]), "seat")
		cmd.ExtraFiles = append(cmd.ExtraFiles, b.os.child) // 4
		p.Seat, p.SeatFD, p.Connect = seatPort, 4, seatPort
		b.addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(seatPort))
		p.Args = seatWords(p.Args, "127.0.0.1", strconv.Itoa(seatPort))
	}
	if err := b.inCgroupV1(p); err != nil {
		return err
	}
	cmd.Env = []string{p.encode()}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:                 boxNamespaces,
		UidMappings:                uidMap,
		GidMappings:                gidMap,
		GidMappingsEnableSetgroups: root,
		Credential:                 &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: !root},
		Setpgid:                    true,
		Pdeathsig:                  syscall.SIGKILL, // the namespace's first process: its death ends the tree
	}
	b.os.separate = true
	b.Cmd = cmd
	return b.inCgroup(cmd.SysProcAttr)
}

// watched prepares a program in a process group that a launcher watches
// (see watch), confined by Landlock and seccomp where the kernel has
// them, as a uid of its own when arena is root.
func (b *Box) watched(r resolved) error {
	exe, err := self()
	if err != nil {
		return err
	}
	p := &plan{
		Program: r.program, Args: r.args, Caps: b.spec.Caps, Dir: b.Dir,
		Env:   Environment(b.Dir, b.tmp(), b.spec.Caps, b.spec.Env),
		Read:  append(existing(systemDirs), devicePaths("zero", "random", "urandom")...),
		Write: append([]string{b.Dir, b.tmp()}, devicePaths("null", "full")...),
		Watch: true, WatchFD: 3, Shared: true,
	}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		uid, gid = newUID(), newUID()
		if err := b.chown(uid, gid); err != nil {
			return err
		}
		p.Uid, p.Gid, b.os.uid = uid, gid, uid
		// Its own binary is run through a descriptor the launcher opens:
		// the folder of a program file given alone may be root's only.
		p.ExecFD = !othersMay(r.program, true)
	}
	files := r.files
	if p.ExecFD {
		files = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == r.program })
		p.Read = append(p.Read, r.program)
	}
	binds, err := b.givenFiles(files, r.found, uid, gid, false)
	if err != nil {
		return err
	}
	for _, bd := range binds {
		p.Read = append(p.Read, bd.From)
	}
	p.Args = rewrite(p.Args, binds)
	if b.spec.Seat {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("its seat: %v", err)
		}
		b.seat, b.addr, b.os.sharedSeat = ln, ln.Addr().String(), true
		host, port, _ := net.SplitHostPort(b.addr)
		p.Args = seatWords(p.Args, host, port)
		p.Connect, _ = strconv.Atoi(port)
	}
	rd, wr, err := os.Pipe()
	if err != nil {
		return err
	}
	b.os.child, b.os.watch = rd, wr
	cmd := &exec.Cmd{Path: exe, Args: []string{exe}, Dir: b.Dir, ExtraFiles: []*os.File{rd}}
	if err := b.inCgroupV1(p); err != nil {
		return err
	}
	cmd.Env = []string{p.encode()}
	// No parent-death signal: the launcher must outlive arena to end the
	// group (its program has one).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	b.Cmd = cmd
	return b.inCgroup(cmd.SysProcAttr)
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func devicePaths(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "/dev/" + n
	}
	return out
}

// chown gives the box's directories to the program's uid.
func (b *Box) chown(uid, gid int) error {
	for _, d := range []string{b.root, b.Dir, b.tmp(), b.mountPoint()} {
		if err := os.Chown(d, uid, gid); err != nil {
			return fmt.Errorf("the program's box: %v", err)
		}
	}
	return nil
}

// boxUID is the program's uid within its user namespace, when arena is
// root: an ordinary user's, as the program sees itself.
const boxUID = 1000

// uids are handed out from a range no system gives its users: each box
// of an arena run as root gets one of its own, so that no two entrants
// share a uid (a signal, a file) even where namespaces fail.
var uids atomic.Uint32

const uidBase = 1_600_000_000

func newUID() int {
	n := uids.Add(1)
	return uidBase + (os.Getpid()%65536)*4096 + int(n%4096)
}

func (b *Box) afterStart() error {
	for _, f := range []*os.File{b.os.child, b.os.aliveChild, b.os.cgroupDir} {
		if f != nil {
			f.Close()
		}
	}
	if b.os.ctrl == nil {
		return nil
	}
	defer b.os.ctrl.Close()
	c, err := net.FileConn(b.os.ctrl)
	if err != nil {
		return err
	}
	defer c.Close()
	ln, err := receiveSeat(c.(*net.UnixConn), 20*time.Second)
	if err != nil {
		return errors.New("its box was not made (see what it wrote)")
	}
	b.seat = ln
	return nil
}

func (b *Box) afterFailedStart() {
	for _, f := range []*os.File{b.os.child, b.os.ctrl, b.os.watch, b.os.alive, b.os.aliveChild, b.os.cgroupDir} {
		if f != nil {
			f.Close()
		}
	}
	b.Close()
}

// killTree ends the program's tree: in namespaces of its own, the
// namespace's first process, whose death ends every process in it;
// otherwise every process below the watching launcher, its process
// group, and every process of its own uid, which leaving the group does
// not escape.
func (b *Box) killTree() {
	if b.Cmd != nil && b.Cmd.Process != nil {
		if b.os.watch != nil {
			// The watching launcher is a subreaper: what left the
			// group is below it until it ends, and is ended first.
			killDescendants(b.Cmd.Process.Pid)
		}
		syscall.Kill(-b.Cmd.Process.Pid, syscall.SIGKILL)
		syscall.Kill(b.Cmd.Process.Pid, syscall.SIGKILL)
	}
	if !b.os.separate && b.os.uid != 0 {
		killUID(b.os.uid)
	}
	if over := b.overMemory(); over != "" {
		b.exceeded.CompareAndSwap(nil, over)
	}
	endCgroup(b.os.cgroup)
	b.os.cgroup = ""
	endV1(b.os.cgroupV1)
	b.os.cgroupV1 = nil
	for _, f := range []*os.File{b.os.watch, b.os.alive} {
		if f != nil {
			f.Close()
		}
	}
}

// killUID ends every process whose real uid is uid.
func killUID(uid int) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
				if f[1] == strconv.Itoa(uid) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				break
			}
		}
	}
}

// alive reports whether a process runs (or may: one that cannot be
// signalled is taken as running).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
