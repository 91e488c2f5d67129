package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesOnlyOnSuccess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want boom", err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "first" {
		t.Errorf("after a failed write the file holds %q, %v; want the first content", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// An output is checked before the work: a missing folder, a folder in
// the file's place and a folder that takes no file are each refused by
// the path as given; a writable place leaves nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("ro", 0o555)
	os.Mkdir("out.gif", 0o755)
	for path, want := range map[string]string{
		"docs/m.gif":  "docs/m.gif: no folder docs here to write it in",
		"out.gif":     "out.gif: a folder, not a file",
		"ok/../m.gif": "",
		"m.gif":       "",
	} {
		err := Check(path)
		if (want == "") != (err == nil) || err != nil && err.Error() != want {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if os.Getuid() != 0 { // root writes anywhere
		if err := Check("ro/m.gif"); err == nil || !strings.HasPrefix(err.Error(), "ro/m.gif: cannot write in ro") {
			t.Errorf("ro/m.gif: %v", err)
		}
	}
	if left, _ := os.ReadDir("."); len(left) != 2 {
		t.Errorf("Check left files: %v", left)
	}
}
