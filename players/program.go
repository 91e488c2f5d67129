//go:build !js

package players

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/untrusted"
)

func init() { match.RegisterRunOnce(RunOnce) }

// RunOnce runs the program of a "cmd:" spec once, in dir, for at most
// limit, and says why when it fails: the time limit, the exit status and
// the last line it wrote on stderr. The run is over when the program
// exits: whatever it left running in the background (a "sleep 999 &") is
// ended with its process group and holds nothing up. Words of the command
// that name files in the directory arena runs in (python3 hw2.py,
// ./hw2.sh) are made absolute, since the program runs in dir.
func RunOnce(ctx context.Context, command, dir string, limit time.Duration) error {
	args, err := splitCommand(command)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("cmd: give the program to run, as in cmd:python3 hw2.py")
	}
	args = resolveWords(args, dir)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// Standard error goes to a file, not a pipe: a pipe would keep Wait
	// waiting for the background children that hold it.
	errFile, err := os.CreateTemp("", "arena-stderr-")
	if err != nil {
		return err
	}
	defer os.Remove(errFile.Name())
	defer errFile.Close()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stderr = errFile
	newGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	defer killGroup(cmd) // what the program left running ends with its move
	if err = cmd.Start(); err == nil {
		started(cmd)
		defer cleanup.Add(func() { killGroup(cmd) })() // Ctrl-C does not reach the group
		err = cmd.Wait()
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("the program did not finish within %v", limit)
	default:
		err = fmt.Errorf("the program failed: %v", err)
	}
	tail := strings.TrimSpace(fileTail(errFile, 2048))
	if tail != "" {
		err = fmt.Errorf("%w; it wrote: %s", err, untrusted.Line(tail))
	}
	if note := capNote(err.Error(), tail, cmd.ProcessState); note != "" {
		err = fmt.Errorf("%w%s", err, note)
	}
	return err
}

// fileTail reads the last n bytes of f.
func fileTail(f *os.File, n int64) string {
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(0, st.Size()-n)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return ""
	}
	return string(b)
}

// resolveWords makes absolute the words of a command that name a file or
// directory in arena's working directory, for a program that runs in
// another (dir): "python3 hw2.py" runs the hw2.py the person sees, and
// "java -cp . hw2" finds its classes. The program itself is looked up on
// PATH unless it holds a slash, as a shell does. The course's own files,
// input.txt and output.txt, are the program's, in dir.
func resolveWords(args []string, dir string) []string {
	wd, err := os.Getwd()
	if err != nil {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		explicit := a == "." || a == ".." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../")
		switch {
		case a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "-") || a == "input.txt" || a == "output.txt":
		case i == 0 && !strings.Contains(a, "/"): // a program on PATH
		case explicit || i == 0:
			out[i] = filepath.Join(wd, a)
		case exists(filepath.Join(wd, a)) && !exists(filepath.Join(dir, a)):
			out[i] = filepath.Join(wd, a)
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
