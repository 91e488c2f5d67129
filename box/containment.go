package box

import (
	"fmt"
	"os"
	"strings"
)

// PortableEnv, set to 1, makes arena start programs on Linux as it does
// where there are no namespaces (macOS, the BSDs, a container that
// refuses them): a process group each, watched by a launcher, with
// Landlock and seccomp standing where macOS has its Seatbelt profile. The
// tests set it to run the code those systems run.
const PortableEnv = "ARENA_PORTABLE"

func portable() bool { return os.Getenv(PortableEnv) == "1" }

// Containment says what keeps the programs arena starts in their boxes
// on this machine, as the kernel answered when asked (once).
type Containment struct {
	// Separate: each program in namespaces of its own (user, PID, mount,
	// network): a root of its own, its own /proc, no network but its
	// seat, no capability.
	Separate bool
	// Landlock is the kernel's Landlock version (0: none); Seccomp whether
	// a seccomp filter refuses the calls that would let a program out;
	// Seatbelt whether macOS's sandbox profile confines each program.
	Landlock int
	Seccomp  bool
	Seatbelt bool
	// Cgroup says where each box's cgroup is made (a cgroup v2, or
	// cgroups v1 as root), where the caps are the cgroup's too and its
	// memory is counted whole; NoCgroup says why there is none.
	Cgroup, NoCgroup string
	// Weaker says, when Full is false, what is weaker and why.
	Weaker string
}

// Full reports whether every program is in a box of its own that the
// kernel enforces.
func (c Containment) Full() bool { return c.Separate && (c.Landlock > 0 || c.Seccomp) }

// String says it in a line.
func (c Containment) String() string {
	var parts []string
	if c.Separate {
		parts = append(parts, "each program in user, PID, mount and network namespaces of its own, with no capability")
	}
	switch {
	case c.Landlock > 0 && c.Seccomp:
		parts = append(parts, fmt.Sprintf("confined by Landlock (version %d) and seccomp", c.Landlock))
	case c.Seccomp:
		parts = append(parts, "confined by seccomp (no Landlock in this kernel)")
	case c.Landlock > 0:
		parts = append(parts, fmt.Sprintf("confined by Landlock (version %d; no seccomp)", c.Landlock))
	case c.Seatbelt:
		parts = append(parts, "confined by a Seatbelt profile")
	}
	if c.Cgroup != "" {
		parts = append(parts, "capped by "+c.Cgroup+" and rlimits")
	} else if c.NoCgroup != "" {
		parts = append(parts, "capped by rlimits alone (no cgroup: "+c.NoCgroup+"): memory counts a program's private data (RLIMIT_DATA); shared anonymous mappings and memfd are refused it, and its tmpfs is bounded by its disk cap")
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

// Flag is the front ends' -containment: "full" refuses to run a
// tournament of programs where Containment is not Full; "weak" runs it
// anyway, as on a laptop where the entrants are the student's own.
const Flag = "containment"

// Check returns an error naming the weaker guarantee when programs are to
// run unattended (a tournament) at full containment and the machine
// cannot give it.
func Check(level string) error {
	switch level {
	case "full", "":
		c := Contain()
		if !c.Full() {
			return fmt.Errorf("programs cannot be kept in boxes of their own here: %s; run with -containment weak to play them anyway", c.Weaker)
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
