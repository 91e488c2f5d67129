//go:build unix && !linux

package players

import (
	"os/exec"
	"syscall"
)

// newGroup makes the program the leader of a process group of its own,
// so that its children (a wrapper script's program, a worker it forks)
// can be ended with it.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup ends the program's whole process group: whatever it started
// and left running, and so whatever holds its pipes open.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
