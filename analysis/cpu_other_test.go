//go:build !unix

package analysis

import "time"

// processCPU is not read here: the CPU ratio is then not reported.
func processCPU() time.Duration { return 0 }
