//go:build linux

package interp

import seccomp "github.com/elastic/go-seccomp-bpf"

// confine takes from this process, the interpreter of one bot, what the
// Landlock domain it was started in (players' launcher) leaves it, and
// what a kernel without Landlock would allow: it has its standard input
// and output, the match, and needs nothing else. Should a name ever leak
// into the bot's tables that opens a file, starts a program or opens a
// socket (the review in gobot/symbols is the first wall), the kernel
// refuses it. The seccomp filter, applied to every thread (TSYNC),
// answers EPERM to the calls that open files, start programs, open
// sockets, reach other processes or widen what the process may do.
// players.Contain says whether this kernel has it.
func confine() error {
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: refusedCalls}},
		},
	})
}

// refusedCalls are the system calls the interpreter never makes once it
// serves: the Go runtime makes threads with clone and signals its own
// threads with tgkill, both left to it.
var refusedCalls = []string{
	// files
	"open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
	// programs
	"execve", "execveat", "fork", "vfork",
	// the network and other processes' sockets
	"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
	// other processes
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd", "kcmp",
	// what the process may do
	"mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "bpf", "perf_event_open",
	"keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
	"init_module", "finit_module", "delete_module", "kexec_load", "reboot", "swapon", "swapoff",
}
