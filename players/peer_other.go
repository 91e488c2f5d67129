//go:build !linux && !windows && !js

package players

import "net"

// peerOwner cannot tell who holds the other end of a connection where
// there is no /proc: the first client to connect takes a tcp:cmd: seat,
// as on the course servers. Run class tournaments on Linux.
func peerOwner(c net.Conn, root int) (ours bool, who string) { return true, "" }

// peerUnread cannot see the other end's receive queue without /proc: the
// pacer's quiets start when a message is written.
func peerUnread(net.Conn) (int, bool) { return 0, false }
