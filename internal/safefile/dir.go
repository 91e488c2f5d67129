package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-playground/arena/internal/cleanup"
)

// Dir is a directory that arena writes and reads back, where others may
// have put files too: a tournament's directory, on a node that every
// entrant's program shares. Its files are held to what arena promises of
// them: every name stays inside the directory (no "..", no link out of
// it: an os.Root), a file read or written is a regular file and never a
// link (a link planted in the place of the journal or a replay must not
// make arena write elsewhere), a named pipe or a device is refused without
// blocking, a read stops at MaxFileSize, and a file is written under a
// temporary name and renamed once whole, so that a full disk leaves the
// old file or none, never half of one.
type Dir struct {
	root *os.Root
	path string
}

// OpenDir opens the directory at path, creating it when create is set.
func OpenDir(path string, create bool) (*Dir, error) {
	if create {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, err
		}
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root, path: path}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Path is the directory's path, as it was opened.
func (d *Dir) Path() string { return d.path }

// Join is the path of a file of the directory, for messages.
func (d *Dir) Join(name string) string { return filepath.Join(d.path, name) }

// MkdirAll makes a directory inside.
func (d *Dir) MkdirAll(name string) error { return d.root.MkdirAll(name, 0o755) }

// check refuses a name that leaves the directory, and a file that is not
// a regular one; a missing file is fs.ErrNotExist.
func (d *Dir) check(name string) error {
	if !filepath.IsLocal(name) {
		return fmt.Errorf("%s: not a file inside %s", name, d.path)
	}
	info, err := d.root.Lstat(name)
	if err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s: a link, not a file (arena reads and writes only regular files here)", d.Join(name))
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not a file", d.Join(name), kind(info.Mode()))
	}
	return nil
}

// openFlags open without following a last link and without waiting on a
// named pipe that took a checked file's place.
const openFlags = noFollow | nonBlock

// Open opens a regular file of the directory for reading, no larger than
// MaxFileSize.
func (d *Dir) Open(name string) (*os.File, error) {
	return d.openFile(name, os.O_RDONLY)
}

// OpenAppend opens a regular file of the directory for reading and
// writing, creating it when it does not exist (a journal).
func (d *Dir) OpenAppend(name string) (*os.File, error) {
	f, err := d.root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if !errors.Is(err, fs.ErrExist) {
		return f, err // a new file, or a name that cannot be one
	}
	return d.openFile(name, os.O_RDWR) // what is there, if it is a regular file
}

func (d *Dir) openFile(name string, flag int) (*os.File, error) {
	if err := d.check(name); err != nil {
		return nil, err
	}
	f, err := d.root.OpenFile(name, flag|openFlags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
	case !info.Mode().IsRegular(): // it changed since it was checked
		err = fmt.Errorf("%s: %s, not a file", d.Join(name), kind(info.Mode()))
	case info.Size() > MaxFileSize:
		err = fmt.Errorf("%s: %d MB, larger than the %d MB arena reads", d.Join(name), info.Size()>>20, MaxFileSize>>20)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads a regular file of the directory, at most MaxFileSize
// bytes of it.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err == nil && len(data) > MaxFileSize {
		err = fmt.Errorf("%s: larger than the %d MB arena reads", d.Join(name), MaxFileSize>>20)
	}
	return data, err
}

// TempPrefix starts the names of files being written: a run killed while
// writing leaves such a file, which the next run may remove.
const TempPrefix = ".tmp-"

// WriteFile writes name whole or not at all: into a new file of a
// temporary name (created, never opened through a link), renamed over
// name once written and closed. A link or a file planted at name is
// replaced, not written through. On an error the temporary file is
// removed and name is as it was.
func (d *Dir) WriteFile(name string, write func(w io.Writer) error) (err error) {
	if !filepath.IsLocal(name) {
		return fmt.Errorf("%s: not a file inside %s", name, d.path)
	}
	if info, err := d.root.Lstat(name); err == nil && info.IsDir() {
		return fmt.Errorf("%s: a directory, not a file", d.Join(name))
	}
	// A new name each try, created exclusively: a file or a link already
	// there (planted, or another writer's) is never opened.
	var tmp string
	var f *os.File
	for try := 0; ; try++ {
		tmp = filepath.Join(filepath.Dir(name), fmt.Sprintf("%s%s-%016x", TempPrefix, filepath.Base(name), rand.Uint64()))
		f, err = d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || try == 10 {
			return err
		}
	}
	defer cleanup.Add(func() { d.root.Remove(tmp) })()
	defer func() {
		if err != nil {
			f.Close()
			d.root.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return d.root.Rename(tmp, name)
}

// RemoveTemps removes the files a killed writer left (see TempPrefix) in
// the directory dir of d.
func (d *Dir) RemoveTemps(dir string) {
	f, err := d.root.Open(dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if strings.HasPrefix(n, TempPrefix) {
			d.root.Remove(filepath.Join(dir, n))
		}
	}
}

// Remove removes a file of the directory.
func (d *Dir) Remove(name string) error { return d.root.Remove(name) }
