// Package atomicfile writes files so that nothing half-written is ever
// left under the final name: the content goes to a temporary file in the
// same directory, which is renamed over the target only once complete.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/arena-playground/arena/internal/cleanup"
)

// Write creates path with the content write produces. If write fails, the
// target is left as it was.
func Write(path string, write func(w io.Writer) error) (err error) {
	f, done, err := createTemp(path)
	if err != nil {
		return err
	}
	defer done()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// createTemp creates the temporary file path is written to, beside it,
// and registers its removal should a signal end the process (done
// unregisters it). The name is chosen and registered before the file
// is made: a signal that comes between the two (a Ctrl-C as soon as the
// file shows) would otherwise leave it behind.
func createTemp(path string) (f *os.File, done func(), err error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, rand.Uint32()))
		done = cleanup.Add(func() { os.Remove(name) })
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, done, nil
		}
		done()
		if !errors.Is(err, fs.ErrExist) {
			return nil, nil, err
		}
	}
	return nil, nil, fmt.Errorf("%s: no free name for a temporary file in %s", path, dir)
}

// Check says, before any work is done, whether Write could write path:
// its folder exists and takes a file, and path is not a folder. The error
// names path as it was given ("docs/m.gif: no folder docs here"), not the
// temporary file Write would make: a command given an output checks it
// first, so that a long match is not played for nothing.
func Check(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s: a folder, not a file", path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: no folder %s here to write it in", path, dir)
	}
	f, done, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %v", path, dir, errors.Unwrap(err))
	}
	defer done()
	f.Close()
	os.Remove(f.Name())
	return nil
}
