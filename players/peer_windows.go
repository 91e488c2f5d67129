//go:build windows

package players

import (
	"encoding/binary"
	"fmt"
	"net"
	"unsafe"

	"github.com/arena-playground/arena/box"
	"golang.org/x/sys/windows"
)

// peerOwner finds the process at the other end of a loopback connection
// that arena accepted, from the system's table of TCP connections with
// their owners (GetExtendedTcpTable, TCP_TABLE_OWNER_PID_CONNECTIONS,
// IPv4 and IPv6), and says whether it is in the job of the program arena
// started (whose pid is root): a tcp:cmd: seat is the program's alone,
// however many entrants run beside it.
func peerOwner(c net.Conn, root int) (ours bool, who string) {
	local, remote, who, ok := tcpEnds(c)
	if !ok {
		return false, who
	}
	pid, ok := connectionOwner(remote.Port, local.Port)
	if !ok {
		return false, who + " (not found in the TCP table)"
	}
	if box.InJob(pid, root) {
		return true, ""
	}
	return false, fmt.Sprintf("%s (pid %d)", who, pid)
}

// connectionOwner is the pid that owns the TCP connection from local port
// from to local port to on this machine.
func connectionOwner(from, to int) (int, bool) {
	for _, af := range []uint32{windows.AF_INET, windows.AF_INET6} {
		rows, size := tcpTable(af)
		if rows == nil {
			continue
		}
		n := binary.LittleEndian.Uint32(rows)
		// MIB_TCPROW_OWNER_PID: state, local address, local port, remote
		// address, remote port, pid (six DWORDs); the IPv6 row holds two
		// 16-byte addresses with their scope ids.
		rowSize, localPort, remotePort, owner := 24, 8, 16, 20
		if af == windows.AF_INET6 {
			rowSize, localPort, remotePort, owner = 56, 20, 44, 52
		}
		for i := 0; i < int(n) && 4+(i+1)*rowSize <= size; i++ {
			row := rows[4+i*rowSize:]
			lp := int(binary.BigEndian.Uint16(row[localPort:])) // network byte order
			rp := int(binary.BigEndian.Uint16(row[remotePort:]))
			if lp == from && rp == to {
				return int(binary.LittleEndian.Uint32(row[owner:])), true
			}
		}
	}
	return 0, false
}

// tcpTable reads the connections of one address family with their owners.
func tcpTable(af uint32) ([]byte, int) {
	const ownerPIDConnections = 4 // TCP_TABLE_OWNER_PID_CONNECTIONS
	size := uint32(64 << 10)
	for range 4 {
		buf := make([]byte, size)
		r, _, _ := procGetExtendedTcpTable.Call(uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size)), 0, uintptr(af), ownerPIDConnections, 0)
		switch windows.Errno(r) {
		case 0:
			return buf, int(size)
		case windows.ERROR_INSUFFICIENT_BUFFER:
			continue // size now holds what it needs
		}
		return nil, 0
	}
	return nil, 0
}

var procGetExtendedTcpTable = windows.NewLazySystemDLL("iphlpapi.dll").NewProc("GetExtendedTcpTable")

// peerUnread cannot see the other end's receive queue on Windows (its TCP
// table has no queues): the pacer's quiets start when a message is
// written.
func peerUnread(net.Conn) (int, bool) { return 0, false }
