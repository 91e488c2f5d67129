//go:build linux

package box

import (
	"os"
	"sync"
)

var containment = sync.OnceValue(func() Containment {
	c := Containment{Landlock: landlockABI(), Seccomp: seccompOK()}
	c.Cgroup, c.NoCgroup = cgroupSummary()
	why := probeSeparate()
	c.Separate = why == ""
	var weaker []string
	if !c.Separate {
		weaker = append(weaker, "no namespaces ("+why+"): each program runs in a process group, in a directory of its own, with the machine's root: the machine's processes are in its /proc and its files are there, guarded by Landlock and their permissions")
		if os.Getuid() != 0 {
			weaker = append(weaker, "every program runs as arena's own user")
		}
	}
	if c.Landlock == 0 {
		weaker = append(weaker, "no Landlock in this kernel: without namespaces, files are guarded by their permissions alone")
	} else if c.Landlock < 6 {
		weaker = append(weaker, "Landlock before version 6 does not scope signals")
	}
	if !c.Seccomp {
		weaker = append(weaker, "no seccomp: the calls that change mounts and namespaces are not refused")
	}
	c.Weaker = join(weaker)
	return c
})

// Contain says what this machine's kernel gives to keep programs in
// their boxes.
func Contain() Containment { return containment() }

// probeSeparate makes a box in namespaces of its own for /bin/true, and
// says why it cannot ("" when it can): the kernel may refuse user
// namespaces, a container may refuse mounts or a /proc.
func probeSeparate() string {
	if portable() {
		return "the portable path (" + PortableEnv + "=1) uses none"
	}
	b := &Box{spec: Spec{Args: []string{"/bin/true"}}}
	if err := b.makeDirs(os.TempDir()); err != nil {
		return err.Error()
	}
	defer b.removeDirs()
	if err := b.separate(resolved{program: "/bin/true", args: []string{"/bin/true"}}, true); err != nil {
		return err.Error()
	}
	out, err := b.Cmd.CombinedOutput()
	if err != nil {
		return firstLine(string(out), err)
	}
	return ""
}

func join(parts []string) string {
	s := ""
	for _, p := range parts {
		if s != "" {
			s += "; "
		}
		s += p
	}
	return s
}
