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

// threadEnvs are the numerical libraries' thread counts a capped program
// gets unless its environment sets them: one, as it gets one core in a
// tournament. NumPy's OpenBLAS otherwise starts a thread per core, each
// with tens of MB of buffers, and on a 64-core node would not even start
// under a 2 GB cap.
var threadEnvs = []string{"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}

func init() {
	v, ok := os.LookupEnv(capsEnv)
	if !ok {
		return
	}
	os.Unsetenv(capsEnv)
	if err := becomeCapped(v, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "arena: cannot start the program under its caps: %v\n", err)
		os.Exit(127)
	}
}

// becomeCapped sets the caps written in v ("memory procs cpu_seconds")
// and executes args.
func becomeCapped(v string, args []string) error {
	f := strings.Fields(v)
	if len(f) != 3 || len(args) == 0 {
		return fmt.Errorf("%s=%q, %d arguments", capsEnv, v, len(args))
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
	return syscall.Exec(args[0], args, os.Environ())
}

// rlimitNPROC is RLIMIT_NPROC, which package syscall does not name.
const rlimitNPROC = 6

// capped makes cmd start through the launcher under c, when c sets any
// cap and arena's own binary can be found.
func capped(cmd *exec.Cmd, c Caps) {
	if c == (Caps{}) {
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
	cmd.Env = append(env, fmt.Sprintf("%s=%d %d %d", capsEnv, c.Memory, c.Procs, int64(c.CPU.Seconds())))
	cmd.Args = append([]string{self}, append([]string{cmd.Path}, cmd.Args[1:]...)...)
	cmd.Path = self
}
