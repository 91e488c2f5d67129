//go:build !linux && !js

package box

import "time"

// CPU is the CPU time the program's tree has used so far; ok is false:
// this system's box does not read it yet (macOS's proc_pid_rusage needs
// cgo, Windows's job accounting is not wired), so its programs keep the
// wall clock.
func (b *Box) CPU() (time.Duration, bool) { return 0, false }

// Pause stops the program's tree: not on this system, where programs
// keep the wall clock.
func (b *Box) Pause() {}

// Resume continues what Pause stopped.
func (b *Box) Resume() {}
