package players

import (
	"fmt"
	"os"
	"strings"
)

// PortableEnv, set to 1, makes arena start programs on Linux as it does
// on macOS and the BSDs: a process group each, with no namespace, no own
// /proc, no Landlock. The tests set it to run the code those systems run.
const PortableEnv = "ARENA_PORTABLE"

func portable() bool { return os.Getenv(PortableEnv) == "1" }

// Containment says what keeps the programs arena starts apart on this
// machine, as the kernel answered when asked (once).
type Containment struct {
	// Separate: each program sees only its own processes (its own PID
	// namespace and /proc), so no entrant can read or write another's
	// pipes through /proc/PID/fd, nor signal it.
	Separate bool
	// Landlock is the kernel's Landlock version (0: none), which confines
	// the interpreter of a go: bot to its own binary; Seccomp whether a
	// seccomp filter refuses it files, programs and sockets.
	Landlock int
	Seccomp  bool
	// Weaker says, when Separate is false, what is weaker and why.
	Weaker string
}

// Full reports whether entrants are kept apart and go: bots confined by
// the kernel.
func (c Containment) Full() bool { return c.Separate && (c.Landlock > 0 || c.Seccomp) }

// String says it in a line.
func (c Containment) String() string {
	var parts []string
	if c.Separate {
		parts = append(parts, "each program in PID and mount namespaces of its own, with its own /proc")
	}
	switch {
	case c.Landlock > 0 && c.Seccomp:
		parts = append(parts, fmt.Sprintf("go: bots confined by Landlock (version %d) and seccomp", c.Landlock))
	case c.Seccomp:
		parts = append(parts, "go: bots confined by seccomp (no Landlock in this kernel)")
	}
	s := strings.Join(parts, "; ")
	if c.Weaker != "" {
		if s != "" {
			s += "; "
		}
		s += "weaker: " + c.Weaker
	}
	return s
}

// ContainmentFlag is the front ends' -containment: "full" refuses to run a
// tournament of programs where Containment is not Full; "weak" runs it
// anyway, as on a laptop where the entrants are the student's own.
const ContainmentFlag = "containment"

// CheckContainment returns an error naming the weaker guarantee when
// programs are to run unattended (a tournament) at full containment and
// the machine cannot give it.
func CheckContainment(level string) error {
	switch level {
	case "full", "":
		c := Contain()
		if !c.Full() {
			return fmt.Errorf("programs cannot be kept apart here: %s; run with -containment weak to play them anyway", c.Weaker)
		}
		return nil
	case "weak":
		return nil
	}
	return fmt.Errorf("-containment %q: want full or weak", level)
}

// firstLine is what a failed probe said: its first line of output, or
// its error.
func firstLine(out string, err error) string {
	out = strings.TrimSpace(out)
	if i := strings.IndexByte(out, '\n'); i >= 0 {
		out = out[:i]
	}
	if out == "" {
		return err.Error()
	}
	return strings.TrimPrefix(out, "arena: ")
}
