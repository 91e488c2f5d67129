//go:build windows

package box

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows each program arena starts is the first process of a Job
// Object of its own, assigned before its first instruction runs (it is
// created suspended, assigned, then resumed), so that whatever it starts
// is in the job too. The job is made with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
// and only arena holds its handle: when the program's match ends arena
// terminates the job, and when arena ends, however it ends (killed from
// the Task Manager too), Windows closes the handle and ends every process
// in it. The caps are the job's limits: the memory each process may
// commit, the processes the job may hold at once, and each process's
// user-mode CPU time. Its working directory and TEMP are its box's, its
// environment the clean one.
//
// See: CreateJobObjectW, SetInformationJobObject with
// JOBOBJECT_EXTENDED_LIMIT_INFORMATION, AssignProcessToJobObject,
// TerminateJobObject (Microsoft Learn, jobapi2.h); CREATE_SUSPENDED
// (Process Creation Flags); Thread32First/Next over a TH32CS_SNAPTHREAD
// snapshot and ResumeThread to start the suspended process.

// osBox is what Windows' way of boxing keeps of a box: its job.
type osBox struct {
	job        windows.Handle
	token      windows.Token // the program's low token, closed once it started
	sharedSeat bool
}

// jobs are the programs' jobs, by the program's pid.
var jobs sync.Map // int → windows.Handle

// prepare has the program created suspended, in a process group of its
// own (CREATE_NEW_PROCESS_GROUP: a console's Ctrl-C does not reach it),
// in its box's directory with the clean environment; afterStart gives it
// its job and lets it run.
func (b *Box) prepare() error {
	r, err := resolve(b.spec, nil)
	if err != nil {
		return err
	}
	args := r.args
	if b.spec.Seat {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("its seat: %v", err)
		}
		b.seat, b.addr, b.os.sharedSeat = ln, ln.Addr().String(), true
		host, port, _ := net.SplitHostPort(b.addr)
		args = seatWords(args, host, port)
	}
	b.Cmd = &exec.Cmd{Path: r.program, Args: args, Dir: b.Dir,
		Env: Environment(b.Dir, b.tmp(), b.spec.Caps, b.spec.Env)}
	b.Cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
	return b.withLowToken(b.Cmd.SysProcAttr)
}

// afterStart puts the program in a job of its own under the caps, then
// resumes it. A program that cannot be put in a job is ended: it would
// run with no bound and could outlive arena.
func (b *Box) afterStart() error {
	b.os.token.Close()
	pid := b.Cmd.Process.Pid
	job, err := newJob(b.spec.Caps)
	if err == nil {
		err = assign(job, pid)
	}
	if err != nil {
		b.Cmd.Process.Kill()
		return fmt.Errorf("its job object: %v", err)
	}
	b.os.job = job
	jobs.Store(pid, job)
	return resume(pid)
}

func (b *Box) afterFailedStart() {
	b.os.token.Close()
	b.Close()
}

// killTree ends the program's job, and with it everything the program
// started.
func (b *Box) killTree() {
	if b.Cmd == nil || b.Cmd.Process == nil {
		return
	}
	if job, ok := jobs.LoadAndDelete(b.Cmd.Process.Pid); ok {
		windows.TerminateJobObject(job.(windows.Handle), 1)
		windows.CloseHandle(job.(windows.Handle))
		return
	}
	b.Cmd.Process.Kill()
}

// alive reports whether a process runs.
func alive(pid int) bool {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(p)
	var code uint32
	return windows.GetExitCodeProcess(p, &code) == nil && code == 259 // STILL_ACTIVE
}

// Contain says what Windows gives here: a job per program.
func Contain() Containment {
	return Containment{Weaker: "each program runs in a Job Object of its own (its tree and its caps) with a restricted token of low integrity, in a directory of its own that only it may write: it may read what arena's user may, and reach the network"}
}

var _ = os.Getpid
var _ = strconv.Itoa

// newJob makes a job that ends its processes when its last handle
// closes, with the caps as its limits.
func newJob(c Caps) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if c.Memory > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		info.ProcessMemoryLimit = uintptr(c.Memory)
	}
	if c.Procs > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_ACTIVE_PROCESS
		info.BasicLimitInformation.ActiveProcessLimit = uint32(c.Procs)
	}
	if c.CPU > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_TIME
		info.BasicLimitInformation.PerProcessUserTimeLimit = c.CPU.Nanoseconds() / 100 // in 100 ns
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// assign puts the process pid in the job.
func assign(job windows.Handle, pid int) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(p)
	return windows.AssignProcessToJobObject(job, p)
}

// resume resumes the threads of a process created suspended: its main
// thread, the only one it has.
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(t)
		windows.CloseHandle(t)
		if err != nil {
			return err
		}
	}
	return nil
}

// InJob reports whether the process pid is in the job of the program
// whose pid is root.
func InJob(pid, root int) bool {
	job, ok := jobs.Load(root)
	if !ok {
		return pid == root
	}
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(p)
	var in int32
	r, _, _ := procIsProcessInJob.Call(uintptr(p), uintptr(job.(windows.Handle)), uintptr(unsafe.Pointer(&in)))
	return r != 0 && in != 0
}

var procIsProcessInJob = windows.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")

// overMemory: the job's memory limit fails the program's allocations,
// which it reports itself.
func (b *Box) overMemory() string { return "" }
