//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakMemory is a process's peak resident memory in bytes: getrusage's
// ru_maxrss, in kilobytes on Linux and the BSDs, in bytes on macOS.
func peakMemory(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) << 10
}
