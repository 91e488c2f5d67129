//go:build unix

package safefile

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileRefusesANamedPipe without waiting for a writer.
func TestReadFileRefusesANamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "replay.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(fifo); err == nil || !strings.Contains(err.Error(), "a named pipe, not a file") {
		t.Errorf("ReadFile of a named pipe: %v", err)
	}
}
