package players

import (
	"os"

	"github.com/arena-playground/arena/box"
)

// ProgramCaps are the caps of the programs this process starts: the
// front ends set them from -caps (see box.Caps).
var ProgramCaps = box.DefaultCaps

// capNote says which cap a program's end points to, from how it ended
// (its exit's text) and the last words it wrote, as a clause for its
// reason: "; over its memory cap of 2G", or "".
func capNote(exit, tail string, ps *os.ProcessState) string {
	if ps != nil && ProgramCaps.CPU > 0 && ps.UserTime()+ps.SystemTime() >= ProgramCaps.CPU-box.CPUSlack(ProgramCaps.CPU) {
		// Killed at the hard cap (a PID namespace's first process ignores
		// SIGXCPU), or, on the portable path, at the soft cap, the
		// launcher ending as its program did: the times a wait reports
		// split the kernel's count by ticks, and can come to a tick or two
		// under the cap that SIGXCPU was sent at (988 ms under 1 s seen).
		exit += "; CPU time limit exceeded"
	}
	if over := ProgramCaps.Over(exit, tail); over != "" {
		return "; " + over
	}
	return ""
}
