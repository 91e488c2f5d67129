package box

import (
	"time"

	"github.com/arena-playground/arena/box/caps"
)

// Caps bound what each program arena starts may take (see package caps,
// which holds them apart from the box that enforces them).
type Caps = caps.Caps

// DefaultCaps are the caps of every program unless -caps says otherwise.
var DefaultCaps = caps.Default

// ParseCaps reads caps as -caps gives them: "memory=2G,procs=256,cpu=10m,disk=256M,files=4096",
// or "off".
func ParseCaps(s string) (Caps, error) { return caps.Parse(s) }

// MinMemory is the least memory cap a program may be given.
const MinMemory = caps.MinMemory

// SizeText writes a size in bytes as -caps reads it.
func SizeText(n int64) string { return caps.SizeText(n) }

// CPUSlack is how far under the CPU cap a program's reported time may
// fall when it was stopped at the cap.
func CPUSlack(cap time.Duration) time.Duration { return caps.CPUSlack(cap) }
