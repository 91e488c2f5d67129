package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileRefusesWhatIsNotAFile: a device, a directory and a file past
// the limit are refused with a reason, without reading them; a regular
// file, even through a link, is read.
func TestReadFileRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(3 << 30) // sparse: 3 GB that take no disk
	f.Close()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte("{}"), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(good, link)
	for _, c := range []struct{ name, want string }{
		{os.DevNull, "a device, not a file"},
		{dir, "a directory, not a file"},
		{big, "larger than the 64 MB"},
		{filepath.Join(dir, "none.json"), "no such file"},
	} {
		if _, err := ReadFile(c.name); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadFile(%s) = %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if data, err := ReadFile(link); err != nil || string(data) != "{}" {
		t.Errorf("through a link: %q, %v", data, err)
	}
}
