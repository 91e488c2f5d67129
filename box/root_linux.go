//go:build linux

package box

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// enterRoot builds the program's root and changes to it, as bubblewrap
// builds a sandbox's: a small tmpfs holding the machine's system
// directories and the program's files, each bound read-only at its own
// path, the box's own directory at /box and its /tmp, both writable, a
// /proc of the box's PID namespace and a /dev of five devices. The
// launcher runs as uid 0 of the box's user namespace, which owns its
// mount namespace; once it has dropped its capabilities, nothing in the
// box can mount, unmount or remount again (no capability, and the
// seccomp filter refuses the calls). What no mount names is not there to
// be reached: other entrants' boxes, the tournament's directory, arena's
// working directory, the operator's home.
//
// See: mount(2), mount_setattr(2), pivot_root(2) (its "." "." idiom),
// mount_namespaces(7) (MS_PRIVATE), bubblewrap's bind_mount.
func enterRoot(r *rootPlan) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %v", err)
	}
	nr := r.Mount
	if err := unix.Mount("tmpfs", nr, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return fmt.Errorf("its root: %v", err)
	}
	for _, s := range r.System {
		if err := bindInto(nr, s, s, true); err != nil {
			return err
		}
	}
	if err := scratchInto(nr, r, r.Box, "/box", r.Scratch); err != nil {
		return err
	}
	if err := scratchInto(nr, r, r.Tmp, "/tmp", true); err != nil {
		return err
	}
	for _, f := range r.Files {
		if err := bindInto(nr, f.From, f.To, true); err != nil {
			return err
		}
	}
	if err := os.Mkdir(nr+"/proc", 0o555); err != nil {
		return err
	}
	if err := unix.Mount("proc", nr+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("a /proc of its own: %v", err)
	}
	if err := makeDev(nr + "/dev"); err != nil {
		return fmt.Errorf("its /dev: %v", err)
	}
	if err := os.Chdir(nr); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %v", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("leaving the machine's root: %v", err)
	}
	if err := unix.MountSetattr(-1, "/", 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("its root read-only: %v", err)
	}
	unix.Sethostname([]byte("arena-box"))
	return os.Chdir("/box")
}

// bindInto binds src at dst beneath the new root nr, read-only or not;
// a link is made again as a link (a merged /usr's /bin -> usr/bin); a
// source that is not there is left out.
// scratchInto gives the program a folder it writes at dst: under a disk
// cap, a tmpfs of the cap's bytes and files, its own, mode 0700 (the
// kernel refuses a write past either: ENOSPC); otherwise, or where the
// caller made the folder (not tmpfs), src bound there.
func scratchInto(nr string, r *rootPlan, src, dst string, tmpfs bool) error {
	if r.Disk <= 0 || !tmpfs {
		return bindInto(nr, src, dst, false)
	}
	target := nr + dst
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	files := r.FileCap
	if files <= 0 {
		files = 1 << 20
	}
	opts := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0700,uid=%d,gid=%d", r.Disk, files+1, r.Uid, r.Uid)
	if err := unix.Mount("tmpfs", target, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("its %s: %v", dst, err)
	}
	return nil
}

func bindInto(nr, src, dst string, readOnly bool) error {
	st, err := os.Lstat(src)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	target := nr + dst
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fmt.Errorf("a place for %s: %v", dst, err)
	}
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		link, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if err := os.Symlink(link, target); err != nil && !os.IsExist(err) {
			return err
		}
		return nil
	case st.IsDir():
		if err := os.Mkdir(target, 0o755); err != nil && !os.IsExist(err) {
			return err
		}
	default:
		f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("a place for %s: %v", dst, err)
		}
		f.Close()
	}
	if err := unix.Mount(src, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("binding %s: %v", src, err)
	}
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID}
	switch {
	case strings.HasPrefix(src, "/dev/"):
		attr.Attr_set |= unix.MOUNT_ATTR_NOEXEC // a device: not nodev, or it would not open
	case readOnly:
		attr.Attr_set |= unix.MOUNT_ATTR_NODEV | unix.MOUNT_ATTR_RDONLY
	default:
		attr.Attr_set |= unix.MOUNT_ATTR_NODEV
	}
	if err := unix.MountSetattr(-1, target, unix.AT_RECURSIVE, &attr); err != nil {
		return fmt.Errorf("%s read-only: %v", dst, err)
	}
	return nil
}

// devices are the machine's devices a program gets, bound from its /dev.
var devices = []string{"null", "zero", "full", "random", "urandom"}

// makeDev makes the box's /dev: a tmpfs with the devices, the links a C
// library and a shell expect, and a small /dev/shm of its own (Python's
// multiprocessing needs one).
func makeDev(dev string) error {
	if err := os.Mkdir(dev, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755"); err != nil {
		return err
	}
	for _, d := range devices {
		if err := bindInto(dev, "/dev/"+d, "/"+d, false); err != nil {
			return err
		}
	}
	links := map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
	for name, to := range links {
		if err := os.Symlink(to, dev+"/"+name); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/shm", 0o1777); err != nil {
		return err
	}
	return unix.Mount("tmpfs", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=16m,mode=1777")
}
