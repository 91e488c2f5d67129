package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// runDesktop starts the window: the arena-desktop program beside arena's
// own binary (a download carries both), with the same arguments. The
// window is a program of its own because it links Ebitengine, which needs
// cgo on Linux and macOS, and arena is built without, for every system
// from one machine.
func runDesktop(args []string, stdout, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	name := "arena-desktop"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	window := filepath.Join(filepath.Dir(exe), name)
	if _, err := os.Stat(window); err != nil {
		return fmt.Errorf("the window is the %s program, which is not beside %s here: the downloads for Linux (amd64), macOS and Windows carry it; from the source, go run ./cmd/desktop", name, exe)
	}
	cmd := exec.Command(window, args...)
	cmd.Args[0] = self() + " desktop" // how its messages name it
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return exitCode(ee.ExitCode())
		}
		return err
	}
	return nil
}
