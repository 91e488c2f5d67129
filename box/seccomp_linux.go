//go:build linux

package box

import (
	"encoding/binary"
	"slices"
	"sync"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// A seccomp filter takes from every program in a box the system calls
// that would let it out, as bubblewrap's and Docker's default profiles
// do: mounts and namespaces (it could unmount its /proc, or make a user
// namespace and gain capabilities there), other processes' memory, the
// kernel's keyrings, BPF, modules, clocks and io_uring (whose operations
// no filter sees). Calls a program may make are left to it; what they
// reach is the box's to say. The filter covers every thread (TSYNC) and
// is inherited by every process the program starts.
//
// See: seccomp(2), and bubblewrap's and Docker's default seccomp profiles
// for the calls a sandboxed program is refused.

// boxRefused are refused (EPERM) in every box.
var boxRefused = []string{
	// mounts and namespaces
	"mount", "umount2", "pivot_root", "chroot", "setns", "unshare",
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	// other processes
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	// the kernel's facilities
	"bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup", "iopl", "ioperm",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname",
	"open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "uselib", "nfsservctl",
}

// attrsRefused are refused where no read-only mount refuses them outside
// the box (no mount namespace): Landlock does not cover a file's mode,
// owner or times.
var attrsRefused = []string{
	"chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
	"utime", "utimes", "utimensat", "futimesat",
}

// namespaceFlags are clone's flags that make a namespace.
const namespaceFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP

// enosys answers a call as a kernel that lacks it: clone3 passes its
// flags in memory, which no filter reads, and the C library and Go fall
// back to clone when it is missing.
const enosys = seccomp.Action(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))

// familiesRefused are refused in every box: every socket family but the
// seat's, IP. A network namespace of its own holds IP's sockets, not
// AF_VSOCK's (on a virtual machine, the host's ports) nor netlink's
// (the kernel's own) nor a Unix socket's path. A pair of connected Unix
// sockets (socketpair) is left to it.
var familiesRefused = seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{
	{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_INET},
	{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_INET6},
}}

// socketsRefused are refused where no network namespace of its own holds
// the program: IP's sockets other than TCP's (Landlock rules TCP's ports,
// and nothing else: not UDP).
var socketsRefused = []seccomp.NameWithConditions{
	{Name: "socket", Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_INET},
		{Argument: 1, Operation: seccomp.BitsSet, Value: unix.SOCK_DGRAM}, // and SOCK_RAW, 3; not SOCK_STREAM, 1
	}},
	{Name: "socket", Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_INET6},
		{Argument: 1, Operation: seccomp.BitsSet, Value: unix.SOCK_DGRAM},
	}},
}

// sharedAnonymous is an mmap of shared anonymous memory (MAP_SHARED and
// MAP_ANONYMOUS, any bit of each set: MAP_SHARED_VALIDATE too), which
// RLIMIT_DATA does not count: refused where no cgroup counts memory
// whole, with memfd_create, so that a program's memory is its private
// data (capped) or its tmpfs and files (capped by its disk).
var sharedAnonymous = seccomp.NameWithConditions{Name: "mmap", Conditions: seccomp.ArgumentConditions{
	{Argument: 3, Operation: seccomp.BitsSet, Value: unix.MAP_SHARED},
	{Argument: 3, Operation: seccomp.BitsSet, Value: unix.MAP_ANONYMOUS},
}}

// sysvRefused are refused where no IPC namespace of its own holds the
// program: System V's shared memory, semaphores and message queues are
// the machine's there, shared with every other entrant and left behind
// when the program ends, outside every cap.
var sysvRefused = []string{"shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semtimedop", "semctl",
	"msgget", "msgsnd", "msgrcv", "msgctl", "ipc"}

// filterBox loads the box's filter; shared (no mount, network or IPC
// namespace of its own) refuses socketsRefused and sysvRefused too, and ownUID, shared
// with arena's uid (no uid of its own, whose files the permissions would
// keep from it), attrsRefused: a file it may only read, its own program
// among them, is arena's user's, whose mode it could change.
func filterBox(shared, ownUID, uncounted bool) error {
	refused := boxRefused
	conditional := []seccomp.NameWithConditions{{
		Name:       "clone",
		Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: namespaceFlags}},
	}, familiesRefused}
	if shared {
		conditional = append(conditional, socketsRefused...)
		refused = append(refused[:len(refused):len(refused)], sysvRefused...)
	}
	if shared && !ownUID {
		refused = append(refused[:len(refused):len(refused)], attrsRefused...)
	}
	if uncounted {
		refused = append(refused[:len(refused):len(refused)], "memfd_create")
		conditional = append(conditional, sharedAnonymous)
	}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, Names: known(refused), NamesWithCondtions: conditional},
				{Action: enosys, Names: known([]string{"clone3"})},
			},
		},
	})
}

// ConfineInterpreter takes from a go: bot's interpreter, once it serves,
// what it never needs beyond what its box leaves it: its standard input
// and output and the match are all it uses, so the calls that open
// files, start programs, open sockets or reach other processes are
// refused too. The interpreter calls it before the bot's code is read.
func ConfineInterpreter() error {
	return seccomp.LoadFilter(seccomp.Filter{NoNewPrivs: true, Flag: seccomp.FilterFlagTSync, Policy: interpreterPolicy()})
}

// interpreterPolicy refuses interpreterRefused.
func interpreterPolicy() seccomp.Policy {
	return seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: known(interpreterRefused)}},
	}
}

// InterpreterProgram is ConfineInterpreter's filter as a classic BPF
// program, 8 bytes an instruction (code, jt, jf, k; little-endian), for
// a bot built with Go to load in itself before any of its code runs
// (internal/confine): the built program carries no seccomp library, and
// so it is confined as the interpreter is.
func InterpreterProgram() ([]byte, error) { return interpreterProgram() }

// interpreterProgram assembles the program once a process: every built
// bot's start hands it over.
var interpreterProgram = sync.OnceValues(func() ([]byte, error) {
	policy := interpreterPolicy()
	insts, err := policy.Assemble()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		out = binary.LittleEndian.AppendUint16(out, r.Op)
		out = append(out, r.Jt, r.Jf)
		out = binary.LittleEndian.AppendUint32(out, r.K)
	}
	return out, nil
})

// interpreterRefused are the calls the interpreter never makes once it
// serves: the Go runtime makes threads with clone and signals its own
// threads with tgkill, both left to it.
var interpreterRefused = []string{
	// files
	"open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
	"unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"mkdir", "mkdirat", "rmdir", "truncate", "chmod", "fchmod", "fchmodat", "fchmodat2",
	"chown", "fchown", "lchown", "fchownat", "utime", "utimes", "utimensat", "futimesat",
	// programs
	"execve", "execveat", "fork", "vfork",
	// the network and other processes' sockets
	"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
	// other processes
	"kill", "tkill", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "kcmp",
}

// known keeps the names this architecture has (arm64 has no open, fork
// or chmod, only their *at forms): the filter refuses a name it does not
// know.
func known(names []string) []string {
	info, err := arch.GetInfo("")
	if err != nil {
		return names
	}
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool {
		_, ok := info.SyscallNames[n]
		return !ok
	})
}

// seccompOK reports whether this kernel takes seccomp filters.
func seccompOK() bool {
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}
