//go:build !unix && !js

package players

import "os/exec"

// newGroup does nothing where there are no process groups.
func newGroup(*exec.Cmd) {}

// killGroup ends the program itself where there are no process groups.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
