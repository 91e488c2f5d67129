//go:build linux

package confine

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

func init() {
	text, ok := os.LookupEnv(Env)
	if !ok {
		return
	}
	os.Unsetenv(Env)
	if err := load(text); err != nil {
		// A bot that was to be confined and is not does not run.
		fmt.Fprintln(os.Stderr, "arena: the bot's filter:", err)
		os.Exit(3)
	}
}

// seccomp(2)'s operation and flag, and prctl(2)'s option.
const (
	setModeFilter   = 1
	filterFlagTSync = 1
	prSetNoNewPrivs = 38
)

// load decodes the program and loads it on every thread of the process.
func load(text string) error {
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil || len(data) == 0 || len(data)%8 != 0 || len(data)/8 > 4096 {
		return errors.New("not a filter")
	}
	prog := make([]syscall.SockFilter, len(data)/8)
	for i := range prog {
		b := data[8*i:]
		prog[i] = syscall.SockFilter{Code: binary.LittleEndian.Uint16(b), Jt: b[2], Jf: b[3], K: binary.LittleEndian.Uint32(b[4:])}
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %v", e)
	}
	fprog := syscall.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r, _, e := syscall.RawSyscall(sysSeccomp, setModeFilter, filterFlagTSync, uintptr(unsafe.Pointer(&fprog)))
	if e != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %v", e)
	}
	if r != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): thread %d could not be synchronised", r)
	}
	return nil
}
