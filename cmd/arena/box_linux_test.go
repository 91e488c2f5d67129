package main

import (
	"strings"
	"testing"
)

// arena box check tries a hostile entrant's attacks in boxes made as this
// machine makes them (as root and on the portable path, as make test runs
// this package), and here every one is held: the files, processes,
// sockets, IPC and privileges of the machine, memory, disk and processes
// past their caps, and kill -9 of arena.
func TestBoxCheck(t *testing.T) {
	code, out, stderr := arena(t, "box", "check")
	if code != 0 {
		t.Fatalf("arena box check: exit %d\n%s\n%s", code, out, stderr)
	}
	held := strings.Count(out, "\nheld ")
	for _, want := range []string{"read the operator's secret file", "make an AF_VSOCK socket", "attach the machine's SysV segment",
		"touch 600 MB of shared memory", "write 8 MB into its box", "start processes without end", "kill -9 of arena", "every attack was held"} {
		if !strings.Contains(out, want) {
			t.Errorf("arena box check says nothing of %q:\n%s", want, out)
		}
	}
	if held < 40 || strings.Contains(out, "BROKE") {
		t.Errorf("%d attacks held:\n%s", held, out)
	}
	if code, _, stderr := arena(t, "box", "look"); code != 2 || !strings.Contains(stderr, "arena box check") {
		t.Errorf("arena box look: exit %d: %s", code, stderr)
	}
}
