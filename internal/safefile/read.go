// Package safefile reads and writes the files that people and programs
// hand arena, and the files arena writes where others can reach them,
// within promises: a file read is a regular file (a named pipe would hang
// the reader, a device would never end) of at most MaxFileSize bytes.
package safefile

import (
	"fmt"
	"io"
	"os"
)

// MaxFileSize bounds every file arena reads that a person or a program
// gives it (replays, configs, course inputs, a program's output, reference
// traces): the largest real one, a 500-turn replay of a 128x128 Life
// match, is a few megabytes.
const MaxFileSize = 64 << 20

// ReadFile reads a file that a person or a program gave, refusing what is
// not a regular file (a FIFO or a device would block or never end) and
// what is larger than MaxFileSize, with a message that says so.
func ReadFile(name string) ([]byte, error) {
	// Look before opening: opening a named pipe waits for a writer.
	if err := regular(name, os.Stat); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() { // it changed since we looked
		return nil, fmt.Errorf("%s: %s, not a file", name, kind(info.Mode()))
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %d MB, larger than the %d MB arena reads", name, info.Size()>>20, MaxFileSize>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than the %d MB arena reads", name, MaxFileSize>>20)
	}
	return data, nil
}

// regular reports an error unless name is a regular file (following
// links), according to stat.
func regular(name string, stat func(string) (os.FileInfo, error)) error {
	info, err := stat(name)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not a file", name, kind(info.Mode()))
	}
	return nil
}

// kind names what a file that is not a regular one is.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
