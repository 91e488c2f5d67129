//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProgramsChildrenEndWithTheMatch: a program that starts a child
// holding its output open, then hangs, loses its moves to the clock; the
// match ends, and so does the child (its process group is ended).
func TestProgramsChildrenEndWithTheMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fast.json")
	os.WriteFile(cfg, []byte(`{"size": 6, "first_move_ms": 300, "move_ms": 200}`), 0o644)
	pidFile := filepath.Join(dir, "orphan.pid")
	t.Setenv("ARENA_ORPHAN_PIDFILE", pidFile)
	code, out, stderr := arena(t, "play", "-game", "colosseum", "-p1", selfCommand(t, "misbehave orphan"), "-p2", "greedy", "-seed", "5", "-config", cfg)
	if code != 0 || !strings.Contains(out, "result:") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	// The child was killed; wait until it is reaped too.
	for syscall.Kill(pid, 0) == nil {
		if state, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); bytes.Contains(state, []byte(") Z ")) {
			break // killed, waiting for init to reap it
		}
		time.Sleep(10 * time.Millisecond)
	}
}
