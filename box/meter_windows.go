//go:build windows

package box

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the program's tree is its Job Object: the job's basic
// accounting counts the user and kernel time of every process ever in
// it, those that ended included (JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
// in 100-ns units), and its process list names the processes to suspend
// while the other side moves (NtSuspendProcess and NtResumeProcess,
// ntdll's, which suspend and resume every thread of a process).
//
// See: QueryInformationJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION
// and JOBOBJECT_BASIC_PROCESS_ID_LIST in Microsoft's documentation.

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                 int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernel int64
	TotalPageFaultCount, TotalProcesses            uint32
	ActiveProcesses, TotalTerminatedProcesses      uint32
}

// CPU is the CPU time the program's job has used so far.
func (b *Box) CPU() (time.Duration, bool) {
	if b.os.job == 0 {
		return 0, false
	}
	var info basicAccounting
	if err := windows.QueryInformationJobObject(b.os.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, false
	}
	sum := time.Duration(info.TotalUserTime+info.TotalKernelTime) * 100
	b.meterMu.Lock()
	defer b.meterMu.Unlock()
	b.cpuSeen = max(b.cpuSeen, sum)
	return b.cpuSeen, true
}

var (
	ntdll            = windows.NewLazySystemDLL("ntdll.dll")
	ntSuspendProcess = ntdll.NewProc("NtSuspendProcess")
	ntResumeProcess  = ntdll.NewProc("NtResumeProcess")
)

// Pause suspends every process of the program's job, again until a pass
// finds none new (a suspended process starts no other).
func (b *Box) Pause() { b.eachProcess(ntSuspendProcess) }

// Resume resumes what Pause suspended.
func (b *Box) Resume() { b.eachProcess(ntResumeProcess) }

// eachProcess calls an ntdll process call on each process of the job.
func (b *Box) eachProcess(call *windows.LazyProc) {
	if b.os.job == 0 || call.Find() != nil {
		return
	}
	done := map[uint32]bool{}
	for range 64 {
		fresh := false
		for _, pid := range jobProcesses(b.os.job) {
			if done[pid] {
				continue
			}
			done[pid], fresh = true, true
			h, err := windows.OpenProcess(windows.PROCESS_SUSPEND_RESUME, false, pid)
			if err != nil {
				continue
			}
			call.Call(uintptr(h))
			windows.CloseHandle(h)
		}
		if !fresh {
			return
		}
	}
}

// jobProcesses are the ids of the job's processes
// (JOBOBJECT_BASIC_PROCESS_ID_LIST: two DWORDs, then ULONG_PTR ids).
func jobProcesses(job windows.Handle) []uint32 {
	const most = 1024
	head := 8 / unsafe.Sizeof(uintptr(0)) // the two counts: one word on 64-bit, two on 32-bit
	buf := make([]uintptr, head+most)
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&buf[0])), uint32(len(buf))*uint32(unsafe.Sizeof(buf[0])), nil); err != nil {
		return nil
	}
	listed := (*[2]uint32)(unsafe.Pointer(&buf[0]))[1]
	var out []uint32
	for _, id := range buf[head : head+uintptr(min(listed, most))] {
		out = append(out, uint32(id))
	}
	return out
}
