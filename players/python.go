//go:build !js

package players

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/untrusted"
)

// PythonCommand is the interpreter py: agents run with (a program and
// the words before the runner's), and where the choice came from, for
// messages. Unless python (a front end's -python, play.Hosting.Python)
// or ARENA_PYTHON names one (a path, spaces and all), it is the first of
// pythonCandidates found on the PATH.
func PythonCommand(python string) (cmd []string, from string) {
	switch {
	case python != "":
		return []string{python}, "-python"
	case os.Getenv("ARENA_PYTHON") != "":
		return []string{os.Getenv("ARENA_PYTHON")}, "ARENA_PYTHON"
	}
	for _, c := range pythonCandidates(runtime.GOOS) {
		if _, err := exec.LookPath(c[0]); err == nil {
			return c, ""
		}
	}
	return pythonCandidates(runtime.GOOS)[0], ""
}

// pythonCandidates are the ways a system's Python 3 is started, in the
// order tried: on Windows the launcher that python.org's installer puts
// on the PATH (py -3), then the names a Store or a conda install gives;
// elsewhere python3, then python (a virtual environment's).
func pythonCandidates(goos string) [][]string {
	if goos == "windows" {
		return [][]string{{"py", "-3"}, {"python3"}, {"python"}}
	}
	return [][]string{{"python3"}, {"python"}}
}

// agentFile is the absolute name of an agent's file, or why it cannot be
// played.
func agentFile(file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("py:%s: no such file (give the agent's .py file, as in py:agents/student_agent.py)", file)
	}
	return abs, nil
}

// checkPythonAgent finds an agent's file and the Python that would play
// it, starting neither.
func checkPythonAgent(file string, h play.Hosting) error {
	if _, err := agentFile(file); err != nil {
		return err
	}
	python, from := PythonCommand(h.Python)
	if lookPath(python[0]) != nil {
		return noPython(file, python, from)
	}
	return nil
}

// noPython says that the Python to play file was not found, and how to
// name one.
func noPython(file string, python []string, from string) error {
	how := "install Python 3 with NumPy, or name another Python with -python or ARENA_PYTHON"
	if from != "" {
		how = "given by " + from + "; name another"
	}
	return &play.HostError{Err: fmt.Errorf("py:%s: no Python: %s was not found (%s)", file, strings.Join(python, " "), how)}
}

// readyWait bounds the runner's start: Python, NumPy and the agent's own
// imports.
const readyWait = 60 * time.Second

// newPythonBot plays an agent file through the game's runner, handed to
// Python on its command line (python3 -c RUNNER AGENT_FILE): no file is
// written, so none is left behind, however arena ends. The runner's first
// line says whether the file can play; when it cannot, the error names the
// file and the Python error, before any game starts.
func newPythonBot(proto Protocol, pa PythonAgents, agent play.Spec, h play.Hosting) (match.Bot, error) {
	file := agent.Command
	abs, err := agentFile(file)
	if err != nil {
		return nil, err
	}
	_, runner := pa.PythonRunner()
	python, from := PythonCommand(h.Python)
	spec := programBox(agent, h)
	spec.Args = append(python[:len(python):len(python)], "-c", string(runner), abs)
	p, err := startProcess(proto, spec, "the agent")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return nil, noPython(file, python, from)
		}
		return nil, fmt.Errorf("py:%s: %v", file, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyWait)
	defer cancel()
	line, err := p.next(ctx, readyWait, nil)
	var ready struct {
		Type, Error string
		Host        bool // the host's want (NumPy missing), not the agent's
	}
	switch {
	case err != nil:
		err = fmt.Errorf("py:%s: the runner did not start: %v", file, err)
	case json.Unmarshal([]byte(line), &ready) != nil || (ready.Type != "ready" && ready.Type != "error"):
		err = fmt.Errorf("py:%s: the runner said %q, not that it is ready (is %s Python 3?)", file, untrusted.Clip([]byte(line)), strings.Join(python, " "))
	case ready.Type == "error" && ready.Host:
		err = &play.HostError{Err: errors.New(ready.Error)}
	case ready.Type == "error":
		err = errors.New(ready.Error)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	p.clockBy(h)
	return p, nil
}
