//go:build unix

package box

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A program runs in a directory of its own, so the words of its command
// that name the person's files are made absolute: "python3 hw2.py" and
// "./hw2.sh" run what the person sees, "-cp ." finds their classes; the
// course's input.txt and output.txt stay the program's. The files it may
// read are each named file's folder, but never arena's working directory
// (a file there is given alone) or a private folder's.
func TestResolve(t *testing.T) {
	wd := t.TempDir()
	for _, f := range []string{"hw2.py", "hw2.sh", "output.txt", "input.txt", "data.csv", "alice/agent.py", "class/tournament.json", "class/bob.py"} {
		os.MkdirAll(filepath.Dir(filepath.Join(wd, f)), 0o755)
		os.WriteFile(filepath.Join(wd, f), nil, 0o755)
	}
	t.Chdir(wd)
	Private(filepath.Join(wd, "class"))
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, args, files []string }{
		{[]string{"sh", "hw2.py"}, []string{"sh", filepath.Join(wd, "hw2.py")}, []string{filepath.Join(wd, "hw2.py")}},
		{[]string{"./hw2.sh"}, []string{filepath.Join(wd, "hw2.sh")}, []string{filepath.Join(wd, "hw2.sh")}},
		{[]string{"sh", "alice/agent.py"}, []string{"sh", filepath.Join(wd, "alice/agent.py")}, []string{filepath.Join(wd, "alice")}},
		{[]string{"sh", "class/bob.py"}, []string{"sh", filepath.Join(wd, "class/bob.py")}, []string{filepath.Join(wd, "class/bob.py")}},
		{[]string{"sh", "-c", "."}, []string{"sh", "-c", wd}, nil}, // arena's working directory is never given
		{[]string{"sh", "csp", "input.txt", "-o", "output.txt"}, []string{"sh", "csp", "input.txt", "-o", "output.txt"}, nil},
		{[]string{"sh", "/abs/hw2.py", "missing.txt"}, []string{"sh", "/abs/hw2.py", "missing.txt"}, nil},
	} {
		r, err := resolve(Spec{Args: c.in, Keep: []string{"input.txt", "output.txt"}}, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if r.program != sh && c.in[0] == "sh" {
			if p, _ := filepath.EvalSymlinks(r.program); p != sh {
				t.Errorf("%q: program %s, want sh", c.in, r.program)
			}
		}
		if !slices.Equal(r.args[1:], c.args[1:]) {
			t.Errorf("%q: words %q, want %q", c.in, r.args, c.args)
		}
		if !slices.Equal(r.files, c.files) {
			t.Errorf("%q: files %q, want %q", c.in, r.files, c.files)
		}
	}
	if _, err := resolve(Spec{Args: []string{"no-such-program-here"}}, nil); err == nil {
		t.Error("a program not on PATH was resolved")
	}
}

// A file inside a folder given is not given again (its bind would be a
// bind onto the folder's own file).
func TestUnitsNest(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/x", "a/y", "a/b/z"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	got := units([]string{filepath.Join(dir, "a/b/z"), filepath.Join(dir, "a"), filepath.Join(dir, "a/x"), filepath.Join(dir, "a/y")}, "/nowhere")
	if want := []string{filepath.Join(dir, "a")}; !slices.Equal(got, want) {
		t.Errorf("units %q, want %q", got, want)
	}
}

// A program's installation is given with it: the folder above its bin/
// (a virtual environment, pyenv's versions and shims), and its link's.
func TestInstallation(t *testing.T) {
	dir := t.TempDir()
	venv := filepath.Join(dir, "venv")
	os.MkdirAll(filepath.Join(venv, "bin"), 0o755)
	os.Symlink("/bin/sh", filepath.Join(venv, "bin", "python3"))
	got := installation(filepath.Join(venv, "bin", "python3"))
	if !slices.Contains(got, venv) {
		t.Errorf("the venv's python gives %q, want %s among them", got, venv)
	}
	if got := installation(filepath.Join(dir, "mybot")); !slices.Equal(got, []string{filepath.Join(dir, "mybot")}) {
		t.Errorf("a program outside bin/ gives %q", got)
	}
}

// Only the variables passed reach a program, with HOME and TMPDIR in its
// box and what its kind adds.
func TestEnvironment(t *testing.T) {
	t.Setenv("ARENA_SECRET_TOKEN", "s3cret")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "k")
	t.Setenv("LC_ALL", "C.UTF-8")
	env := Environment("/box", "/tmp", DefaultCaps, []string{"ARENA_GO_BOT=1", "HOME=/elsewhere"})
	for _, kv := range env {
		if kv == "ARENA_SECRET_TOKEN=s3cret" || kv == "AWS_SECRET_ACCESS_KEY=k" {
			t.Errorf("the operator's %s reached the program", kv)
		}
	}
	for _, want := range []string{"HOME=/elsewhere", "TMPDIR=/tmp", "ARENA_GO_BOT=1", "LC_ALL=C.UTF-8", "OPENBLAS_NUM_THREADS=1"} {
		if !slices.Contains(env, want) {
			t.Errorf("no %s in %q", want, env)
		}
	}
}

// A box left by an arena that was killed is removed by the next one.
func TestStaleBoxesSwept(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	gone := filepath.Join(os.TempDir(), "arena-box-999999999-1")
	mine := filepath.Join(os.TempDir(), fmt.Sprintf("arena-box-%d-2", os.Getpid()))
	for _, d := range []string{gone, mine} {
		os.MkdirAll(filepath.Join(d, "tmp"), 0o700)
	}
	sweepStale()
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("the box of an arena that is gone is still there")
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("this arena's own box was removed")
	}
}
