//go:build !linux && !windows && !js

package box

import "time"

// CPU is the CPU time the program's tree has used so far; ok is false:
// macOS's box does not read it (proc_pid_rusage is libproc's, which
// arena's download, built without cgo, cannot call), so its programs
// keep the wall clock.
func (b *Box) CPU() (time.Duration, bool) { return 0, false }

// Pause stops the program's tree: not on this system, where programs
// keep the wall clock.
func (b *Box) Pause() {}

// Resume continues what Pause stopped.
func (b *Box) Resume() {}
