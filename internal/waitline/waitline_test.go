package waitline

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a buffer the line's ticking goroutine and the test may
// both touch.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestAWaitSaysWhatAndHowLong: in a log (not a terminal) the wait is a
// line when it starts and a line when it ends, with what came of it and
// its time; nothing rewrites a line there.
func TestAWaitSaysWhatAndHowLong(t *testing.T) {
	var out lockedBuffer
	l := Start(&out, "arena: compiling go:bot.go with go1.26.8")
	l.Done("compiled")
	got := out.b.String()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2 || lines[0] != "arena: compiling go:bot.go with go1.26.8…" ||
		!strings.HasPrefix(lines[1], "arena: compiling go:bot.go with go1.26.8: compiled in ") || !strings.HasSuffix(lines[1], " s") || strings.Contains(got, "\r") {
		t.Errorf("the wait told as %q", got)
	}
}
