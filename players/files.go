//go:build !js

package players

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
)

// fileBot is a course's program run once per move on files (a
// match.FileProtocol game: map colouring's homework, which reads
// input.txt and writes output.txt in its working directory): each move,
// in a fresh directory that is its box's working directory, the game's
// input is written, the program run to its end, and its output read.
type fileBot struct {
	proto FileProtocol
	args  []string // the program's words
	base  box.Spec // its caps and upload
}

func newFileBot(proto FileProtocol, spec play.Spec, h play.Hosting) (match.Bot, error) {
	args, err := words(spec)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("cmd: give the program to run, as in cmd:python3 hw2.py")
	}
	return &fileBot{proto: proto, args: args, base: programBox(spec, h)}, nil
}

func (b *fileBot) Act(t *match.Turn) (match.Action, error) {
	inName, outName, limit := b.proto.CourseFiles()
	input, err := b.proto.CourseInput(t)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "arena-course-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	defer cleanup.Add(func() { os.RemoveAll(dir) })()
	if err := os.WriteFile(filepath.Join(dir, inName), input, 0o644); err != nil {
		return nil, err
	}
	if err := runOnce(t.Context(), b.args, dir, limit, []string{inName, outName}, b.base); err != nil {
		return nil, err
	}
	out, err := safefile.ReadFile(filepath.Join(dir, outName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("the program wrote no %s", outName)
	case err != nil: // a named pipe, a link to a device, a file too large
		return nil, fmt.Errorf("its %s", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	return b.proto.CourseMove(t, input, out)
}

// runOnce runs the program of a "cmd:" spec once, in its box with dir as
// its working directory, for at most limit, and says why when it fails:
// the time limit, the exit status and the last line it wrote on stderr.
// The run is over when the program exits: whatever it left running in
// the background (a "sleep 999 &") is ended with its box and holds
// nothing up. Words of the command that name files in the directory
// arena runs in (python3 hw2.py, ./hw2.sh) are made absolute, and those
// files given to it; the course's own files (keep) are the program's, in
// dir.
func runOnce(ctx context.Context, args []string, dir string, limit time.Duration, keep []string, base box.Spec) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	spec := base
	spec.Args, spec.Dir, spec.Keep = args, dir, keep
	caps := spec.Caps
	b, err := box.New(spec)
	if err != nil {
		return fmt.Errorf("the program failed: %v", err)
	}
	defer b.Close() // what the program left running ends with its move
	// Standard error goes to a file, not a pipe: a pipe would keep Wait
	// waiting for the background children that hold it.
	errFile, err := os.CreateTemp("", "arena-stderr-")
	if err != nil {
		return err
	}
	defer os.Remove(errFile.Name())
	defer errFile.Close()
	b.Cmd.Stderr = errFile
	if err = b.Start(); err == nil {
		defer cleanup.Add(func() { b.Kill() })() // Ctrl-C does not reach the box
		stop := context.AfterFunc(ctx, b.Kill)
		err = b.Cmd.Wait()
		stop()
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("the program did not finish within %v", limit)
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		err = fmt.Errorf("the program failed: %v", err)
	}
	tail := strings.TrimSpace(fileTail(errFile, 2048))
	if tail != "" {
		err = fmt.Errorf("%w; it wrote: %s", err, untrusted.Line(tail))
	}
	if note := boxNote(b, caps, err.Error(), tail, b.Cmd.ProcessState); note != "" {
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
