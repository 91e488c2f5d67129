package players

import "io"

// init has nothing to note: a Windows pipe takes no poller.
func (p *outPipe) init() {}

// copy hands on what comes until the pipe ends.
func (p *outPipe) copy() { io.Copy(p.to, p.r) }

// drain does nothing on Windows: its pipes cannot be read without waiting
// through the poller, so a line can come a move late (outPipe).
func (p *outPipe) drain() {}
