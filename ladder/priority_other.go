//go:build !linux

package ladder

import "errors"

// lowerThreadPriority is Linux's alone: elsewhere a process's priority
// is the whole process's, the games' players' included.
func lowerThreadPriority() error {
	return errors.New("threads have no priority of their own on this system")
}
