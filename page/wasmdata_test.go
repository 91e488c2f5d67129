package page

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// goWasm builds a small Go program for js/wasm and returns the module.
func goWasm(t *testing.T, src string) []byte {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	out := filepath.Join(dir, "m.wasm")
	cmd := exec.Command("go", "build", "-o", out, filepath.Join(dir, "main.go"))
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	module, _ := os.ReadFile(out)
	return module
}

// dataSection returns a module's data section.
func dataSection(t *testing.T, module []byte) []byte {
	t.Helper()
	for at := 8; at < len(module); {
		size, n := binary.Uvarint(module[at+1:])
		if module[at] == sectionData {
			return module[at+1+n : at+1+n+int(size)]
		}
		at += 1 + n + int(size)
	}
	t.Fatal("no data section")
	return nil
}

// memoryImage is what a module's data segments write into a fresh memory.
func memoryImage(t *testing.T, module []byte) (image []byte, segments int) {
	t.Helper()
	segs, err := readDataSegments(dataSection(t, module))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range segs {
		if end := int(s.offset) + len(s.data); end > len(image) {
			image = append(image, make([]byte, end-len(image))...)
		}
		copy(image[s.offset:], s.data)
	}
	return image, len(segs)
}

// TestJoinDataSegments: a Go program's segments, joined, write the same
// memory, byte for byte, with fewer segments and a smaller module once
// compressed (the zeros written out cost less than the headers); the other
// sections are as they were.
func TestJoinDataSegments(t *testing.T) {
	module := goWasm(t, "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"joined\") }\n")
	joined, err := joinDataSegments(module)
	if err != nil {
		t.Fatal(err)
	}
	before, n := memoryImage(t, module)
	after, m := memoryImage(t, joined)
	if !bytes.Equal(before, after) {
		t.Fatalf("the joined segments write another memory (%d bytes, was %d)", len(after), len(before))
	}
	gz, gzJoined := len(gzipBytes(module)), len(gzipBytes(joined))
	if m >= n || gzJoined >= gz {
		t.Fatalf("%d segments (%d bytes gzipped) from %d (%d bytes gzipped)", m, gzJoined, n, gz)
	}
	t.Logf("%d segments, %d bytes gzipped; joined, %d segments, %d bytes gzipped", n, gz, m, gzJoined)
	// Joined again: nothing left to join.
	again, err := joinDataSegments(joined)
	if err != nil || !bytes.Equal(again, joined) {
		t.Fatalf("joining twice changed the module again (%v)", err)
	}
	// The rest of the module is untouched: only the data section differs.
	if a, b := otherSections(module, sectionData), otherSections(joined, sectionData); !bytes.Equal(a, b) {
		t.Errorf("the sections but the data section changed (%d bytes, were %d)", len(b), len(a))
	}
	// A damaged section is an error, not a guess.
	for _, cut := range []int{1, 3, 9} {
		d := dataSection(t, module)
		if _, err := readDataSegments(d[:len(d)-cut]); err == nil {
			t.Errorf("a data section cut by %d bytes was read", cut)
		}
	}
}

// TestSLEB32: offsets round-trip through their encoding, at the edges.
func TestSLEB32(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, -1, -64, -65, 1 << 20, 1<<31 - 1, -1 << 31} {
		b := appendSLEB32(nil, v)
		got, n := readSLEB32(b)
		if got != v || n != len(b) {
			t.Errorf("%d: encoded %x, read %d (%d bytes)", v, b, got, n)
		}
	}
}

// otherSections returns the ids and bodies of a module's sections but
// those of one id (their sizes aside: Go's linker pads them to 5 bytes,
// a rewrite writes them unpadded).
func otherSections(module []byte, id byte) []byte {
	var out []byte
	for at := 8; at < len(module); {
		size, n := binary.Uvarint(module[at+1:])
		end := at + 1 + n + int(size)
		if module[at] != id {
			out = append(append(out, module[at]), module[at+1+n:end]...)
		}
		at = end
	}
	return out
}
