package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file is written whole or not at all: a write that fails (a full
// disk) leaves the file as it was and no temporary file; a link planted
// in its place is replaced, not written through.
func TestDirWriteFile(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("outside"), 0o644)
	d, err := OpenDir(filepath.Join(root, "t"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := d.WriteFile("a.json", write("first")); err != nil {
		t.Fatal(err)
	}
	full := errors.New("no space left on device")
	if err := d.WriteFile("a.json", func(w io.Writer) error { io.WriteString(w, "half"); return full }); !errors.Is(err, full) {
		t.Fatalf("a failing write: %v", err)
	}
	if b, _ := d.ReadFile("a.json"); string(b) != "first" {
		t.Errorf("after a failed write: %q", b)
	}
	os.Symlink(outside, filepath.Join(root, "t", "b.json"))
	if err := d.WriteFile("b.json", write("mine")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside" {
		t.Errorf("written through a link: %q", b)
	}
	if b, _ := d.ReadFile("b.json"); string(b) != "mine" {
		t.Errorf("b.json: %q", b)
	}
	if err := d.WriteFile("../escape.json", write("x")); err == nil {
		t.Error("a name outside the directory was written")
	}
	entries, _ := os.ReadDir(filepath.Join(root, "t"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// Reading refuses a link, a file past the limit and a name outside.
func TestDirReadFileRefuses(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.Symlink("/etc/hostname", filepath.Join(dir, "link.json"))
	big, _ := os.Create(filepath.Join(dir, "big.json"))
	big.Truncate(MaxFileSize + 1)
	big.Close()
	for name, want := range map[string]string{"link.json": "a link, not a file", "big.json": "larger than the 64 MB", "../x": "not a file inside"} {
		if _, err := d.ReadFile(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadFile(%s) = %v, want %q", name, err, want)
		}
	}
	if _, err := OpenDir(filepath.Join(dir, "none"), false); err == nil {
		t.Error("a directory that does not exist was opened")
	}
}
