//go:build linux

package box

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The rlimits Linux enforces for the caps: a program's data (heap and
// anonymous mappings, which is what grows), and the processes and threads
// of its uid (a uid of its own, or in its user namespace its tree alone).
const (
	rlimitMemory = syscall.RLIMIT_DATA
	rlimitNPROC  = unix.RLIMIT_NPROC
)

// confine is the last of the launcher's steps before the program:
// no_new_privs, then (in a user namespace of its own, where the launcher
// is uid 0 with every capability of the namespace) every capability
// dropped for good, then Landlock, then the seccomp filter.
func confine(p *plan) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %v", err)
	}
	if p.Root != nil {
		if err := dropCapabilities(p.Root.Uid); err != nil {
			return err
		}
		if err := stillParented(p.AliveFD); err != nil {
			return err
		}
	}
	if err := landlock(p.Read, p.Write, p.Connect); err != nil {
		return err
	}
	if !seccompOK() {
		return nil // Containment says so
	}
	if err := filterBox(p.Shared, p.Uid != 0, p.Uncounted); err != nil {
		return fmt.Errorf("seccomp: %v", err)
	}
	return nil
}

// secureBits keep uid 0 from regaining capabilities on exec (NOROOT),
// a change of uid from keeping or restoring them (NO_SETUID_FIXUP,
// KEEP_CAPS) and ambient capabilities from being raised, each locked so
// that no process of the box can unset it.
// (linux/securebits.h; x/sys/unix does not name them.)
const secureBits = secbitNoRoot | secbitNoRoot<<1 | // and locked
	secbitNoSetuidFixup | secbitNoSetuidFixup<<1 |
	secbitKeepCaps<<1 | // locked, unset
	secbitNoCapAmbientRaise | secbitNoCapAmbientRaise<<1

const (
	secbitNoRoot            = 1 << 0
	secbitNoSetuidFixup     = 1 << 2
	secbitKeepCaps          = 1 << 4
	secbitNoCapAmbientRaise = 1 << 6
)

// dropCapabilities empties the calling thread's capability sets, its
// bounding set and its ambient set, locks the securebits, and becomes
// uid (and gid) of the box's user namespace when uid is not 0, so that
// the program has no capability there and no way to gain one: not by
// exec, not by a setuid program (no_new_privs and the bounding set), not
// by becoming uid 0 again (no CAP_SETUID). As bubblewrap's drop_all_caps
// and nsjail's caps.cc do. The uid is changed on this thread alone, the
// one that executes the program.
//
// See: capabilities(7) ("The securebits flags", "Capability bounding
// set"), prctl(2) (PR_SET_SECUREBITS, PR_CAPBSET_DROP, PR_CAP_AMBIENT),
// capset(2).
func dropCapabilities(uid int) error {
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, secureBits, 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %v", err)
	}
	for c := 0; c <= lastCap(); c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("dropping capability %d: %v", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("ambient capabilities: %v", err)
	}
	if uid != 0 {
		for _, call := range []struct {
			nr      uintptr
			a, b, c uintptr
		}{
			{unix.SYS_SETGROUPS, 0, 0, 0},
			{unix.SYS_SETRESGID, uintptr(uid), uintptr(uid), uintptr(uid)},
			{unix.SYS_SETRESUID, uintptr(uid), uintptr(uid), uintptr(uid)},
		} {
			if _, _, errno := unix.RawSyscall(call.nr, call.a, call.b, call.c); errno != 0 {
				return fmt.Errorf("becoming uid %d: %v", uid, errno)
			}
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("capset: %v", err)
	}
	return nil
}

// lastCap is the kernel's highest capability, from its own /proc (the
// box's, once mounted), or 63.
func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		if n, err := strconv.Atoi(string(trimNL(b))); err == nil {
			return n
		}
	}
	return 63
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// stillParented sets the parent-death signal again, which the change of
// uid and capabilities cleared (credentials(7): the kernel clears it when
// a process's credentials change), so that the box's first process, and
// with it its PID namespace, still dies with arena; then it checks that
// arena did not end before: the pipe at fd is arena's, never written, and
// at its end (POLLHUP) once arena has ended.
func stillParented(fd int) error {
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("parent-death signal: %v", err)
	}
	if fd <= 0 {
		return nil
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 0); err == nil && n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLIN) != 0 {
		return errors.New("arena ended while the box was made")
	}
	unix.Close(fd)
	return nil
}

// ownParentDeath clears the watching launcher's parent-death signal (it
// must outlive arena to end the program's group) and makes it a
// subreaper: a process of the program's that leaves its group and
// session, and whose parent ends, becomes the launcher's child, not
// init's, so that the launcher finds it among its descendants.
func ownParentDeath() {
	unix.Prctl(unix.PR_SET_PDEATHSIG, 0, 0, 0, 0)
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// childAttr is how the watching launcher starts the program: in its own
// process group, killed when the launcher dies, as uid and gid when they
// are set (arena as root, with no user namespace).
func childAttr(uid, gid int) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if uid != 0 {
		a.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	}
	return a
}

// endAll ends every process the program left (endBelow), then the
// launcher's process group, the launcher with it.
func endAll(uid, gid int) {
	endBelow(uid, gid)
	syscall.Kill(0, syscall.SIGKILL) // the group: the program, what it started, and this launcher
}

// endBelow ends every process below the launcher and, where the program
// runs as a uid of its own, every process of that uid, which leaving the
// group (setsid) does not escape: a process of that uid kills every
// process it may signal, which is every process of its uid.
func endBelow(uid, gid int) {
	if uid != 0 {
		// A child of raw system calls only, as Go's own forkExec makes:
		// clone with SIGCHLD alone is fork on every architecture. It is
		// waited for before the rest is ended.
		pid, _, errno := syscall.RawSyscall(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0)
		if errno == 0 && pid == 0 {
			syscall.RawSyscall(syscall.SYS_SETGID, uintptr(gid), 0, 0)
			syscall.RawSyscall(syscall.SYS_SETUID, uintptr(uid), 0, 0)
			syscall.RawSyscall(syscall.SYS_KILL, ^uintptr(0), uintptr(syscall.SIGKILL), 0) // -1: all it may
			syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
		}
		if errno == 0 {
			var ws syscall.WaitStatus
			syscall.Wait4(int(pid), &ws, 0, nil)
		}
	}
	killDescendants(os.Getpid())
}

// killDescendants ends every process below root, as the machine's /proc
// tells the tree, until none is left. The launcher is a subreaper: what
// the program started is below it while it lives, in its group or not,
// and a process whose parent is killed is the launcher's next.
func killDescendants(root int) {
	for range 100 {
		parent := map[int]int{}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
			if err != nil {
				continue
			}
			// pid (comm) state ppid ...: comm may hold spaces and parentheses.
			if i := bytes.LastIndexByte(b, ')'); i > 0 {
				if f := strings.Fields(string(b[i+1:])); len(f) > 1 {
					parent[pid], _ = strconv.Atoi(f[1])
				}
			}
		}
		found := false
		for pid := range parent {
			for p := parent[pid]; p > 1; p = parent[p] {
				if p == root {
					syscall.Kill(pid, syscall.SIGKILL)
					found = true
					break
				}
			}
		}
		if !found {
			return
		}
	}
}
