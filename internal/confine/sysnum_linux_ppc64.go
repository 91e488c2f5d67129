package confine

// sysSeccomp is seccomp(2)'s number on ppc64, which package syscall's table
// for it lacks (it predates the call).
const sysSeccomp = 358
