// Package caps holds what each program arena starts may take, apart from
// the box that enforces it, so that a match's settings (play.Hosting)
// carry caps without the box's system calls.
package caps

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Caps bound what each program arena starts may take: its memory (the
// data it writes: heap and anonymous mappings, RLIMIT_DATA), the
// processes and threads of its whole tree (RLIMIT_NPROC, counted in the
// program's own user namespace), and each process's CPU time
// (RLIMIT_CPU). A class tournament runs its entrants side by side on one
// node: one that grows without end or forks without end must not take
// the node from the others. A program over a cap fails as the kernel
// makes it fail (an allocation or a fork refused, SIGXCPU), which loses
// its game by the game's rules; the reason says which cap. Zero fields
// set no cap. Caps hold on Linux; macOS takes the CPU cap alone, and Windows
// gives all three to the program's Job Object.
//
// Disk and Files bound what the program writes: its working directory
// and its /tmp, each at most Disk bytes in at most Files files (in a box
// of its own, each a tmpfs of that size; on the portable path arena
// watches them), and any one file at most Disk bytes (RLIMIT_FSIZE).
type Caps struct {
	Memory int64         `json:"memory,omitzero"` // bytes
	Procs  int           `json:"procs,omitzero"`
	CPU    time.Duration `json:"cpu,omitzero"`
	Disk   int64         `json:"disk,omitzero"` // bytes
	Files  int           `json:"files,omitzero"`
}

// Default are the caps of every program unless -caps says otherwise:
// a Python agent with NumPy takes about 100 MB and a dozen threads, and
// the longest game a course set (Evasion's two games of 120 s a player,
// Colosseum's 2 s a move for up to a few hundred moves) thinks for
// minutes, not ten.
//
// A program's writes are its scratch: 256 MB and 4,096 files hold a
// course's logs and caches many times over (nsjail gives Compiler
// Explorer's 20 MB and 100 files).
var Default = Caps{Memory: 2 << 30, Procs: 256, CPU: 10 * time.Minute, Disk: 256 << 20, Files: 4096}

// Parse reads "memory=2G,procs=256,cpu=10m,disk=256M,files=4096"; a cap not named keeps
// its default, and "off" sets none at all.
func Parse(s string) (Caps, error) {
	c := Default
	if s == "off" {
		return Caps{}, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return c, fmt.Errorf("-caps %q: %q is not name=value (memory=2G,procs=256,cpu=10m, or off)", s, kv)
		}
		switch k {
		case "memory":
			n, err := parseBytes(v)
			if err != nil {
				return c, fmt.Errorf("-caps memory=%s: %v", v, err)
			}
			c.Memory = n
		case "procs":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1<<20 {
				return c, fmt.Errorf("-caps procs=%s: want a count of processes and threads, as 256 (0: none)", v)
			}
			c.Procs = n
		case "disk":
			n, err := parseSize(v)
			if err != nil {
				return c, fmt.Errorf("-caps disk=%s: %v", v, err)
			}
			if n > 0 && n < MinDisk {
				return c, fmt.Errorf("-caps disk=%s: want %s or more (0: none)", v, SizeText(MinDisk))
			}
			c.Disk = n
		case "files":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1<<24 {
				return c, fmt.Errorf("-caps files=%s: want a count of files, as 4096 (0: none)", v)
			}
			c.Files = n
		case "cpu":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || (d > 0 && d < time.Second) {
				return c, fmt.Errorf("-caps cpu=%s: want a duration of a second or more, as 10m (0: none)", v)
			}
			c.CPU = d
		default:
			return c, fmt.Errorf("-caps %q: unknown cap %q (memory, procs, cpu, disk, files)", s, k)
		}
	}
	return c, nil
}

// MinMemory is the least memory cap taken: under it the interpreters
// the courses' programs and go: bots run in do not start reliably (a go:
// bot's, with GOMAXPROCS at 2, failed to start a thread at 96M always and
// at 128M now and then, and started every time at 160M on Linux/amd64,
// where each of its threads' stacks counts); 256M leaves room.
const MinMemory = 256 << 20

// MinDisk is the least disk cap taken: a program's interpreter may write
// a little as it starts.
const MinDisk = 1 << 20

// parseBytes reads a memory size: 512M, 2G, or bytes; 0 for none.
func parseBytes(v string) (int64, error) {
	n, err := parseSize(v)
	if err != nil {
		return 0, err
	}
	if n > 0 && n < MinMemory {
		return 0, fmt.Errorf("want %s or more: a go: bot's interpreter (arena's own binary, its threads' stacks counted) needs about 160M to start, a Python agent with NumPy about 100M", SizeText(MinMemory))
	}
	return n, nil
}

// parseSize reads a size: 512M, 2G, or bytes; 0 for none.
func parseSize(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "G"):
		mult, v = 1<<30, strings.TrimSuffix(v, "G")
	case strings.HasSuffix(v, "M"):
		mult, v = 1<<20, strings.TrimSuffix(v, "M")
	case strings.HasSuffix(v, "K"):
		mult, v = 1<<10, strings.TrimSuffix(v, "K")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<50)/mult {
		return 0, fmt.Errorf("want a size such as 512M or 2G (0: none)")
	}
	return n * mult, nil
}

// DiskText says a program ended at its disk cap.
func (c Caps) DiskText() string {
	return fmt.Sprintf("over its disk cap of %s in %d files", SizeText(c.Disk), c.Files)
}

// String writes the caps as Parse reads them.
func (c Caps) String() string {
	if c == (Caps{}) {
		return "off"
	}
	return fmt.Sprintf("memory=%s,procs=%d,cpu=%s,disk=%s,files=%d", SizeText(c.Memory), c.Procs, c.CPU, SizeText(c.Disk), c.Files)
}

// SizeText writes a size in bytes as Parse reads it: 2G, 512M, 64K.
func SizeText(n int64) string {
	switch {
	case n == 0:
		return "0"
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "G"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "M"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "K"
	}
	return strconv.FormatInt(n, 10)
}

// CPUSlack is how far under the CPU cap a program's reported time may
// be and still have been ended by it: 5%, at least 50 ms.
func CPUSlack(cap time.Duration) time.Duration { return max(cap/20, 50*time.Millisecond) }

// Over says which cap a program's end points to, or "".
func (c Caps) Over(exit, tail string) string {
	switch {
	case strings.Contains(exit, "CPU time limit exceeded") && c.CPU > 0:
		return fmt.Sprintf("over its CPU time cap of %s", c.CPU)
	case c.Memory > 0 && (strings.Contains(tail, "MemoryError") || strings.Contains(tail, "Cannot allocate memory") ||
		strings.Contains(tail, "out of memory") || strings.Contains(tail, "std::bad_alloc") || strings.Contains(tail, "OutOfMemoryError")):
		return "over its memory cap of " + SizeText(c.Memory)
	case c.Procs > 0 && (strings.Contains(tail, "Resource temporarily unavailable") || strings.Contains(tail, "can't start new thread")):
		return fmt.Sprintf("at its cap of %d processes and threads", c.Procs)
	case c.Disk > 0 && (strings.Contains(exit, "file size limit exceeded") || strings.Contains(tail, "File too large") ||
		strings.Contains(tail, "No space left on device")):
		return c.DiskText()
	}
	return ""
}
