//go:build unix && !linux

package players

import (
	"os/exec"
	"syscall"
)

// newGroup starts the program through a launcher that keeps it, and
// whatever it starts, in a process group of its own, which the launcher
// ends when arena ends, however it ends (procgroup_watch.go): there is no
// parent-death signal or PID namespace here. Its caps are the rlimits
// this system enforces (launcher_bsd.go).
func newGroup(cmd *exec.Cmd) {
	watchedGroup(cmd, &syscall.SysProcAttr{}, ProgramCaps, "")
}

// killGroup ends the program's whole process group: whatever it started
// and left running, and so whatever holds its pipes open.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	unwatch(cmd)
}
