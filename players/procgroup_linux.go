//go:build linux

package players

import (
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
)

// newGroup makes the program the leader of a process group of its own,
// so that its children (a wrapper script's program, a worker it forks)
// end with it, and, where the kernel allows it, the first process of a
// PID and a mount namespace of its own, with a /proc of its own mounted
// by the launcher: when that process dies the kernel ends every process
// in the namespace, those that left the group or started a session of
// their own (setsid, a double fork) too, and no process of another
// entrant (nor arena) is there to be seen in /proc. The program gets a
// parent-death signal, so that it dies with arena however arena ends:
// kill -9 of a tournament leaves nothing of the programs it ran. Without
// namespaces (a kernel or a sandbox that refuses them, or the portable
// path that the tests switch on) the group and the parent-death signal
// still hold, but a process that left the group can outlive its program,
// and an entrant can read another's /proc/PID (Containment says so).
//
// The interpreter of a go: bot (GoBotEnv in its environment) is confined
// further: Landlock before it starts (confineSelf), a seccomp filter once
// it runs (package gobot/interp).
func newGroup(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	interpreter := slices.Contains(cmd.Env, GoBotEnv+"=1") && !portable()
	ns := namespaceAttr()
	if ns == nil {
		// No namespace to end the tree: the launcher that macOS uses
		// stays the program's parent and ends its group with arena. A
		// go: bot's interpreter is still confined by Landlock, which
		// needs no namespace.
		how := ""
		if interpreter {
			how = "confine"
		}
		watchedGroup(cmd, attr, ProgramCaps, how)
		return
	}
	attr.Cloneflags = ns.Cloneflags
	attr.UidMappings, attr.GidMappings = ns.UidMappings, ns.GidMappings
	attr.GidMappingsEnableSetgroups = ns.GidMappingsEnableSetgroups
	how := "proc"
	if interpreter {
		how = join(how, "confine")
	}
	cmd.SysProcAttr = attr
	launchThrough(cmd, ProgramCaps, how)
}

// killGroup ends the program's whole process group, and with the
// program its namespace: whatever it started and left running, and so
// whatever holds its pipes open.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL) // a program that left its own group
	}
	unwatch(cmd)
}

var namespaces struct {
	once sync.Once
	attr *syscall.SysProcAttr
	why  string // why there are none, when there are none
}

// namespaceAttr is how this process can give a program PID and mount
// namespaces with a /proc of their own: as root, new namespaces;
// otherwise within a user namespace of its own that maps arena's user to
// itself; nil when the kernel refuses both, or the portable path is
// asked for (tried once, with the launcher mounting /proc and becoming
// /bin/true).
func namespaceAttr() *syscall.SysProcAttr {
	namespaces.once.Do(func() {
		if portable() {
			namespaces.why = "the portable path (" + PortableEnv + "=1) uses none"
			return
		}
		self, err := os.Executable()
		if err != nil {
			namespaces.why = "arena's own binary cannot be found to mount a /proc of the program's own: " + err.Error()
			return
		}
		for _, a := range namespaceAttrs() {
			probe := exec.Command(self, "/bin/true")
			probe.Env = append(os.Environ(), launchEnv+"=proc")
			probe.SysProcAttr = a
			out, err := probe.CombinedOutput()
			if err == nil {
				namespaces.attr = a
				return
			}
			namespaces.why = firstLine(string(out), err)
		}
	})
	return namespaces.attr
}

func namespaceAttrs() []*syscall.SysProcAttr {
	own := &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWUSER,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	if os.Getuid() == 0 {
		return []*syscall.SysProcAttr{{Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS}, own}
	}
	return []*syscall.SysProcAttr{own}
}
