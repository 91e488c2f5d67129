//go:build unix

package analysis

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, its threads' user and
// system time (the garbage collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
