//go:build !js

package box

import (
	"os"
	"runtime"
	"strings"
)

// passed are the variables of arena's environment a program gets: how to
// find programs and which language to speak, and where a Python
// installation is (pyenv's and a virtual environment's, which name
// folders, not secrets). Nothing else of the operator's reaches an
// entrant: a token, a password, a cloud key set for arena stays arena's.
var passed = []string{"PATH", "LANG", "LANGUAGE", "TZ", "PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV", "CONDA_PREFIX"}

// passedWindows are what a Windows program needs to start at all (its
// system's folders and its processor), beside passed.
var passedWindows = []string{"SystemRoot", "SystemDrive", "windir", "PATHEXT", "ComSpec", "NUMBER_OF_PROCESSORS",
	"PROCESSOR_ARCHITECTURE", "ProgramFiles", "ProgramFiles(x86)", "ProgramData", "LOCALAPPDATA", "APPDATA"}

// threadEnvs are the numerical libraries' thread counts a capped program
// gets unless arena's environment sets them: one, as it gets one core in
// a tournament. NumPy's OpenBLAS otherwise starts a thread per core, each
// with tens of MB of buffers, and on a 64-core node would not even start
// under a 2 GB cap.
var threadEnvs = []string{"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}

// Environment is a program's whole environment: the variables passed from
// arena's, HOME and TMPDIR in its box, and what its kind adds (which wins).
func Environment(home, tmp string, caps Caps, kind []string) []string {
	keep := passed
	if runtime.GOOS == "windows" {
		keep = append(keep[:len(keep):len(keep)], passedWindows...)
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if isPassed(k, keep) {
			env = append(env, kv)
		}
	}
	if _, ok := os.LookupEnv("LANG"); !ok {
		env = append(env, "LANG=C.UTF-8")
	}
	if runtime.GOOS == "windows" {
		env = append(env, "USERPROFILE="+home, "TEMP="+tmp, "TMP="+tmp)
	} else {
		env = append(env, "HOME="+home, "TMPDIR="+tmp)
	}
	if caps != (Caps{}) {
		for _, e := range threadEnvs {
			if v, set := os.LookupEnv(e); set {
				env = append(env, e+"="+v)
			} else {
				env = append(env, e+"=1")
			}
		}
	}
	return override(env, kind)
}

func isPassed(k string, keep []string) bool {
	if strings.HasPrefix(k, "LC_") {
		return true
	}
	for _, p := range keep {
		if k == p || (runtime.GOOS == "windows" && strings.EqualFold(k, p)) {
			return true
		}
	}
	return false
}

// override sets each of kind's variables in env, replacing one of the
// same name.
func override(env, kind []string) []string {
	for _, kv := range kind {
		k, _, _ := strings.Cut(kv, "=")
		out := env[:0]
		for _, e := range env {
			if ek, _, _ := strings.Cut(e, "="); ek != k {
				out = append(out, e)
			}
		}
		env = append(out, kv)
	}
	return env
}
