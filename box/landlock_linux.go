//go:build linux

package box

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is asked directly, with the three system calls of its
// interface: the launcher confines the one thread that then executes the
// program, which needs no library's help to reach every thread
// (go-landlock's way links libcap's psx, which with cgo wraps every
// pthread_create of arena's binaries, the window's among them, and which
// reads /proc/PID/task by a PID of the namespace it is in).
//
// See: landlock(7), landlock_create_ruleset(2), landlock_add_rule(2),
// landlock_restrict_self(2); the kernel's userspace-api/landlock.rst for
// what each ABI version adds (2: REFER, 3: TRUNCATE, 4: TCP bind and
// connect, 5: IOCTL_DEV, 6: signal and abstract socket scopes).

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

// The rights of the rules: to read and run what is beneath a path, and
// everything beneath the box's own directories. A rule on a file takes
// only the rights that apply to files.
const (
	readRights = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE
	fileRights = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	allRights = 1<<16 - 1
)

// landlock gives the calling thread, which then executes the program, a
// Landlock domain in which it may read and run what is beneath read,
// write only beneath write, connect by TCP only to port connect (0: to
// none) and bind none, and reach no process or abstract Unix socket
// outside its domain. It does nothing where the kernel has no Landlock
// (Containment says so). The caller has set no_new_privs.
func landlock(read, write []string, connect int) error {
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
	for _, p := range read {
		if err := allowBeneath(int(fd), p, readRights&attr.Handled_access_fs); err != nil {
			return err
		}
	}
	for _, p := range write {
		if err := allowBeneath(int(fd), p, allRights&attr.Handled_access_fs); err != nil {
			return err
		}
	}
	if connect > 0 && attr.Handled_access_net != 0 {
		rule := netPortAttr{Allowed_access: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, Port: uint64(connect)}
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, landlockRuleNetPort, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("landlock_add_rule port %d: %v", connect, errno)
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %v", errno)
	}
	return nil
}

// netPortAttr is struct landlock_net_port_attr (linux/landlock.h), which
// x/sys/unix does not have.
const landlockRuleNetPort = 2 // LANDLOCK_RULE_NET_PORT

type netPortAttr struct {
	Allowed_access uint64
	Port           uint64
}

// allowBeneath adds a rule allowing access beneath path, or to the file
// at path. A path that is not there is left out: a system directory this
// machine lacks.
func allowBeneath(ruleset int, path string, access uint64) error {
	f, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	defer unix.Close(f)
	var st unix.Stat_t
	if err := unix.Fstat(f, &st); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fileRights
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(f)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %v", path, errno)
	}
	return nil
}
