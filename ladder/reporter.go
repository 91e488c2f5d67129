package ladder

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// The ladder's reports (and new versions' suites) are made in a process
// of their own, at the lowest priority the system gives: made in the
// server's process, they slowed its games by a tenth even on a thread of
// the lowest priority, for the Go runtime's garbage collector works for
// the whole process at its priority (BenchmarkReportsBesideGames: 0.88
// of the games' rate with the reporter in the server, 1.00 with GC off).
// A process of its own collects its own garbage at its own priority.

// ReportIn runs the reporter, the child process start makes (arena
// ladder report, which calls ServeReports), until ctx ends: started from
// a thread at the lowest priority, whose policy and nice value the child
// and every thread it makes inherit; started again if it dies, after a
// pause. The child ends when its standard input closes: with ctx, or with
// this process.
func ReportIn(ctx context.Context, start func() *exec.Cmd, log func(string)) {
	runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
	if err := lowerThreadPriority(); err != nil {
		log("reports: the reporter keeps the server's priority: " + err.Error())
	}
	for ctx.Err() == nil {
		cmd := start()
		in, err := cmd.StdinPipe()
		if err == nil {
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			err = cmd.Start()
		}
		if err != nil {
			log(fmt.Sprintf("reports: the reporter did not start: %v", err))
			sleep(ctx, time.Minute, nil)
			continue
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-ctx.Done():
			in.Close()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
			}
			return
		case err := <-done:
			log(fmt.Sprintf("reports: the reporter stopped (%v); it starts again in a minute", err))
			sleep(ctx, time.Minute, nil)
		}
	}
}

// ServeReports is the reporter's process: it makes the store's reports
// and suites (Report, with p's way of playing programs) until its
// standard input closes.
func ServeReports(st *Store, p Player, stdin io.Reader, log func(string)) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		io.Copy(io.Discard, stdin)
		cancel()
	}()
	st.DrillWith(p)
	st.Report(ctx, 2*time.Second, nil, log)
}

// Dir is the ladder's directory.
func (s *Store) Dir() string { return s.dir }
