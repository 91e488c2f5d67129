package page

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCapMemory sets a maximum on a program Go built for js/wasm and
// reads it back from the rewritten memory section; the other sections are
// kept as they were.
func TestCapMemory(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	os.WriteFile(src, []byte("package main\nfunc main() {}\n"), 0o644)
	out := filepath.Join(dir, "m.wasm")
	cmd := exec.Command("go", "build", "-o", out, src)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	module, _ := os.ReadFile(out)
	capped, err := capMemory(module, botMemory)
	if err != nil {
		t.Fatal(err)
	}
	flags, min, max := memoryLimits(t, capped)
	if flags != 1 || max != botMemory/wasmPage || min == 0 || min > max {
		t.Fatalf("limits: flags %d, min %d, max %d pages; want a maximum of %d", flags, min, max, botMemory/wasmPage)
	}
	// Go's linker pads section sizes to 5 bytes; they are written
	// unpadded, so the module may shrink by 4 bytes a section.
	if d := len(capped) - len(module); d < -64 || d > 8 {
		t.Fatalf("capped module of %d bytes from %d", len(capped), len(module))
	}
	if _, err := capMemory(capped[:len(capped)-3], botMemory); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a cut module: %v", err)
	}
	if _, err := capMemory(module, wasmPage); err == nil || !strings.Contains(err.Error(), "needs") {
		t.Fatalf("a cap under what the program needs to start: %v", err)
	}
}

// memoryLimits reads the memory section's limits.
func memoryLimits(t *testing.T, m []byte) (flags byte, min, max uint64) {
	for at := 8; at < len(m); {
		id := m[at]
		size, n := binary.Uvarint(m[at+1:])
		body := m[at+1+n : at+1+n+int(size)]
		if id == 5 {
			_, k := binary.Uvarint(body)
			flags = body[k]
			min, j := binary.Uvarint(body[k+1:])
			max, _ := binary.Uvarint(body[k+1+j:])
			return flags, min, max
		}
		at += 1 + n + int(size)
	}
	t.Fatal("no memory section")
	return
}
