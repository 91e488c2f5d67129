package players

import (
	"os"

	"github.com/arena-playground/arena/box"
)

// capNote says which of caps a program's end points to, from how it
// ended (its exit's text) and the last words it wrote, as a clause for
// its reason: "; over its memory cap of 2G", or "".
func capNote(caps box.Caps, exit, tail string, ps *os.ProcessState) string {
	if ps != nil && caps.CPU > 0 && ps.UserTime()+ps.SystemTime() >= caps.CPU-box.CPUSlack(caps.CPU) {
		// Killed at the hard cap (a PID namespace's first process ignores
		// SIGXCPU), or, on the portable path, at the soft cap, the
		// launcher ending as its program did: the times a wait reports
		// split the kernel's count by ticks, and can come to a tick or two
		// under the cap that SIGXCPU was sent at (988 ms under 1 s seen).
		exit += "; CPU time limit exceeded"
	}
	if over := caps.Over(exit, tail); over != "" {
		return "; " + over
	}
	return ""
}
