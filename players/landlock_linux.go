//go:build linux

package players

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is asked directly, with the three system calls of its
// interface: the launcher confines the one thread that then executes
// the interpreter, which needs no library's help to reach every thread
// (go-landlock's way links libcap's psx, which with cgo wraps every
// pthread_create of arena's binaries, the window's among them, and which
// reads /proc/PID/task by a PID of the namespace it is in).

// landlockABI is the kernel's Landlock version, 0 where it has none.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// handled are the rights a ruleset of Landlock version abi takes charge
// of: all the version knows, so that what no rule allows is refused.
func handled(abi int) unix.LandlockRulesetAttr {
	var a unix.LandlockRulesetAttr
	switch {
	case abi >= 9:
		a.Handled_access_fs = 1<<17 - 1
	case abi >= 5:
		a.Handled_access_fs = 1<<16 - 1
	case abi >= 3:
		a.Handled_access_fs = 1<<15 - 1
	case abi == 2:
		a.Handled_access_fs = 1<<14 - 1
	case abi == 1:
		a.Handled_access_fs = 1<<13 - 1
	}
	if abi >= 4 {
		a.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		a.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	return a
}

// rulesetSize is the part of the attribute that the oldest kernels with
// scopes read: the kernel refuses a larger size it does not know unless
// the rest is zero, which it is.
const rulesetSize = unsafe.Sizeof(unix.LandlockRulesetAttr{})

// confineSelf gives the calling thread, which then executes the program
// at exe (arena's own binary, as a go: bot's interpreter), a Landlock
// domain in which no path of the file system may be opened, listed,
// made or run but the binary itself and what the dynamic loader reads to
// start it (the shared libraries the binary maps now, and the loader's
// cache), no TCP port may be bound or connected to, and no signal or
// abstract Unix socket reaches outside. It does nothing where the kernel
// has no Landlock: the interpreter's seccomp filter and the review of
// its tables stand there (Containment says so).
func confineSelf(exe string) error {
	abi := landlockABI()
	if abi == 0 {
		return nil
	}
	attr := handled(abi)
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), rulesetSize, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %v", errno)
	}
	defer unix.Close(int(fd))
	read := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE)
	allow := map[string]uint64{exe: read | unix.LANDLOCK_ACCESS_FS_EXECUTE, "/etc/ld.so.cache": read}
	for _, lib := range mappedFiles() {
		allow[lib] |= read | unix.LANDLOCK_ACCESS_FS_EXECUTE
	}
	for path, access := range allow {
		if err := allowBeneath(int(fd), path, access&attr.Handled_access_fs); err != nil && path == exe {
			return err
		}
	}
	runtime.LockOSThread() // never unlocked: the thread executes the interpreter
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %v", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %v", errno)
	}
	return nil
}

// allowBeneath adds a rule allowing access to the file at path.
func allowBeneath(ruleset int, path string, access uint64) error {
	f, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	defer unix.Close(f)
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(f)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %v", path, errno)
	}
	return nil
}

// mappedFiles are the shared libraries this process maps: the same
// binary maps the same ones when it starts again.
func mappedFiles() []string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	seen := map[string]bool{}
	var list []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") || !strings.Contains(fields[5], ".so") || seen[fields[5]] {
			continue
		}
		seen[fields[5]] = true
		list = append(list, fields[5])
	}
	return list
}
