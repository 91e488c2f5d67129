//go:build linux

package box

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// targets are what a hostile entrant tries to reach, as one JSON
// argument.
type targets struct {
	Secret      string `json:"secret"`
	SecretValue string `json:"secret_value"`
	Journal     string `json:"journal"`
	RivalFile   string `json:"rival_file"`
	RivalBox    string `json:"rival_box"`
	HostTmp     string `json:"host_tmp"`
	Victim      string `json:"victim"`
	VictimDir   string `json:"victim_dir"`
	OwnFile     string `json:"-"` // the attacker's own: its first word
	Sentinel    int    `json:"sentinel"`
	TCPPort     int    `json:"tcp_port"`
	UDPPort     int    `json:"udp_port"`
	UnixSocket  string `json:"unix_socket"`
	// ShmKey names a SysV shared memory segment of the machine's, which
	// an entrant could share with another or leave behind.
	ShmKey int `json:"shm_key"`
	// ShmOwn: the box has an IPC namespace of its own, where a segment
	// it makes is its own and ends with it.
	ShmOwn bool `json:"shm_own"`
}

// goAttack is a hostile entrant written in Go and built for the purpose
// (this test binary, started with BOX_ATTACK=1): the attacks of
// testdata/attack.py, made as system calls directly, not through any API
// of arena's. It prints the same lines.
func goAttack(arg string) {
	var t targets
	if err := json.Unmarshal([]byte(arg), &t); err != nil {
		fmt.Println("bad targets:", err)
		return
	}
	t.OwnFile = os.Args[0] // its program, as it was given it
	report := func(name string, f func() (string, error)) {
		got, err := f()
		if err != nil {
			fmt.Printf("%s: refused %v\n", name, err)
			return
		}
		fmt.Printf("%s: reached %s\n", name, got)
	}
	read := func(p string) func() (string, error) {
		return func() (string, error) {
			b, err := os.ReadFile(p)
			return fmt.Sprintf("%.40q", b), err
		}
	}
	write := func(p string) func() (string, error) {
		return func() (string, error) {
			fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND, 0o644)
			if err != nil {
				return "", err
			}
			defer unix.Close(fd)
			_, err = unix.Write(fd, []byte("pwned\n"))
			return "written", err
		}
	}
	done := func(err error) (string, error) { return "done", err }
	v := t.Victim
	report("read the operator's secret file", read(t.Secret))
	report("read the tournament's journal", read(t.Journal))
	report("read another entrant's file", read(t.RivalFile))
	report("list the machine's /tmp", func() (string, error) {
		ents, err := os.ReadDir(t.HostTmp)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "arena-box-") {
				return e.Name(), nil
			}
		}
		if err == nil {
			err = fmt.Errorf("no box seen")
		}
		return "", err
	})
	report("write into another entrant's box", write(t.RivalBox+"/pwned.txt"))
	report("write a file outside", write(v))
	report("create a file outside", write(t.VictimDir+"/created.txt"))
	report("chmod a file outside", func() (string, error) { return done(unix.Fchmodat(unix.AT_FDCWD, v, 0o4777, 0)) })
	report("chown a file outside", func() (string, error) { return done(unix.Fchownat(unix.AT_FDCWD, v, os.Getuid(), os.Getgid(), 0)) })
	report("utimes a file outside", func() (string, error) {
		return done(unix.UtimesNanoAt(unix.AT_FDCWD, v, []unix.Timespec{{}, {}}, 0))
	})
	report("truncate a file outside", func() (string, error) { return done(unix.Truncate(v, 0)) })
	report("rename a file outside", func() (string, error) { return done(unix.Renameat(unix.AT_FDCWD, v, unix.AT_FDCWD, v+".moved")) })
	report("link a file outside", func() (string, error) {
		return done(unix.Linkat(unix.AT_FDCWD, v, unix.AT_FDCWD, t.VictimDir+"/hardlink", 0))
	})
	report("symlink outside", func() (string, error) {
		return done(unix.Symlinkat("/etc/passwd", unix.AT_FDCWD, t.VictimDir+"/symlink"))
	})
	report("mkdir outside", func() (string, error) { return done(unix.Mkdirat(unix.AT_FDCWD, t.VictimDir+"/dir", 0o777)) })
	report("unlink a file outside", func() (string, error) { return done(unix.Unlinkat(unix.AT_FDCWD, v, 0)) })
	report("chmod its own program", func() (string, error) { return done(unix.Fchmodat(unix.AT_FDCWD, t.OwnFile, 0o777, 0)) })
	report("write its own program", write(t.OwnFile))
	report("write the system", write("/usr/arena-pwned"))
	report("find the operator's secret in its environment", func() (string, error) {
		for _, kv := range os.Environ() {
			if strings.Contains(kv, t.SecretValue) {
				return kv, nil
			}
		}
		return "", fmt.Errorf("no secret in the environment")
	})
	report("see a process outside its box", func() (string, error) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(t.Sentinel)); err != nil {
			return "", err
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(t.Sentinel) + "/cmdline")
		return fmt.Sprintf("%q", b), err
	})
	report("signal a process outside its box", func() (string, error) { return done(unix.Kill(t.Sentinel, 0)) })
	report("ptrace a process outside its box", func() (string, error) { return done(unix.PtraceAttach(t.Sentinel)) })
	report("connect to the machine's loopback", func() (string, error) {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(t.TCPPort))
		if err != nil {
			return "", err
		}
		c.Write([]byte("pwned\n"))
		c.Close()
		return "connected", nil
	})
	report("send UDP to the machine's loopback", func() (string, error) {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
		if err != nil {
			return "", err
		}
		defer unix.Close(fd)
		return done(unix.Sendto(fd, []byte("pwned"), 0, &unix.SockaddrInet4{Port: t.UDPPort, Addr: [4]byte{127, 0, 0, 1}}))
	})
	report("connect to a Unix socket outside", func() (string, error) {
		c, err := net.Dial("unix", t.UnixSocket)
		if err != nil {
			return "", err
		}
		c.Write([]byte("pwned\n"))
		c.Close()
		return "connected", nil
	})
	report("make an AF_VSOCK socket", func() (string, error) {
		fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
		if err != nil {
			return "", err
		}
		unix.Close(fd)
		return "made", nil
	})
	report("make a netlink socket", func() (string, error) {
		fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE)
		if err != nil {
			return "", err
		}
		unix.Close(fd)
		return "made", nil
	})
	report("attach the machine's SysV segment", func() (string, error) {
		id, err := unix.SysvShmGet(t.ShmKey, 0, 0)
		return fmt.Sprintf("segment %d", id), err
	})
	report("make a SysV segment", func() (string, error) {
		id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 1<<20, unix.IPC_CREAT|0o600)
		if err == nil {
			unix.SysvShmCtl(id, unix.IPC_RMID, nil)
		}
		if err == nil && t.ShmOwn {
			return "", fmt.Errorf("made in its own IPC namespace")
		}
		return fmt.Sprintf("segment %d", id), err
	})
	report("make a user namespace", func() (string, error) { return done(unix.Unshare(unix.CLONE_NEWUSER)) })
	report("unmount its /proc", func() (string, error) { return done(unix.Unmount("/proc", unix.MNT_DETACH)) })
	report("mount a file system", func() (string, error) { return done(unix.Mount("none", "/tmp", "tmpfs", 0, "")) })
	report("hold a capability", func() (string, error) {
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		if err := unix.Capget(&hdr, &data[0]); err != nil {
			return "", err
		}
		if data[0].Effective|data[1].Effective != 0 {
			return fmt.Sprintf("%x %x", data[0].Effective, data[1].Effective), nil
		}
		return "", fmt.Errorf("no capability")
	})
	report("become root", func() (string, error) {
		_, _, errno := unix.RawSyscall(unix.SYS_SETRESUID, 0, 0, 0)
		if errno != 0 {
			return "", errno
		}
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		unix.Capget(&hdr, &data[0])
		if data[0].Effective == 0 {
			return "", fmt.Errorf("uid 0 without capabilities")
		}
		return "root with capabilities", nil
	})
	report("own: write its working directory", write("own.txt"))
	report("own: write its /tmp", write(os.Getenv("TMPDIR")+"/own.txt"))
	report("own: read its program", read(t.OwnFile))
	fmt.Println("done")
}
