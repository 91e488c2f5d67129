//go:build !js

package box

import (
	"encoding/json"
	"fmt"
	"os"
)

// planEnv carries a box's plan from arena to its launcher: arena's own
// binary, started in the program's place, finds it in its environment
// before main runs (launcher.go), sets the box up from inside, and
// executes the program with the plan's environment alone.
const planEnv = "ARENA_BOX_PLAN"

// plan is what the launcher does, in order. Paths are as the launcher
// sees them before it changes root.
type plan struct {
	// Program is the program's path, resolved by arena; Args its words
	// (Args[0] as given).
	Program string   `json:"program"`
	Args    []string `json:"args"`
	// Env is the program's whole environment.
	Env []string `json:"env"`
	// Caps are set as rlimits before anything else.
	Caps Caps `json:"caps"`
	// Join are cgroup v1 folders the launcher moves itself into first
	// (Linux, as root, where no cgroup v2 is delegated).
	Join []string `json:"join,omitempty"`
	// Root, when set, builds a root of the program's own and changes to
	// it (Linux, in the box's namespaces); Dir is the working directory
	// otherwise.
	Root *rootPlan `json:"root,omitempty"`
	Dir  string    `json:"dir"`
	// Read are the paths the program may read and execute; Write those it
	// may also write, beneath; as seen once the root is the program's.
	Read  []string `json:"read"`
	Write []string `json:"write"`
	// Seat is the TCP port the launcher listens on, on the loopback of the
	// box's network namespace, handing the listener to arena over SeatFD;
	// Connect the port the program may connect to (Landlock).
	Seat    int `json:"seat,omitempty"`
	SeatFD  int `json:"seat_fd,omitempty"`
	Connect int `json:"connect,omitempty"`
	// AliveFD, in namespaces of its own, is the read end of a pipe arena
	// holds open and never writes: the launcher, whose parent-death signal
	// a change of credentials clears, sets it again and then checks that
	// arena has not ended meanwhile (the pipe's end would be closed).
	AliveFD int `json:"alive_fd,omitempty"`
	// ExecFD has the watching launcher open the program's file and execute
	// the program through that descriptor: its
	// uid may not reach its folder (arena's own binary in a folder only
	// root may read, as a go: bot's interpreter).
	ExecFD bool `json:"exec_fd,omitempty"`
	// Watch: the launcher stays the program's parent and ends its group
	// when arena ends (where no PID namespace ends it), reading WatchFD.
	Watch   bool `json:"watch,omitempty"`
	WatchFD int  `json:"watch_fd,omitempty"`
	// Uid and Gid, when not 0, are what the program runs as (arena as
	// root, with no user namespace).
	Uid int `json:"uid,omitempty"`
	Gid int `json:"gid,omitempty"`
	// Shared: the program has no mount or network namespace of its own,
	// so the seccomp filter refuses every socket but TCP's (Landlock rules
	// TCP's ports alone) and, where it runs as arena's own uid, chmod,
	// chown and utimes everywhere (no read-only mount refuses them outside
	// the box, and no permission: the files are its uid's).
	Shared bool `json:"shared,omitempty"`
	// Uncounted: no cgroup counts the program's memory whole (RLIMIT_DATA
	// counts its private data alone), so the seccomp filter refuses the
	// memory RLIMIT_DATA does not see: shared anonymous mappings and
	// memfd.
	Uncounted bool `json:"uncounted,omitempty"`
	// Probe ends the launcher once the box is made, with exit status 0,
	// instead of executing the program: how arena learns what the kernel
	// gives.
	Probe bool `json:"probe,omitempty"`
}

// rootPlan is the root the launcher builds: Mount is a directory it
// mounts a small tmpfs on and fills; Box and Tmp are the box's own
// directories, mounted at /box and /tmp.
type rootPlan struct {
	Mount string `json:"mount"`
	Box   string `json:"box"`
	Tmp   string `json:"tmp"`
	// System are the machine's directories bound read-only (/usr, /etc,
	// ...), Files the program's own, at the same paths.
	System []string `json:"system"`
	Files  []bind   `json:"files"`
	// Uid, when not 0, is the uid (and gid) of the box's user namespace
	// the program runs as: arena as root maps its own root there for the
	// launcher, which must read what only root may to build the box, and
	// a uid of the program's own as Uid.
	Uid int `json:"uid,omitempty"`
	// Disk and FileCap, when Disk is set, make /tmp a tmpfs of that many
	// bytes and files, and /box too where Scratch says the box made it
	// (a folder the caller made, with the course's files in it, is bound
	// there, and arena watches it).
	Disk    int64 `json:"disk,omitempty"`
	FileCap int   `json:"file_cap,omitempty"`
	Scratch bool  `json:"scratch,omitempty"`
}

// bind is a file or folder bound into a box: From on the machine (a
// copy in the box's own directory, when the program's uid could not read
// the original) at To.
type bind struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (p *plan) encode() string {
	b, err := json.Marshal(p)
	if err != nil {
		panic(err) // a plan is made of strings and numbers
	}
	return planEnv + "=" + string(b)
}

// readPlan takes the plan from the environment, if there is one.
func readPlan() (*plan, bool, error) {
	v, ok := os.LookupEnv(planEnv)
	if !ok {
		return nil, false, nil
	}
	os.Unsetenv(planEnv)
	var p plan
	if err := json.Unmarshal([]byte(v), &p); err != nil {
		return nil, true, fmt.Errorf("%s: %v", planEnv, err)
	}
	if p.Program == "" || len(p.Args) == 0 {
		return nil, true, fmt.Errorf("%s: no program", planEnv)
	}
	return &p, true, nil
}
