//go:build unix && !linux

package players

import (
	"errors"
	"syscall"
)

// The rlimits macOS and the BSDs are asked for: CPU time alone. macOS
// enforces neither RLIMIT_DATA nor RLIMIT_AS on what malloc maps, and
// counts RLIMIT_NPROC over every process of the user (a laptop's browser
// and editor too), so a cap there would refuse the program's first fork;
// those caps are not applied (Caps says so).
const (
	rlimitMemory = -1
	rlimitNPROC  = -1
)

var _ = syscall.RLIMIT_CPU

// ownProc and confineSelf are Linux's: there are no PID namespaces or
// Landlock here, and newGroup never asks for them.
func ownProc() error { return errors.New("no PID namespaces on this system") }

func confineSelf(string) error { return errors.New("no Landlock on this system") }
