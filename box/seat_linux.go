//go:build linux

package box

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// A program's seat is a TCP port on the loopback of its box's own
// network namespace, where no other process of the machine can connect
// (an entrant cannot take a rival's seat, nor reach any network). The
// launcher, inside the namespace, brings its loopback up, listens on the
// seat, and hands the listener to arena over a Unix socket (SCM_RIGHTS):
// arena accepts the program's connection on a socket of the box's
// namespace, as a course server accepted a student's client.
//
// See: network_namespaces(7), netdevice(7) (SIOCSIFFLAGS), unix(7)
// (SCM_RIGHTS).

// seatPort is the seat's port in every box: each box has its own
// loopback, so one port serves them all.
const seatPort = 9000

// openSeat brings the namespace's loopback up, listens on port, and
// sends the listener over the socket at fd.
func openSeat(port, fd int) error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	err = unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr)
	unix.Close(s)
	if err != nil {
		return fmt.Errorf("its loopback: %v", err)
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(ln)
	unix.SetsockoptInt(ln, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	if err := unix.Bind(ln, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return err
	}
	if err := unix.Listen(ln, 4); err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Sendmsg(fd, []byte{1}, unix.UnixRights(ln), nil, 0)
}

// receiveSeat takes the listener the launcher sends on c, waiting at most
// wait: a launcher that failed closes its end.
func receiveSeat(c *net.UnixConn, wait time.Duration) (net.Listener, error) {
	c.SetReadDeadline(time.Now().Add(wait))
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, err
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("the launcher sent no listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, errors.New("the launcher sent no listener")
	}
	f := os.NewFile(uintptr(fds[0]), "seat")
	defer f.Close()
	return net.FileListener(f)
}
