//go:build linux

package players

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// capsEnv carries a program's caps to the launcher: arena's own binary,
// started in the program's place, sets them on itself and then becomes
// the program (exec), so that the program runs under its caps from its
// first instruction. Setting them from outside once it runs (prlimit)
// would leave it a moment to fork children that have none.
const capsEnv = "ARENA_PLAYER_CAPS"

// launchEnv tells the launcher what else to do before it becomes the
// program, a comma-separated list: "proc" mounts a /proc of the
// program's own PID namespace over the one it inherited, so that it sees
// no process but its own tree (another entrant's /proc/PID/fd is not
// there to read or write); "confine" gives it Landlock's empty ruleset
// (the interpreter of a go: bot, see confineSelf).
const launchEnv = "ARENA_PLAYER_LAUNCH"

// threadEnvs are the numerical libraries' thread counts a capped program
// gets unless its environment sets them: one, as it gets one core in a
// tournament. NumPy's OpenBLAS otherwise starts a thread per core, each
// with tens of MB of buffers, and on a 64-core node would not even start
// under a 2 GB cap.
var threadEnvs = []string{"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}

func init() {
	caps, capped := os.LookupEnv(capsEnv)
	how, launched := os.LookupEnv(launchEnv)
	if !capped && !launched {
		return
	}
	os.Unsetenv(capsEnv)
	os.Unsetenv(launchEnv)
	if err := become(caps, how, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "arena: cannot start the program: %v\n", err)
		os.Exit(127)
	}
}

// become sets the caps written in caps ("memory procs cpu_seconds"; ""
// for none), does what how asks, and executes args.
func become(caps, how string, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("the launcher has no program to start")
	}
	if caps != "" {
		if err := setCaps(caps); err != nil {
			return err
		}
	}
	steps := strings.Split(how, ",")
	for _, step := range steps {
		switch step {
		case "":
		case "proc":
			if err := ownProc(); err != nil {
				return err
			}
		case "confine":
			if err := confineSelf(args[0]); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s=%q: unknown step %q", launchEnv, how, step)
		}
	}
	return syscall.Exec(args[0], args, os.Environ())
}

// setCaps sets the rlimits of the caps.
func setCaps(v string) error {
	f := strings.Fields(v)
	if len(f) != 3 {
		return fmt.Errorf("%s=%q", capsEnv, v)
	}
	for i, res := range []int{syscall.RLIMIT_DATA, rlimitNPROC, syscall.RLIMIT_CPU} {
		n, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		lim := syscall.Rlimit{Cur: n, Max: n}
		if res == syscall.RLIMIT_CPU {
			lim.Max = n + 5 // SIGXCPU at the cap, SIGKILL if the program ignores it
		}
		if err := syscall.Setrlimit(res, &lim); err != nil {
			return fmt.Errorf("setrlimit: %v", err)
		}
	}
	for _, e := range threadEnvs {
		if _, set := os.LookupEnv(e); !set {
			os.Setenv(e, "1")
		}
	}
	return nil
}

// ownProc mounts the program's own /proc: the launcher runs as the first
// process of a new PID and mount namespace (newGroup), whose mounts it
// first keeps from propagating back to the machine's.
func ownProc() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("a private mount namespace: %v", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("a /proc of its own: %v", err)
	}
	return nil
}

// rlimitNPROC is RLIMIT_NPROC, which package syscall does not name.
const rlimitNPROC = 6

// launchThrough makes cmd start through the launcher, under c and with
// how's steps, when there is anything to do and arena's own binary can
// be found.
func launchThrough(cmd *exec.Cmd, c Caps, how string) {
	if c == (Caps{}) && how == "" {
		return
	}
	self, err := os.Executable()
	if err != nil || cmd.Err != nil {
		return
	}
	// A program that is not there fails to start as it would without the
	// launcher, with the same error, not as the launcher's exit.
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	if _, err := os.Stat(path); err != nil {
		return
	}
	env := cmd.Environ()
	if c != (Caps{}) {
		env = append(env, fmt.Sprintf("%s=%d %d %d", capsEnv, c.Memory, c.Procs, int64(c.CPU.Seconds())))
	}
	if how != "" {
		env = append(env, launchEnv+"="+how)
	}
	cmd.Env = env
	cmd.Args = append([]string{self}, append([]string{cmd.Path}, cmd.Args[1:]...)...)
	cmd.Path = self
}
