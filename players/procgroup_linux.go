//go:build linux

package players

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// newGroup makes the program the leader of a process group of its own,
// so that its children (a wrapper script's program, a worker it forks)
// end with it, and, where the kernel allows it, the first process of a
// PID namespace of its own: when that process dies the kernel ends every
// process in the namespace, those that left the group or started a
// session of their own (setsid, a double fork) too. The program gets a
// parent-death signal, so that it dies with arena however arena ends:
// kill -9 of a tournament leaves nothing of the programs it ran. Without
// namespaces (a kernel or a sandbox that refuses them) the group and the
// parent-death signal still hold, but a process that left the group can
// outlive its program.
func newGroup(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if ns := namespaceAttr(); ns != nil {
		attr.Cloneflags = ns.Cloneflags
		attr.UidMappings, attr.GidMappings = ns.UidMappings, ns.GidMappings
		attr.GidMappingsEnableSetgroups = ns.GidMappingsEnableSetgroups
	}
	cmd.SysProcAttr = attr
	capped(cmd, ProgramCaps)
}

// killGroup ends the program's whole process group, and with the
// program its namespace: whatever it started and left running, and so
// whatever holds its pipes open.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL) // a program that left its own group
	}
}

var namespaces struct {
	once sync.Once
	attr *syscall.SysProcAttr
}

// namespaceAttr is how this process can give a program a PID namespace:
// as root, a new PID namespace; otherwise within a user namespace of its
// own that maps arena's user to itself; nil when the kernel refuses both
// (tried once, with /bin/true).
func namespaceAttr() *syscall.SysProcAttr {
	namespaces.once.Do(func() {
		for _, a := range namespaceAttrs() {
			probe := exec.Command("/bin/true")
			probe.SysProcAttr = a
			if probe.Run() == nil {
				namespaces.attr = a
				return
			}
		}
	})
	return namespaces.attr
}

func namespaceAttrs() []*syscall.SysProcAttr {
	own := &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWPID | syscall.CLONE_NEWUSER,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	if os.Getuid() == 0 {
		return []*syscall.SysProcAttr{{Cloneflags: syscall.CLONE_NEWPID}, own}
	}
	return []*syscall.SysProcAttr{own}
}
