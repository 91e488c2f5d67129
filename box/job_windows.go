//go:build windows

package players

import (
	"os/exec"
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
// user-mode CPU time.
//
// See: CreateJobObjectW, SetInformationJobObject with
// JOBOBJECT_EXTENDED_LIMIT_INFORMATION, AssignProcessToJobObject,
// TerminateJobObject (Microsoft Learn, jobapi2.h); CREATE_SUSPENDED
// (Process Creation Flags); Thread32First/Next over a TH32CS_SNAPTHREAD
// snapshot and ResumeThread to start the suspended process.

// jobs are the programs' jobs, by the program's pid.
var jobs sync.Map // int → windows.Handle

// newGroup has the program created suspended, in a process group of its
// own (CREATE_NEW_PROCESS_GROUP: a console's Ctrl-C does not reach it);
// started gives it its job and lets it run.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
}

// started puts the program in a job of its own under the caps, then
// resumes it. A program that cannot be put in a job is ended: it would
// run with no bound and could outlive arena.
func started(cmd *exec.Cmd) {
	pid := cmd.Process.Pid
	job, err := newJob(ProgramCaps)
	if err == nil {
		err = assign(job, pid)
	}
	if err != nil {
		cmd.Process.Kill()
		return
	}
	jobs.Store(pid, job)
	if err := resume(pid); err != nil {
		killGroup(cmd)
	}
}

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

// killGroup ends the program's job, and with it everything the program
// started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if job, ok := jobs.LoadAndDelete(cmd.Process.Pid); ok {
		windows.TerminateJobObject(job.(windows.Handle), 1)
		windows.CloseHandle(job.(windows.Handle))
		return
	}
	cmd.Process.Kill()
}

// inJob reports whether the process pid is in the job of the program
// whose pid is root.
func inJob(pid, root int) bool {
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
