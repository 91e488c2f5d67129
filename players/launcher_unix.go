//go:build unix

package players

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// launchEnv tells the launcher what else to do before it becomes the
// program, a comma-separated list: "proc" mounts a /proc of the
// program's own PID namespace over the one it inherited, so that it sees
// no process but its own tree (another entrant's /proc/PID/fd is not
// there to read or write); "confine" gives it Landlock's empty ruleset
// (the interpreter of a go: bot, see confineSelf); both on Linux.
// "watch", where there is no parent-death signal (macOS, the BSDs, and
// Linux's portable path), keeps the launcher as the program's parent,
// ending the program's process group when arena ends (see watch).
const launchEnv = "ARENA_PLAYER_LAUNCH"

// watchFD is where the launcher of the "watch" step finds the end of a
// pipe whose other end arena holds and never writes: when arena ends,
// however it ends, the kernel closes that end, and the launcher ends the
// program's process group (see watch).
const watchFD = 3

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
	for _, step := range strings.Split(how, ",") {
		var err error
		switch step {
		case "":
		case "proc":
			err = ownProc()
		case "confine":
			err = confineSelf(args[0])
		case "watch":
			return watch(args)
		default:
			err = fmt.Errorf("%s=%q: unknown step %q", launchEnv, how, step)
		}
		if err != nil {
			return err
		}
	}
	return syscall.Exec(args[0], args, os.Environ())
}

// watch runs the program as the launcher's child, in the launcher's
// process group (arena made the launcher its leader), until it ends,
// and ends the group when arena ends: arena holds the other end of the
// pipe at watchFD and never writes to it, so a read returns only when
// arena has ended, however (kill -9 included). The launcher then exits
// as the program did, so that arena reads the program's end from the
// launcher's.
func watch(args []string) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(watchFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return fmt.Errorf("the launcher has no pipe from arena at fd %d", watchFD)
	}
	syscall.CloseOnExec(watchFD) // the program does not hold arena's pipe open
	arena := os.NewFile(watchFD, "arena")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		arena.Read(make([]byte, 1))      // returns when arena ends
		syscall.Kill(0, syscall.SIGKILL) // the group: the program, what it started, and this launcher
	}()
	cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		// End by the same signal where Go's runtime lets it end the
		// process; by SIGKILL where the runtime would catch it and go on
		// (SIGXCPU, SIGSEGV sent by the kernel to the child...). arena
		// names a cap from the CPU time, which includes the program's.
		sig := ws.Signal()
		switch sig {
		case syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGABRT:
			signal.Reset(sig)
		default:
			sig = syscall.SIGKILL
		}
		syscall.Kill(os.Getpid(), sig)
		select {}
	}
	os.Exit(cmd.ProcessState.ExitCode())
	return nil
}

// setCaps sets the rlimits of the caps.
func setCaps(v string) error {
	f := strings.Fields(v)
	if len(f) != 3 {
		return fmt.Errorf("%s=%q", capsEnv, v)
	}
	for i, res := range []int{rlimitMemory, rlimitNPROC, syscall.RLIMIT_CPU} {
		n, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return err
		}
		if n == 0 || res < 0 {
			continue // no cap asked, or none this system enforces
		}
		var lim syscall.Rlimit
		setLimit(&lim.Cur, n)
		setLimit(&lim.Max, n)
		if res == syscall.RLIMIT_CPU {
			setLimit(&lim.Max, n+5) // SIGXCPU at the cap, SIGKILL if the program ignores it
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

// launchThrough makes cmd start through the launcher, under c and with
// how's steps, when there is anything to do and arena's own binary can
// be found, and reports whether it does.
func launchThrough(cmd *exec.Cmd, c Caps, how string) bool {
	if c == (Caps{}) && how == "" {
		return false
	}
	self, err := os.Executable()
	if err != nil || cmd.Err != nil {
		return false
	}
	// A program that is not there fails to start as it would without the
	// launcher, with the same error, not as the launcher's exit.
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	if _, err := os.Stat(path); err != nil {
		return false
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
	return true
}

// setLimit sets a field of a syscall.Rlimit, unsigned on Linux and
// macOS, signed on FreeBSD.
func setLimit[T int64 | uint64](field *T, n uint64) { *field = T(n) }
