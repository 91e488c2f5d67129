//go:build linux

package players

import (
	"fmt"
	"syscall"
)

// The rlimits Linux enforces for the caps: a program's data (heap and
// anonymous mappings, which is what grows), and the processes and threads
// of its user (in the program's own user namespace, its tree alone).
const (
	rlimitMemory = syscall.RLIMIT_DATA
	rlimitNPROC  = 6 // RLIMIT_NPROC, which package syscall does not name
)

// ownProc mounts the program's own /proc: the launcher runs as the first
// process of a new PID and mount namespace (newGroup), whose mounts it
// first keeps from propagating back to the machine's.
func ownProc() error {
	// A mount namespace made with a user namespace of its own gets the
	// machine's mounts as slaves, and its owner may not be let change
	// them (EPERM): nothing it mounts propagates back either way.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil && err != syscall.EPERM {
		return fmt.Errorf("a private mount namespace: %v", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("a /proc of its own: %v", err)
	}
	return nil
}
