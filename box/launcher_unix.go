//go:build unix

package box

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
)

// The launcher: arena's own binary, started with a plan in its
// environment, sets the box up from inside and becomes the program. It
// runs before main (this init runs first in every binary that imports
// the package), and never returns: it executes the program, or exits 127
// saying why the box could not be made.
func init() {
	p, launched, err := readPlan()
	if !launched {
		return
	}
	if err == nil {
		err = become(p)
	}
	fmt.Fprintf(os.Stderr, "arena: cannot make the program's box: %v\n", err)
	os.Exit(127)
}

// become does the plan's steps in order: the caps first (so that nothing
// after runs uncapped), then the root, the seat, the confinement, and
// the program.
func become(p *plan) error {
	// One thread makes the box and executes the program: Landlock's
	// domain, the capabilities and the securebits are a thread's, and the
	// program is made of the thread that executes it.
	runtime.LockOSThread()
	if err := joinCgroups(p.Join); err != nil {
		return err
	}
	if err := setCaps(p.Caps); err != nil {
		return err
	}
	if p.Root != nil {
		if err := enterRoot(p.Root); err != nil {
			return err
		}
	} else if p.Dir != "" {
		if err := os.Chdir(p.Dir); err != nil {
			return err
		}
	}
	if p.Seat > 0 {
		if err := openSeat(p.Seat, p.SeatFD); err != nil {
			return fmt.Errorf("its seat: %v", err)
		}
	}
	if p.Watch {
		return watch(p)
	}
	if err := confine(p); err != nil {
		return err
	}
	if p.Probe {
		os.Exit(0)
	}
	return syscall.Exec(p.Program, p.Args, p.Env)
}

// watch runs the program as the launcher's child, in the launcher's
// process group (arena made the launcher its leader), until it ends, and
// ends the group when arena ends: arena holds the other end of the pipe
// at WatchFD and never writes to it, so a read returns only when arena
// has ended, however (kill -9 included). The launcher has no
// parent-death signal of its own: it must outlive arena to end the
// group. The program has one where the system gives it (Linux), and the
// launcher confines itself first, on the thread that starts the program,
// which inherits the confinement. The launcher then exits as the program
// did, so that arena reads the program's end from the launcher's, once
// it has ended every process the program left.
func watch(p *plan) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(p.WatchFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return fmt.Errorf("the launcher has no pipe from arena at fd %d", p.WatchFD)
	}
	syscall.CloseOnExec(p.WatchFD) // the program does not hold arena's pipe open
	arena := os.NewFile(uintptr(p.WatchFD), "arena")
	ownParentDeath()
	if err := confine(p); err != nil {
		return err
	}
	if p.Probe {
		os.Exit(0)
	}
	cmd := &exec.Cmd{Path: p.Program, Args: p.Args, Env: p.Env}
	if p.ExecFD {
		f, err := os.Open(p.Program)
		if err != nil {
			return err
		}
		cmd.ExtraFiles = []*os.File{f} // 3 in the child
		cmd.Path = "/proc/self/fd/3"
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = childAttr(p.Uid, p.Gid)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		arena.Read(make([]byte, 1)) // returns when arena ends
		endAll(p.Uid, p.Gid)
	}()
	cmd.Wait()
	// What the program left running ends with it, before the launcher
	// does: once the launcher has ended, a process that left the group
	// would be init's, and no one's to end. Off this thread, whose
	// confinement may not read /proc.
	ended := make(chan struct{})
	go func() { endBelow(p.Uid, p.Gid); close(ended) }()
	<-ended
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

// setCaps sets the caps as rlimits, those this system enforces.
func setCaps(c Caps) error {
	limits := []struct {
		res int
		n   uint64
	}{
		{rlimitMemory, uint64(c.Memory)},
		{rlimitNPROC, uint64(c.Procs)},
		{syscall.RLIMIT_CPU, uint64(c.CPU.Seconds())},
		{syscall.RLIMIT_FSIZE, uint64(c.Disk)}, // no file past the disk cap
	}
	for _, l := range limits {
		if l.n == 0 || l.res < 0 {
			continue // no cap asked, or none this system enforces
		}
		var lim syscall.Rlimit
		setLimit(&lim.Cur, l.n)
		setLimit(&lim.Max, l.n)
		if l.res == syscall.RLIMIT_CPU {
			setLimit(&lim.Max, l.n+5) // SIGXCPU at the cap, SIGKILL if the program ignores it
		}
		if err := syscall.Setrlimit(l.res, &lim); err != nil {
			return fmt.Errorf("setrlimit %d: %v", l.res, err)
		}
	}
	return nil
}

// setLimit sets a field of a syscall.Rlimit, unsigned on Linux and
// macOS, signed on FreeBSD.
func setLimit[T int64 | uint64](field *T, n uint64) { *field = T(n) }
