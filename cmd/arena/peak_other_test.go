//go:build !unix

package main

import "os"

// peakMemory is not measured where there is no getrusage: the limits
// report 0.
func peakMemory(*os.ProcessState) int64 { return 0 }
