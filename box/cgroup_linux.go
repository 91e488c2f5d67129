//go:build linux

package box

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Where arena may make a cgroup v2 for each box, the caps are the
// cgroup's: memory.max (the whole tree's memory, page cache and kernel
// memory included, which RLIMIT_DATA does not count), memory.swap.max 0,
// pids.max (the tree's processes and threads), and the box is started in
// it (CLONE_INTO_CGROUP), so that it runs capped from its first
// instruction; killing the box writes cgroup.kill, which ends every
// process in it, those that left every group and session too. The
// rlimits stay beside it (CPU time has no cgroup cap to count it).
//
// arena may make one when its own cgroup is delegated to it: the memory
// and pids controllers are in its cgroup.controllers, arena is the only
// process there, and it may write there (systemd-run --scope -p
// Delegate=yes, a container with a cgroup of its own). As systemd's
// delegation rules ask (no process in a cgroup whose controllers are
// enabled for children), arena first moves itself into a leaf of its own,
// arena/, then enables the controllers for the cgroup's children, and
// makes each box's cgroup beside its leaf.
//
// See: the kernel's admin-guide/cgroup-v2.rst ("No Internal Process
// Constraint", "Delegation", memory.max, pids.max, cgroup.kill), clone(2)
// (CLONE_INTO_CGROUP), systemd's "Control Group APIs and Delegation".

// cgroups is what arena found of its cgroup, once.
var cgroups = sync.OnceValue(func() cgroupPlace {
	return findCgroup("/proc/self/cgroup", "/proc/self/mountinfo", os.Getpid(), os.Getuid() == 0)
})

// cgroupPlace is the folder boxes' cgroups are made in, or why there is
// none.
type cgroupPlace struct {
	dir string
	why string
}

// findCgroup finds arena's cgroup v2 from its /proc files and makes it
// the parent of the boxes' cgroups when it is delegated; pid is arena's.
// As root, where its own is not delegated (a service's cgroup, a login
// session's), arena makes a cgroup of its own at the hierarchy's root
// for its boxes (asRoot).
func findCgroup(cgroupFile, mountinfo string, pid int, root bool) cgroupPlace {
	rel, err := ownCgroup(cgroupFile)
	if err != nil {
		return cgroupPlace{why: err.Error()}
	}
	mount, err := cgroup2Mount(mountinfo)
	if err != nil {
		return cgroupPlace{why: err.Error()}
	}
	own := filepath.Join(mount, rel)
	place := delegate(own, pid)
	if place.dir == "" && root {
		at := asRoot(mount, pid)
		if at.dir != "" {
			return at
		}
		place.why += "; nor at the hierarchy's root: " + at.why
	}
	return place
}

// asRoot makes mount/arena-PID the parent of the boxes' cgroups, with
// the memory and pids controllers enabled from the hierarchy's root down
// (the root cgroup holds processes and may: the no-internal-process
// rule spares it); an arena-PID left by a killed arena is removed.
func asRoot(mount string, pid int) cgroupPlace {
	ctrl, err := os.ReadFile(filepath.Join(mount, "cgroup.controllers"))
	if err != nil {
		return cgroupPlace{why: err.Error()}
	}
	for _, c := range []string{"memory", "pids"} {
		if !slices.Contains(strings.Fields(string(ctrl)), c) {
			return cgroupPlace{why: "the hierarchy has no " + c + " controller"}
		}
	}
	old, _ := filepath.Glob(filepath.Join(mount, "arena-*"))
	for _, d := range old {
		if n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "arena-")); err == nil && n != pid && !alive(n) {
			boxes, _ := filepath.Glob(filepath.Join(d, "box-*"))
			for _, b := range boxes {
				endCgroup(b)
			}
			os.Remove(d)
		}
	}
	enable := func(dir string) error {
		err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids"), 0o644)
		if err != nil {
			return fmt.Errorf("the memory and pids controllers cannot be enabled in %s: %v", dir, err)
		}
		return nil
	}
	if err := enable(mount); err != nil {
		return cgroupPlace{why: err.Error()}
	}
	dir := filepath.Join(mount, fmt.Sprintf("arena-%d", pid))
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return cgroupPlace{why: "arena may not make a cgroup at the hierarchy's root: " + err.Error()}
	}
	if err := enable(dir); err != nil {
		os.Remove(dir)
		return cgroupPlace{why: err.Error()}
	}
	return cgroupPlace{dir: dir}
}

// ownCgroup reads the cgroup v2 path of a /proc/PID/cgroup file: its
// "0::PATH" line.
func ownCgroup(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "0::"); ok {
			return rest, nil
		}
	}
	return "", fmt.Errorf("no cgroup v2 in %s", file)
}

// cgroup2Mount finds where the cgroup2 file system is mounted, from a
// mountinfo file (proc(5)): the field after " - " is the type.
func cgroup2Mount(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields := strings.Fields(pre)
		if ok && len(fields) > 4 && strings.HasPrefix(post, "cgroup2 ") {
			return fields[4], nil
		}
	}
	return "", fmt.Errorf("no cgroup2 file system is mounted")
}

// delegate makes own the parent of the boxes' cgroups, arena moved into
// its leaf own/arena, when own has the memory and pids controllers and
// arena alone in it; or says why not.
func delegate(own string, pid int) cgroupPlace {
	ctrl, err := os.ReadFile(filepath.Join(own, "cgroup.controllers"))
	if err != nil {
		return cgroupPlace{why: "arena's cgroup cannot be read: " + err.Error()}
	}
	have := strings.Fields(string(ctrl))
	for _, c := range []string{"memory", "pids"} {
		if !slices.Contains(have, c) {
			return cgroupPlace{why: fmt.Sprintf("arena's cgroup (%s) has no %s controller", own, c)}
		}
	}
	procs, err := os.ReadFile(filepath.Join(own, "cgroup.procs"))
	if err != nil {
		return cgroupPlace{why: err.Error()}
	}
	for _, p := range strings.Fields(string(procs)) {
		if p != strconv.Itoa(pid) {
			return cgroupPlace{why: fmt.Sprintf("arena's cgroup (%s) holds other processes (%s): it is not delegated to arena", own, p)}
		}
	}
	leaf := filepath.Join(own, "arena")
	if err := os.Mkdir(leaf, 0o755); err != nil && !os.IsExist(err) {
		return cgroupPlace{why: "arena may not make cgroups in " + own + ": " + err.Error()}
	}
	if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		return cgroupPlace{why: "arena cannot move itself into " + leaf + ": " + err.Error()}
	}
	if err := os.WriteFile(filepath.Join(own, "cgroup.subtree_control"), []byte("+memory +pids"), 0o644); err != nil {
		return cgroupPlace{why: "the memory and pids controllers cannot be enabled in " + own + ": " + err.Error()}
	}
	return cgroupPlace{dir: own}
}

var cgroupN atomic.Int64

// makeCgroup makes a box's cgroup under the caps, and returns its folder
// open (for CLONE_INTO_CGROUP), or nil where arena makes none.
func makeCgroup(c Caps) (*os.File, string, error) { return makeCgroupIn(cgroups(), c) }

func makeCgroupIn(place cgroupPlace, c Caps) (*os.File, string, error) {
	if place.dir == "" || c == (Caps{}) {
		return nil, "", nil
	}
	dir := filepath.Join(place.dir, fmt.Sprintf("box-%d", cgroupN.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("the box's cgroup: %v", err)
	}
	limits := map[string]string{"memory.swap.max": "0"}
	if c.Memory > 0 {
		limits["memory.max"] = strconv.FormatInt(c.Memory, 10)
	}
	if c.Procs > 0 {
		limits["pids.max"] = strconv.Itoa(c.Procs)
	}
	for file, v := range limits {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(v), 0o644); err != nil && !(file == "memory.swap.max" && os.IsNotExist(err)) {
			os.Remove(dir)
			return nil, "", fmt.Errorf("the box's cgroup: %s: %v", file, err)
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return nil, "", err
	}
	return f, dir, nil
}

// endCgroup ends every process of a box's cgroup (cgroup.kill) and
// removes it once they are gone.
func endCgroup(dir string) {
	if dir == "" {
		return
	}
	os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0o644)
	for range 200 {
		if err := os.Remove(dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
