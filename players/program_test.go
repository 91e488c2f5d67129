//go:build !js

package players

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A course program runs in a directory of its own, so the words of its
// command that name the person's files are made absolute: "python3
// hw2.py" and "./hw2.sh" run what the person sees, "-cp ." finds their
// classes; the course's input.txt and output.txt stay the program's.
func TestResolveWords(t *testing.T) {
	wd := t.TempDir()
	dir := t.TempDir()
	for _, f := range []string{"hw2.py", "hw2.sh", "output.txt", "input.txt", "data.csv"} {
		os.WriteFile(filepath.Join(wd, f), nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "input.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "data.csv"), nil, 0o644) // the program's own, in its directory
	t.Chdir(wd)
	for _, c := range []struct{ in, want []string }{
		{[]string{"python3", "hw2.py"}, []string{"python3", filepath.Join(wd, "hw2.py")}},
		{[]string{"./hw2.sh"}, []string{filepath.Join(wd, "hw2.sh")}},
		{[]string{"bin/hw2"}, []string{filepath.Join(wd, "bin/hw2")}},
		{[]string{"java", "-cp", ".", "hw2"}, []string{"java", "-cp", wd, "hw2"}},
		{[]string{"arena", "csp", "input.txt", "-o", "output.txt"}, []string{"arena", "csp", "input.txt", "-o", "output.txt"}},
		{[]string{"python3", "/abs/hw2.py", "data.csv", "missing.txt"}, []string{"python3", "/abs/hw2.py", "data.csv", "missing.txt"}},
	} {
		if got := resolveWords(c.in, dir); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
