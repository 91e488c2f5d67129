//go:build linux

package box

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Where the machine has no cgroup v2 with the memory controller for
// arena (a hybrid hierarchy: cgroup v1's controllers, v2 mounted empty,
// as on this project's test machines), arena as root makes each box a
// cgroup v1 of its own in the memory and pids hierarchies: memory's
// limit_in_bytes (and memsw's, with swap accounting: no swap) counts the
// tree's whole memory, shared mappings, memfd and tmpfs pages included,
// which RLIMIT_DATA does not; pids.max its processes and threads. cgroup
// v1 has no CLONE_INTO_CGROUP: the launcher joins the cgroups (writes 0
// to their cgroup.procs) as its first step, before the caps, the root
// and the program. Over its memory the kernel's OOM killer ends the
// program inside its cgroup (memory.oom_control counts it), and arena
// names the cap.
//
// See: the kernel's admin-guide/cgroup-v1/memory.rst (limit_in_bytes,
// memsw.limit_in_bytes, oom_control) and pids.rst.

// v1Place is where boxes' cgroups v1 are made: each controller's folder
// of arena's own cgroup, or why there is none.
type v1Place struct {
	memory, pids string
	why          string
}

var cgroupsV1 = sync.OnceValue(func() v1Place { return findV1("/proc/self/cgroup", "/proc/self/mountinfo") })

// findV1 finds arena's cgroups of the memory and pids controllers, where
// arena is root and may make cgroups in them.
func findV1(cgroupFile, mountinfo string) v1Place {
	if os.Getuid() != 0 {
		return v1Place{why: "arena is not root, and no cgroup v2 is delegated to it"}
	}
	own := map[string]string{} // controller: arena's path in its hierarchy
	b, err := os.ReadFile(cgroupFile)
	if err != nil {
		return v1Place{why: err.Error()}
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.SplitN(l, ":", 3)
		if len(f) == 3 {
			for _, c := range strings.Split(f[1], ",") {
				own[c] = f[2]
			}
		}
	}
	mounts := map[string]string{} // controller: its hierarchy's mount
	mf, err := os.Open(mountinfo)
	if err != nil {
		return v1Place{why: err.Error()}
	}
	defer mf.Close()
	sc := bufio.NewScanner(mf)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, after := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(after) < 3 || after[0] != "cgroup" {
			continue
		}
		for _, o := range strings.Split(after[2], ",") {
			if o == "memory" || o == "pids" {
				mounts[o] = fields[4]
			}
		}
	}
	var p v1Place
	for _, c := range []string{"memory", "pids"} {
		m, ok := mounts[c]
		if !ok {
			return v1Place{why: "no cgroup v1 " + c + " controller is mounted"}
		}
		dir := filepath.Join(m, own[c])
		sweepV1(dir)
		probe := filepath.Join(dir, fmt.Sprintf("arena-probe-%d", os.Getpid()))
		if err := os.Mkdir(probe, 0o755); err != nil {
			return v1Place{why: "arena may not make cgroups in " + dir + ": " + err.Error()}
		}
		os.Remove(probe)
		if c == "memory" {
			p.memory = dir
		} else {
			p.pids = dir
		}
	}
	return p
}

// sweepV1 removes the cgroups an arena that was killed left in dir: each
// is named for the arena that made it, and one whose arena is gone is
// ended and removed.
func sweepV1(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, "arena-box-*-*"))
	for _, d := range old {
		pid, err := strconv.Atoi(strings.Split(filepath.Base(d), "-")[2])
		if err == nil && pid != os.Getpid() && !alive(pid) {
			endV1([]string{d})
		}
	}
}

// makeV1 makes a box's cgroups v1 under the caps: its memory and pids
// folders, for the launcher to join.
func makeV1(place v1Place, c Caps) ([]string, error) {
	if place.memory == "" || c.Memory <= 0 && c.Procs <= 0 {
		return nil, nil
	}
	name := fmt.Sprintf("arena-box-%d-%d", os.Getpid(), cgroupN.Add(1))
	var dirs []string
	undo := func() {
		for _, d := range dirs {
			os.Remove(d)
		}
	}
	for _, s := range []struct {
		root   string
		limits [][2]string
	}{
		{place.memory, [][2]string{{"memory.limit_in_bytes", strconv.FormatInt(c.Memory, 10)}, {"memory.memsw.limit_in_bytes", strconv.FormatInt(c.Memory, 10)}, {"memory.swappiness", "0"}}},
		{place.pids, [][2]string{{"pids.max", strconv.Itoa(c.Procs)}}},
	} {
		dir := filepath.Join(s.root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			undo()
			return nil, fmt.Errorf("the box's cgroup: %v", err)
		}
		dirs = append(dirs, dir)
		for _, l := range s.limits {
			if l[1] == "0" && l[0] != "memory.swappiness" {
				continue // no cap asked
			}
			err := os.WriteFile(filepath.Join(dir, l[0]), []byte(l[1]), 0o644)
			if err != nil && !(os.IsNotExist(err) || l[0] != "memory.limit_in_bytes" && l[0] != "pids.max") {
				undo()
				return nil, fmt.Errorf("the box's cgroup: %s: %v", l[0], err)
			}
		}
	}
	return dirs, nil
}

// endV1 ends every process of a box's cgroups v1 and removes them.
func endV1(dirs []string) {
	for _, d := range dirs {
		for range 200 {
			procs, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			if err != nil || len(strings.TrimSpace(string(procs))) == 0 {
				break
			}
			for _, f := range strings.Fields(string(procs)) {
				if pid, err := strconv.Atoi(f); err == nil {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		for range 200 {
			if err := os.Remove(d); err == nil || os.IsNotExist(err) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// oomKilled reports whether the kernel ended a process of the box's
// memory cgroup (v1's memory.oom_control, v2's memory.events) at its
// limit.
func oomKilled(dirs ...string) bool {
	for _, d := range dirs {
		for _, f := range []string{"memory.oom_control", "memory.events"} {
			b, err := os.ReadFile(filepath.Join(d, f))
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(b), "\n") {
				if k, v, ok := strings.Cut(l, " "); ok && k == "oom_kill" && v != "0" {
					return true
				}
			}
		}
	}
	return false
}

// joinCgroups moves the launcher into the cgroups v1 arena made for its
// box, before anything else it does: what it starts is in them.
func joinCgroups(dirs []string) error {
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte("0"), 0o644); err != nil {
			return fmt.Errorf("its cgroup %s: %v", d, err)
		}
	}
	return nil
}

// cgroupSummary says how each box is capped here, for Containment.
func cgroupSummary() (where, why string) {
	if place := cgroups(); place.dir != "" {
		return "a cgroup v2 of its own (in " + place.dir + ")", ""
	} else if v1 := cgroupsV1(); v1.memory != "" {
		return "cgroups v1 of its own (memory in " + v1.memory + ", pids in " + v1.pids + ")", ""
	} else {
		return "", place.why + "; nor a cgroup v1: " + v1.why
	}
}
