//go:build !js

package box

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// systemDirs are the machine's directories a program may read on every
// Unix system: its interpreters and libraries (read-only, in a box of its
// own). Other people's files are not there; /home, /root, /var, /run,
// /srv, /mnt and /tmp are left out.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix"}

// private are folders no program may be given, by Private.
var private struct {
	sync.Mutex
	dirs []string
}

// Private keeps dir, and every folder that holds it, from being given to
// a program as its folder: a tournament's directory, whose journal and
// entrants' list no entrant may read.
func Private(dir string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	private.Lock()
	defer private.Unlock()
	if !slices.Contains(private.dirs, abs) {
		private.dirs = append(private.dirs, abs)
	}
}

// resolved is a program's command made ready for its box: its program's
// path, its words with the files they name made absolute, and the files
// and folders it may read.
type resolved struct {
	program string
	args    []string
	files   []string
	// found are the folders of programs a program may start by name
	// (onPath): given as they are where its uid can read them, left out
	// where not.
	found []string
}

// resolve finds the program on PATH (or at its path) and makes absolute
// the words that name files in arena's working directory; the files it
// may read are each named file's folder (sibling modules, data files),
// the program's own installation (a virtual environment, pyenv's
// versions: the folder above its bin/), and extra.
//
// reach, when set, says which folders of PATH the program's uid can
// reach (a uid of its own with no root of its own: python3 in a home only
// root may enter is not its python3); nil looks up as arena would.
func resolve(spec Spec, reach func(dir string) bool) (resolved, error) {
	if spec.Upload != "" {
		return resolveUpload(spec, reach)
	}
	args, keep, extra, alone := spec.Args, spec.Keep, spec.Files, spec.Alone
	r := resolved{args: slices.Clone(args)}
	wd, _ := os.Getwd()
	prog, err := r.find(wd, reach)
	if err != nil {
		return r, err
	}
	if !alone {
		r.files = append(r.files, installation(prog)...)
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "" || strings.HasPrefix(a, "-") || slices.Contains(keep, a) {
			continue
		}
		p := absIn(wd, a)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		r.args[i] = p
		r.files = append(r.files, p)
	}
	for _, f := range extra {
		r.files = append(r.files, absIn(wd, f))
	}
	r.files = units(r.files, wd)
	if alone && !inSystem(prog) {
		r.files = append(r.files, prog)
	} else if !alone {
		for _, d := range onPath(wd) {
			if !slices.ContainsFunc(r.files, func(f string) bool { return within(d, f) }) {
				r.found = append(r.found, d)
			}
		}
	}
	return r, nil
}

// resolveUpload resolves the command of a program that is a student's
// upload (Spec.Upload): its words are the student's, so none past the
// program is looked at. The program is the one its starter checked: a
// file of the upload, or a runtime arena's operator allows (python3 on
// PATH, the -python given); the program reads its upload, that runtime's
// installation and the Python installations the environment names
// (where its uid can read them), nothing else.
func resolveUpload(spec Spec, reach func(dir string) bool) (resolved, error) {
	r := resolved{args: slices.Clone(spec.Args)}
	up := filepath.Clean(spec.Upload)
	if real, err := filepath.EvalSymlinks(up); !filepath.IsAbs(up) || err != nil || real != up {
		return r, fmt.Errorf("the upload's folder %q is not an absolute path to a folder", spec.Upload)
	}
	wd, _ := os.Getwd()
	prog, err := r.find(wd, reach)
	if err != nil {
		return r, err
	}
	if real, err := filepath.EvalSymlinks(prog); err != nil || !within(real, up) {
		r.files = append(r.files, installation(prog)...)
	}
	r.files = units(append(r.files, up), wd)
	for _, v := range pythonHomes {
		if d := filepath.Clean(os.Getenv(v)); filepath.IsAbs(d) && givable(d, wd) && !inSystem(d) {
			r.found = append(r.found, d)
		}
	}
	if !slices.ContainsFunc(r.files, func(f string) bool { return within(up, f) }) {
		return r, fmt.Errorf("the upload's folder %s cannot be given to a program (it holds arena's working directory, a home or a private folder)", up)
	}
	return r, nil
}

// find sets the program's path: its first word, made absolute where it
// names a path (relative to wd), else found on PATH in the folders
// reach allows.
func (r *resolved) find(wd string, reach func(string) bool) (string, error) {
	prog := r.args[0]
	if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, filepath.Separator) {
		prog = absIn(wd, prog)
		if _, err := os.Stat(prog); err != nil {
			return "", &exec.Error{Name: r.args[0], Err: err}
		}
		r.args[0] = prog
	} else {
		p, err := lookPath(prog, reach)
		if err != nil {
			return "", err
		}
		prog = absIn(wd, p)
	}
	r.program = prog
	return prog, nil
}

// pythonHomes are the variables that name a Python installation, which
// the environment passes on (passed): pyenv's root, an active virtual
// environment, conda's prefix.
var pythonHomes = []string{"PYENV_ROOT", "VIRTUAL_ENV", "CONDA_PREFIX"}

// onPath are the folders a program finds other programs in when it
// starts them by name (a shell script's python3, a homework's arena):
// PATH's folders outside the system's, each as it is (~/.cargo/bin, not
// ~/.cargo, which holds credentials), and the Python installations the
// environment names, whole (pyenv's shims run its libexec/ and its
// versions/).
func onPath(wd string) []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		dirs = append(dirs, d)
	}
	for _, v := range pythonHomes {
		dirs = append(dirs, os.Getenv(v))
	}
	var out []string
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if st, err := os.Stat(d); err != nil || !st.IsDir() || inSystem(d) || !givable(d, wd) || slices.Contains(out, d) {
			continue
		}
		out = append(out, d)
	}
	return units(out, wd)
}

// lookPath finds a program on PATH, in the folders reach allows.
func lookPath(name string, reach func(string) bool) (string, error) {
	if reach == nil {
		return exec.LookPath(name)
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) || !reach(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o001 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

func absIn(wd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}

// installation is what a program needs beside itself: the target of its
// links, and the folder above a bin/, sbin/, shims/ or Scripts/ folder
// that holds it or its target (a virtual environment's pyvenv.cfg, the
// libraries of pyenv's versions, the pyenv that a shim runs).
func installation(prog string) []string {
	paths := []string{prog}
	if t, err := filepath.EvalSymlinks(prog); err == nil && t != prog {
		paths = append(paths, t)
	}
	var out []string
	for _, p := range paths {
		dir := filepath.Dir(p)
		switch filepath.Base(dir) {
		case "bin", "sbin", "shims", "Scripts":
			out = append(out, filepath.Dir(dir))
		default:
			out = append(out, p)
		}
	}
	return out
}

// units turns the files a program may read into what is given to it: a
// file's folder, unless that folder is one no program may be given (the
// root, arena's working directory or a folder above it, the temporary
// directory that holds every box, a private folder or one above it, a
// home), when the file alone is given; a folder as it is, under the same
// rule. Files in the system's directories are there already.
func units(files []string, wd string) []string {
	var out []string
	add := func(p string) {
		if p == "" || inSystem(p) || slices.Contains(out, p) {
			return
		}
		out = append(out, p)
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		if st.IsDir() {
			if givable(f, wd) {
				add(f)
			}
			continue
		}
		if dir := filepath.Dir(f); givable(dir, wd) {
			add(dir)
		} else {
			add(f)
		}
		if t, err := filepath.EvalSymlinks(f); err == nil && t != f {
			add(t)
		}
	}
	// A unit beneath another is given with it: sorted, a unit follows
	// the one that holds it.
	slices.Sort(out)
	var kept []string
	for _, u := range out {
		if len(kept) == 0 || !within(u, kept[len(kept)-1]) {
			kept = append(kept, u)
		}
	}
	return kept
}

// givable reports whether a folder may be given to a program whole.
func givable(dir, wd string) bool {
	home, _ := os.UserHomeDir()
	never := []string{wd, os.TempDir(), home}
	private.Lock()
	never = append(never, private.dirs...)
	private.Unlock()
	if dir == "/" || dir == filepath.Dir(home) {
		return false
	}
	for _, n := range never {
		if n != "" && within(n, dir) {
			return false
		}
	}
	return true
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

func inSystem(p string) bool {
	for _, s := range systemDirs {
		if within(p, s) {
			return true
		}
	}
	return false
}
