//go:build linux

package box

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// arena finds its cgroup v2 in /proc's files, and takes it for the
// boxes' cgroups only when it is delegated: the memory and pids
// controllers there, arena alone in it. It then moves itself into a leaf
// and enables the controllers for the children, and each box's cgroup
// gets the caps. (A folder stands for the cgroup file system here: this
// machine's cgroup v2 has no memory controller, so the kernel's own
// enforcement is not tried.)
func TestCgroupDelegation(t *testing.T) {
	dir := t.TempDir()
	cg := filepath.Join(dir, "proc-cgroup")
	os.WriteFile(cg, []byte("12:pids:/a\n0::/user.slice/arena.scope\n"), 0o644)
	mi := filepath.Join(dir, "mountinfo")
	os.WriteFile(mi, []byte("22 1 0:21 / /proc rw - proc proc rw\n30 25 0:26 / "+dir+"/fs rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"), 0o644)
	own := filepath.Join(dir, "fs", "user.slice", "arena.scope")
	os.MkdirAll(own, 0o755)
	write := func(name, text string) { os.WriteFile(filepath.Join(own, name), []byte(text), 0o644) }

	write("cgroup.controllers", "cpu io pids")
	if p := findCgroup(cg, mi, 42, false); p.dir != "" || !strings.Contains(p.why, "no memory controller") {
		t.Errorf("without memory: %+v", p)
	}
	write("cgroup.controllers", "cpu io memory pids")
	write("cgroup.procs", "42\n77\n")
	if p := findCgroup(cg, mi, 42, false); p.dir != "" || !strings.Contains(p.why, "holds other processes (77)") {
		t.Errorf("with another process: %+v", p)
	}
	write("cgroup.procs", "42\n")
	p := findCgroup(cg, mi, 42, false)
	if p.dir != own {
		t.Fatalf("delegated: %+v", p)
	}
	if b, _ := os.ReadFile(filepath.Join(own, "arena", "cgroup.procs")); string(b) != "42" {
		t.Errorf("arena did not move itself into its leaf: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(own, "cgroup.subtree_control")); string(b) != "+memory +pids" {
		t.Errorf("the controllers were not enabled for the children: %q", b)
	}
	f, box, err := makeCgroupIn(p, DefaultCaps)
	if err != nil || f == nil {
		t.Fatal(err)
	}
	f.Close()
	for file, want := range map[string]string{"memory.max": strconv.FormatInt(DefaultCaps.Memory, 10), "pids.max": "256", "memory.swap.max": "0"} {
		if b, _ := os.ReadFile(filepath.Join(box, file)); string(b) != want {
			t.Errorf("%s: %q, want %q", file, b, want)
		}
	}
	if f, _, _ := makeCgroupIn(p, Caps{}); f != nil {
		t.Errorf("a box with no caps got a cgroup")
	}
}

// As root, where its own cgroup is not delegated, arena makes one of its
// own at the hierarchy's root, the controllers enabled down to it, and
// removes one a killed arena left.
func TestCgroupAsRoot(t *testing.T) {
	dir := t.TempDir()
	cg := filepath.Join(dir, "proc-cgroup")
	os.WriteFile(cg, []byte("0::/system.slice/arena.service\n"), 0o644)
	mi := filepath.Join(dir, "mountinfo")
	mount := filepath.Join(dir, "fs")
	os.WriteFile(mi, []byte("30 25 0:26 / "+mount+" rw,nosuid - cgroup2 cgroup2 rw\n"), 0o644)
	own := filepath.Join(mount, "system.slice", "arena.service")
	os.MkdirAll(own, 0o755)
	os.WriteFile(filepath.Join(own, "cgroup.controllers"), []byte("memory pids"), 0o644)
	os.WriteFile(filepath.Join(own, "cgroup.procs"), []byte("42\n99\n"), 0o644)
	os.WriteFile(filepath.Join(mount, "cgroup.controllers"), []byte("cpu memory pids"), 0o644)
	stale := filepath.Join(mount, "arena-999999999") // no such process
	os.MkdirAll(stale, 0o755)
	if p := findCgroup(cg, mi, 42, false); p.dir != "" || !strings.Contains(p.why, "holds other processes") {
		t.Errorf("not root: %+v", p)
	}
	p := findCgroup(cg, mi, 42, true)
	if want := filepath.Join(mount, "arena-42"); p.dir != want {
		t.Fatalf("as root: %+v, want %s", p, want)
	}
	for _, d := range []string{mount, p.dir} {
		if b, _ := os.ReadFile(filepath.Join(d, "cgroup.subtree_control")); string(b) != "+memory +pids" {
			t.Errorf("%s: the controllers were not enabled for its children: %q", d, b)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a killed arena's cgroup was left")
	}
	os.WriteFile(filepath.Join(mount, "cgroup.controllers"), []byte("cpu pids"), 0o644)
	if p := findCgroup(cg, mi, 43, true); p.dir != "" || !strings.Contains(p.why, "nor at the hierarchy's root: the hierarchy has no memory controller") {
		t.Errorf("as root, no memory controller: %+v", p)
	}
}
