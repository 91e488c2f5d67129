//go:build linux && !amd64 && !386 && !arm && !ppc64 && !ppc64le && !mips && !mipsle

package confine

import "syscall"

// sysSeccomp is seccomp(2)'s number; package syscall's table for this
// architecture has it.
const sysSeccomp = syscall.SYS_SECCOMP
