package ladder

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Runtimes are the programs a version's command may name beside its own
// files (python3 agent.py, java -jar bot.jar), each by its name alone:
// the ladder's operator chooses them (-runtimes), and the worker's box
// gives a program its upload and its runtime's installation, nothing
// else its words name.
type Runtimes []string

// DefaultRuntimes are the runtimes a ladder allows unless told: the
// languages the courses' programs were written in, and a shell for a
// program's own start script.
var DefaultRuntimes = Runtimes{"python3", "python", "java", "node", "sh", "bash"}

// ParseRuntimes reads -runtimes: names separated by commas.
func ParseRuntimes(s string) (Runtimes, error) {
	var rt Runtimes
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !plainWord(n) {
			return nil, fmt.Errorf("-runtimes: %q is not a program's name (python3, java): a runtime is found on the PATH by name", n)
		}
		rt = append(rt, n)
	}
	if len(rt) == 0 {
		return nil, fmt.Errorf("-runtimes %q: name at least one (python3,java)", s)
	}
	return rt, nil
}

// orDefault is rt, or DefaultRuntimes where none were given.
func (rt Runtimes) orDefault() Runtimes {
	if rt == nil {
		return DefaultRuntimes
	}
	return rt
}

// Allows reports whether name is one of the runtimes.
func (rt Runtimes) Allows(name string) bool { return slices.Contains(rt, name) }

func (rt Runtimes) String() string { return strings.Join(rt, ",") }

// plainWord is a word that names no path: letters, digits and ._-+.
func plainWord(w string) bool {
	if w == "" || w == "." || w == ".." {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+", r)) {
			return false
		}
	}
	return true
}

// Runtime is the runtime a program's command starts, or "" where it
// starts a file of its own upload (./run.sh) or is a go: bot; a py:
// agent's runtime is the ladder's Python.
func (u *Upload) Runtime() string {
	if u.Kind != "program" || strings.HasPrefix(u.Command, "py:") {
		return ""
	}
	words := strings.Fields(u.Command)
	if len(words) == 0 || u.has(words[0]) {
		return ""
	}
	return words[0]
}

// CheckRuntime refuses an upload whose command starts a runtime the
// ladder does not allow.
func (u *Upload) CheckRuntime(rt Runtimes) error {
	if r := u.Runtime(); r != "" && !rt.Allows(r) {
		return fmt.Errorf("%q is neither a file of your upload nor a runtime this ladder allows (%s)", r, strings.Join(rt, ", "))
	}
	return nil
}

// has reports whether the upload holds a file of that name.
func (u *Upload) has(name string) bool {
	return slices.Contains(u.names, path.Clean(name))
}
