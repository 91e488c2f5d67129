//go:build unix

package players

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// watched are the pipes of the programs started through a watching
// launcher, by their command: arena's end (never written, closed when the
// program's group is ended) and the launcher's (closed in arena once the
// launcher has it).
var watched sync.Map // *exec.Cmd → [2]*os.File{launcher's end, arena's end}

// watchedGroup starts the program through a launcher that stays its
// parent, in a process group that the launcher leads, and ends the group
// when arena ends (launcher_unix.go's watch): the way to keep a
// program's tree from outliving arena where the kernel has no
// parent-death signal or PID namespace (macOS, the BSDs, Linux's portable
// path). A program whose launcher cannot be used (arena's binary not
// found) runs in a group of its own that Ctrl-C and the end of its match
// still end. how is what the launcher does first (Linux's "confine").
func watchedGroup(cmd *exec.Cmd, attr *syscall.SysProcAttr, caps Caps, how string) {
	attr.Setpgid = true
	cmd.SysProcAttr = attr
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	if !launchThrough(cmd, caps, join(how, "watch")) {
		r.Close()
		w.Close()
		return
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles[:0], r) // the launcher's watchFD
	watched.Store(cmd, [2]*os.File{r, w})
}

// started closes arena's copy of the launcher's end, once the launcher
// holds its own.
func started(cmd *exec.Cmd) {
	if p, ok := watched.Load(cmd); ok {
		p.([2]*os.File)[0].Close()
	}
}

// unwatch closes arena's end: the launcher, if it still runs, ends the
// group.
func unwatch(cmd *exec.Cmd) {
	if p, ok := watched.LoadAndDelete(cmd); ok {
		p.([2]*os.File)[0].Close()
		p.([2]*os.File)[1].Close()
	}
}

// join adds a launcher's step to a list of them.
func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "," + b
}
