package ladder

import "syscall"

// lowerThreadPriority makes the calling thread the last the scheduler
// runs: on Linux a thread's nice value is its own (setpriority(2) with
// PRIO_PROCESS and the thread's id), 19 the lowest priority.
func lowerThreadPriority() error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
