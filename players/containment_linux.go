//go:build linux

package players

import (
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

var containment = sync.OnceValue(func() Containment {
	c := Containment{Landlock: landlockABI()}
	if portable() {
		c.Landlock = 0 // the portable path starts programs as macOS does
	}
	// The interpreter's filter is its own (gobot/interp), on every path.
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	c.Seccomp = err == nil
	c.Separate = namespaceAttr() != nil
	if !c.Separate {
		c.Weaker = "programs run in process groups, with no namespace of their own (" + namespaces.why +
			"): an entrant can see the others in /proc, read and write their pipes through /proc/PID/fd when it runs as the same user, and a process that leaves its group can outlive its program"
	}
	if c.Landlock == 0 && !c.Seccomp {
		c.Weaker = strings.TrimPrefix(c.Weaker+"; a go: bot's interpreter has no Landlock or seccomp: the review of its tables is its only wall", "; ")
	}
	return c
})

// Contain says what this machine's kernel gives to keep programs apart.
func Contain() Containment { return containment() }
