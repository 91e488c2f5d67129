//go:build !js

package players

import "net"

// tcpEnds are a connection's two TCP addresses, and how the log names its
// peer ("a client from 127.0.0.1:40212"); false for a peer not on TCP.
func tcpEnds(c net.Conn) (local, remote *net.TCPAddr, who string, ok bool) {
	local, lok := c.LocalAddr().(*net.TCPAddr)
	remote, rok := c.RemoteAddr().(*net.TCPAddr)
	if !lok || !rok {
		return nil, nil, "a peer that is not on TCP", false
	}
	return local, remote, "a client from " + remote.String(), true
}
