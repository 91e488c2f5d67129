//go:build !linux

package page

import "time"

// began is when the test binary started.
var began = time.Now()

// threadCPU stands for the calling thread's CPU time where the kernel's
// is not read here: the wall clock's time, so that a spinner keeps its
// share of the wall clock (the browser benchmarks read Linux's /proc,
// and run on Linux).
func threadCPU() time.Duration { return time.Since(began) }
