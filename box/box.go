//go:build !js

package box

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Spec says what goes in a box.
type Spec struct {
	// Args are the program and its words. The program is looked up on
	// PATH unless it holds a slash; a word that names a file or folder
	// in arena's working directory is made absolute, since the program
	// runs in its box. With Seat, the words' {host} and {port} are the
	// seat's.
	Args []string
	// Env is what the program's kind needs beyond the clean environment
	// (NAME=VALUE).
	Env []string
	// Files are more files or folders the program may read.
	Files []string
	// Seat gives the program a TCP seat: a port on a loopback that only
	// its box reaches, where arena listens for it (Box.Seat).
	Seat bool
	// Caps bound its memory, processes and CPU time.
	Caps Caps
	// Alone gives the program's file alone, not its folder: arena's own
	// binary as a go: bot's interpreter.
	Alone bool
	// Dir, when set, is the program's working directory: a fresh folder
	// the caller made and removes, holding what the program is to read
	// (map colouring's input.txt). Otherwise the box makes one.
	Dir string
	// Upload, when set, is the folder of a student's upload (a ladder's
	// version, unpacked by arena): the program's words are then the
	// student's and name nothing. It reads its upload, its runtime's
	// installation and the system's folders; a word that names any other
	// file (a database, a token list, another student's folder) gives it
	// nothing, and a program named by a path must be the upload's.
	Upload string
	// Keep are words never made absolute: the names of the course's own
	// files in the box's directory (map colouring's input.txt).
	Keep []string
}

// Box is one program in its box. Set Cmd's standard streams (or take its
// pipes), then Start it; Close ends what it left running and removes
// its directory.
type Box struct {
	Cmd *exec.Cmd
	// Dir is the program's working directory as arena sees it: where a
	// game that plays programs on files (map colouring) writes their
	// input and reads their output.
	Dir string

	spec Spec
	root string // the box's own directory on the machine (Dir is in it)
	seat net.Listener
	addr string
	os   osBox // what the system's way of boxing keeps
	once sync.Once

	meterMu sync.Mutex
	cpuSeen time.Duration // the most CPU time read of the tree (CPU)

	// diskDirs are the folders the program writes that no tmpfs bounds:
	// arena watches them against the disk cap (watchDisk).
	diskDirs []string
	diskStop chan struct{}
	exceeded atomic.Value // string: the cap the box was ended at
}

// ErrNoProgram is a Spec with no program.
var ErrNoProgram = errors.New("no program given")

// New makes the program's box, ready to start.
func New(spec Spec) (*Box, error) {
	if len(spec.Args) == 0 || spec.Args[0] == "" {
		return nil, ErrNoProgram
	}
	b := &Box{spec: spec}
	if err := b.makeDirs(boxBase()); err != nil {
		return nil, err
	}
	b.diskDirs = []string{b.Dir, b.tmp()}
	if err := b.prepare(); err != nil {
		b.Kill() // what prepare made beside the folders (a cgroup)
		b.removeDirs()
		return nil, err
	}
	return b, nil
}

// Start starts the program in its box.
func (b *Box) Start() error {
	if err := b.Cmd.Start(); err != nil {
		b.afterFailedStart()
		return err
	}
	if err := b.afterStart(); err != nil {
		b.Kill()
		b.Cmd.Wait()
		return err
	}
	b.watchDisk()
	return nil
}

// diskPoll is how often arena measures the folders of a program that no
// tmpfs bounds: a program writing as fast as a disk takes writes a few
// hundred MB past its cap before it is ended, and no file past it
// (RLIMIT_FSIZE).
const diskPoll = 100 * time.Millisecond

// watchDisk ends the program once what it wrote in diskDirs passes its
// disk cap, in bytes or in files; Exceeded then says so.
func (b *Box) watchDisk() {
	c := b.spec.Caps
	if c.Disk <= 0 && c.Files <= 0 || len(b.diskDirs) == 0 {
		return
	}
	b.diskStop = make(chan struct{})
	go func() {
		t := time.NewTicker(diskPoll)
		defer t.Stop()
		for {
			select {
			case <-b.diskStop:
				return
			case <-t.C:
			}
			if bytes, files := usage(b.diskDirs, c.Files); c.Disk > 0 && bytes > c.Disk || c.Files > 0 && files > c.Files {
				b.exceeded.Store(c.DiskText())
				b.Kill()
				return
			}
		}
	}()
}

// usage is the bytes and the files (every name: files, folders, links)
// beneath dirs, counted up to one past most.
func usage(dirs []string, most int) (bytes int64, files int) {
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || p == d {
				return nil
			}
			files++
			if most > 0 && files > most {
				return filepath.SkipAll
			}
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				bytes += info.Size()
			}
			return nil
		})
	}
	return bytes, files
}

// Exceeded names the cap the program was ended at where arena knows it
// without the program's word: its disk cap, where arena watches, or its
// memory, where its cgroup's kernel accounts say the kernel ended it
// there; or "".
func (b *Box) Exceeded() string {
	if s, _ := b.exceeded.Load().(string); s != "" {
		return s
	}
	return b.overMemory()
}

// Seat is the listener of the program's seat, once started (Spec.Seat).
func (b *Box) Seat() net.Listener { return b.seat }

// SeatAddr is the seat's address as the program knows it.
func (b *Box) SeatAddr() string { return b.addr }

// SeatShared reports whether the seat is on the machine's own loopback,
// where any process of the machine can reach it (no network namespace):
// then who connects must be checked.
func (b *Box) SeatShared() bool { return b.os.sharedSeat }

// Kill ends the program and every process it started, at once.
func (b *Box) Kill() { b.killTree() }

// Close ends the program's tree and removes the box's directory, once.
func (b *Box) Close() error {
	b.Kill()
	b.once.Do(func() {
		if b.diskStop != nil {
			close(b.diskStop)
		}
		if b.seat != nil {
			b.seat.Close()
		}
		b.removeDirs()
	})
	return nil
}

// makeDirs makes the box's own directory in base: the program's working
// directory and its /tmp.
func (b *Box) makeDirs(base string) error {
	sweep.Do(sweepStale)
	root, err := os.MkdirTemp(base, fmt.Sprintf("arena-box-%d-", os.Getpid()))
	if err != nil {
		return fmt.Errorf("the program's box: %v", err)
	}
	b.root = root
	dirs := []string{b.tmp(), b.mountPoint()}
	if b.Dir = b.spec.Dir; b.Dir == "" {
		b.Dir = root + string(os.PathSeparator) + "box"
		dirs = append(dirs, b.Dir)
	}
	for _, d := range dirs {
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(root)
			return fmt.Errorf("the program's box: %v", err)
		}
	}
	return nil
}

// boxBase is the folder the boxes are made in: the temporary folder,
// unless a program of a uid of its own (arena as root, with no root of
// its own for the program) could not pass through it to its box (a
// TMPDIR only root may enter), when it is /tmp.
func boxBase() string {
	base := os.TempDir()
	if os.Getuid() == 0 && !Contain().Separate && !othersMay(base, true) {
		return "/tmp"
	}
	return base
}

// sweep removes, once a process, the boxes an arena that was killed
// (kill -9, a machine's reset) could not: each box's directory is named
// for the arena that made it, and one whose arena is gone is removed.
var sweep sync.Once

func sweepStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "arena-box-*-*"))
	if os.TempDir() != "/tmp" { // where boxBase may have put them
		more, _ := filepath.Glob("/tmp/arena-box-*-*")
		dirs = append(dirs, more...)
	}
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.Split(filepath.Base(d), "-")[2])
		if err == nil && pid != os.Getpid() && !alive(pid) {
			os.RemoveAll(d)
		}
	}
}

func (b *Box) tmp() string        { return b.root + string(os.PathSeparator) + "tmp" }
func (b *Box) mountPoint() string { return b.root + string(os.PathSeparator) + "root" }

func (b *Box) removeDirs() {
	if b.root != "" {
		os.RemoveAll(b.root)
	}
}

// seatWords replaces {host} and {port} in the words.
func seatWords(args []string, host, port string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.NewReplacer("{host}", host, "{port}", port).Replace(a)
	}
	return out
}
