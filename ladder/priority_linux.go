package ladder

import (
	"syscall"
	"unsafe"
)

// lowerThreadPriority makes the calling thread the last the scheduler
// runs. On Linux it takes the SCHED_IDLE policy (sched(7): it runs only
// when nothing else wants the core, and any thread that wakes preempts
// it at once), falling back to a nice value of 19 (setpriority(2) with
// PRIO_PROCESS and the thread's id: a nice value is the thread's own),
// which still takes a share of a busy core.
func lowerThreadPriority() error {
	tid := syscall.Gettid()
	const schedIdle = 5 // SCHED_IDLE, <linux/sched.h>
	var param struct{ priority int32 }
	if _, _, errno := syscall.Syscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param))); errno == 0 {
		return nil
	}
	return syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
}
