//go:build !js

package match

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/arena-playground/arena/internal/cleanup"
)

// RunOnce runs the program of a "cmd:" spec once, in dir, for at most
// limit, and says why when it fails: the time limit, the exit status and
// the last line it wrote on stderr.
func RunOnce(ctx context.Context, command, dir string, limit time.Duration) error {
	args, err := splitCommand(command)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("cmd: give the program to run, as in cmd:python3 hw2.py")
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	newGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	cmd.WaitDelay = time.Second // a process that left the group may hold the pipes
	defer killGroup(cmd)        // what the program left running ends with its move
	stderr := &tailBuffer{max: 2048}
	cmd.Stderr = stderr
	if err = cmd.Start(); err == nil {
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
	if tail := strings.TrimSpace(stderr.String()); tail != "" {
		err = fmt.Errorf("%w; it wrote: %s", err, lastLine(tail))
	}
	return err
}
