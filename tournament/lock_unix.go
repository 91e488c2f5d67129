//go:build unix

package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/arena-playground/arena/internal/untrusted"
)

// LockFile is the file a run holds locked in its directory.
const LockFile = ".lock"

// lockDir takes the directory for one run: a second run started into it
// while the first plays (a second terminal, a job array whose shards
// were given one directory) would interleave its journal lines with the
// first's and both would report success, leaving a directory that can be
// neither resumed nor reported. The lock is the kernel's (flock), so it
// is released however the run ends, kill -9 included; the file holds the
// holder's pid and host for the refusal's message. The lock file is
// opened without following a link: a link planted there must not make
// arena write elsewhere.
func lockDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot take the tournament's lock: %v", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := make([]byte, 128)
		n, _ := f.ReadAt(holder, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: another run is playing this tournament (%s): wait for it, or stop it, before starting one here", dir, holderText(holder[:n]))
		}
		return nil, fmt.Errorf("%s: cannot take the tournament's lock: %v", path, err)
	}
	host, _ := os.Hostname()
	f.Truncate(0)
	f.WriteAt([]byte(fmt.Sprintf("pid %d on %s\n", os.Getpid(), host)), 0)
	return func() { f.Close() }, nil
}

// holderText is what the lock file says of its holder, as printable text.
func holderText(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "its pid unknown"
	}
	return untrusted.Text(s)
}
