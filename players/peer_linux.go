//go:build linux

package players

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/internal/untrusted"
)

// peerOwner finds the process at the other end of a loopback connection
// that arena accepted, and says whether it is root or one of root's
// descendants. A tcp:cmd: seat is handed to the program arena started
// through a port on 127.0.0.1, which every process on the machine can
// reach: in a class tournament the other entrants run beside it and could
// connect first. The students' programs are played unchanged, so they
// cannot be handed a secret to send; the kernel knows instead who holds
// the other end of the socket: its entry in /proc/net/tcp gives the
// socket's inode, and the fd tables of root's process tree show whether
// one of them holds it. who names the peer for the log: its pid and
// command line, when it can be found.
func peerOwner(c net.Conn, root int) (ours bool, who string) {
	local, remote, who, ok := tcpEnds(c)
	if !ok {
		return false, who
	}
	inode, ok := socketInode(remote, local)
	if !ok {
		return false, who + " (not found in /proc/net/tcp)"
	}
	tree := descendants(root)
	for pid := range tree {
		if holdsSocket(pid, inode) {
			return true, ""
		}
	}
	if pid := socketHolder(inode); pid > 0 {
		who += fmt.Sprintf(" (pid %d: %s)", pid, commandLine(pid))
	}
	return false, who
}

// socketInode returns the inode of the TCP socket whose local address is
// local and remote address remote.
func socketInode(local, remote *net.TCPAddr) (string, bool) {
	fields, ok := socketRow(local, remote)
	if !ok {
		return "", false
	}
	return fields[9], true
}

// socketRow returns the fields of the row of /proc/net/tcp or tcp6 for
// the TCP socket whose local address is local and remote address remote
// (a dual-stack client's socket shows in tcp6 with IPv4-mapped
// addresses).
func socketRow(local, remote *net.TCPAddr) ([]string, bool) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 {
				continue
			}
			if sameAddr(fields[1], local) && sameAddr(fields[2], remote) {
				f.Close()
				return fields, true
			}
		}
		f.Close()
	}
	return nil, false
}

// peerUnread is how many bytes arena sent on c that the process at its
// other end has not read yet: its socket's receive queue, when that
// socket is on this machine (in /proc/net/tcp); ok is false when it is
// not found there. The pacer starts a quiet once its message is read,
// not once it is written: a client on a busy machine may read the game
// long after arena wrote it.
func peerUnread(c net.Conn) (n int, ok bool) {
	local, remote, _, ok := tcpEnds(c)
	if !ok {
		return 0, false
	}
	fields, ok := socketRow(remote, local)
	if !ok {
		return 0, false
	}
	_, rx, ok := strings.Cut(fields[4], ":") // tx_queue:rx_queue
	if !ok {
		return 0, false
	}
	q, err := strconv.ParseUint(rx, 16, 32)
	if err != nil {
		return 0, false
	}
	return int(q), true
}

// sameAddr reports whether a /proc/net/tcp address (hex IP in the host's
// byte order, 32-bit word by word, a colon, hex port) is a.
func sameAddr(field string, a *net.TCPAddr) bool {
	host, port, ok := strings.Cut(field, ":")
	if !ok {
		return false
	}
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil || int(p) != a.Port {
		return false
	}
	raw, err := hex.DecodeString(host)
	if err != nil || len(raw)%4 != 0 {
		return false
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 { // each word is printed as a number in the host's order
		for i := 0; i < len(raw); i += 4 {
			raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
		}
	}
	return net.IP(raw).Equal(a.IP)
}

// descendants returns root and every process descended from it, from the
// parent pids in /proc/*/stat.
func descendants(root int) map[int]bool {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid := parentOf(pid); ppid > 0 {
			children[ppid] = append(children[ppid], pid)
		}
	}
	tree := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !tree[c] {
				tree[c] = true
				queue = append(queue, c)
			}
		}
	}
	return tree
}

// parentOf reads a process's parent pid: the second field after the
// command name, which may itself hold spaces and parentheses.
func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// holdsSocket reports whether pid has the socket of that inode open.
func holdsSocket(pid int, inode string) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	want := "socket:[" + inode + "]"
	for _, fd := range fds {
		if link, err := os.Readlink(dir + "/" + fd.Name()); err == nil && link == want {
			return true
		}
	}
	return false
}

// socketHolder finds any process that holds the socket, for the log.
func socketHolder(inode string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && holdsSocket(pid, inode) {
			return pid
		}
	}
	return 0
}

// commandLine is a process's command line, quoted for a terminal.
func commandLine(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return "?"
	}
	return strconv.Quote(untrusted.Clip(bytes.TrimRight(bytes.ReplaceAll(b, []byte{0}, []byte{' '}), " ")))
}
