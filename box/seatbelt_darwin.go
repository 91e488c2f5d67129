//go:build darwin

package box

import "os"

// sandboxExec is macOS's own tool for running a program under a Seatbelt
// profile, at its fixed path (not looked up on PATH, which a person may
// have put anything on).
const sandboxExec = "/usr/bin/sandbox-exec"

// seatbelt makes the plan's program run under prof: the launcher runs
// sandbox-exec -p PROFILE PROGRAM WORDS..., which applies the profile and
// executes the program in it.
func seatbelt(p *plan, prof Profile) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return // Contain says so
	}
	p.Args = append([]string{sandboxExec, "-p", prof.SBPL(), p.Program}, p.Args[1:]...)
	p.Program = sandboxExec
}

// Contain says what macOS gives: a Seatbelt profile per program, in a
// watched process group.
func Contain() Containment {
	c := Containment{Seatbelt: true}
	if _, err := os.Stat(sandboxExec); err != nil {
		c.Seatbelt = false
		c.Weaker = "no " + sandboxExec + ": programs run in process groups and directories of their own, as arena's user, with no profile"
		return c
	}
	c.Weaker = "each program runs in a process group and a directory of its own under a Seatbelt profile (its writes in its box, its network to its seat, its signals to its own sandbox), as arena's own user, with no namespace: it sees the machine's processes, and reads the system's folders; a process that leaves its group can outlive its program; memory and process caps are not applied"
	return c
}
