package page

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublic: what the server answers names no path of its machine: the
// home, the working and temporary directories by their names, any other
// absolute path by its last element; its own addresses stay.
func TestPublic(t *testing.T) {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	for _, c := range []struct{ in, want string }{
		{"open " + filepath.Join(home, ".cache/arena/gauntlets/k/games.jsonl") + ": no such file", "open ~/.cache/arena/gauntlets/k/games.jsonl: no such file"},
		{"cannot start " + filepath.Join(cwd, "agent.py"), "cannot start ./agent.py"},
		{`File "/srv/course/students/alice/agent.py", line 3`, `File "…/agent.py", line 3`},
		{`cannot read C:\Users\bob\Desktop\agent.py: denied`, `cannot read …/agent.py: denied`},
		{`<a href="/api/gauntlets/abc/replays/r0.json">`, `<a href="/api/gauntlets/abc/replays/r0.json">`},
		{"a path of one element: /tmp", "a path of one element: $TMPDIR"},
	} {
		if got := public(c.in); got != c.want {
			t.Errorf("public(%q) = %q, want %q", c.in, got, c.want)
		}
		if home != "" && strings.Contains(public(c.in), home) {
			t.Errorf("public(%q) names the home", c.in)
		}
	}
}
