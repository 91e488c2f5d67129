package caps

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Caps
	}{
		{"memory=512M", Caps{Memory: 512 << 20, Procs: Default.Procs, CPU: Default.CPU, Disk: Default.Disk, Files: Default.Files}},
		{"memory=2G,procs=32,cpu=30s,disk=0,files=0", Caps{Memory: 2 << 30, Procs: 32, CPU: 30 * time.Second}},
		{"memory=0,procs=0,cpu=0,disk=0,files=0", Caps{}},
		{"off", Caps{}},
		{"cpu=1s", Caps{Memory: Default.Memory, Procs: Default.Procs, CPU: time.Second, Disk: Default.Disk, Files: Default.Files}},
		{"disk=16M,files=100", Caps{Memory: Default.Memory, Procs: Default.Procs, CPU: Default.CPU, Disk: 16 << 20, Files: 100}},
	} {
		got, err := Parse(c.in)
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := Parse(got.String()); err != nil || back != got {
			t.Errorf("Parse(%q.String() = %q) = %+v, %v", c.in, got.String(), back, err)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"memory=128M":     "want 256M or more",
		"memory=lots":     "want a size such as 512M",
		"procs=-1":        "want a count of processes",
		"cpu=100ms":       "a duration of a second or more",
		"disk=512K":       "want 1M or more",
		"files=-3":        "want a count of files",
		"swap=1G":         `unknown cap "swap"`,
		"memory":          "is not name=value",
		"memory=2000000G": "want a size such as 512M",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want an error saying %q", in, err, want)
		}
	}
}

func TestOverNamesTheCap(t *testing.T) {
	c := Caps{Memory: 512 << 20, Procs: 32, CPU: 30 * time.Second, Disk: 16 << 20, Files: 100}
	for _, tc := range []struct{ exit, tail, want string }{
		{"signal: file size limit exceeded", "", "over its disk cap of 16M in 100 files"},
		{"exit status 1", "OSError: [Errno 27] File too large", "over its disk cap of 16M in 100 files"},
		{"exit status 1", "OSError: [Errno 28] No space left on device", "over its disk cap of 16M in 100 files"},
		{"signal: killed; CPU time limit exceeded", "", "over its CPU time cap of 30s"},
		{"exit status 1", "MemoryError", "over its memory cap of 512M"},
		{"exit status 1", "fork: Resource temporarily unavailable", "at its cap of 32 processes and threads"},
		{"exit status 3", "ZeroDivisionError", ""},
	} {
		if got := c.Over(tc.exit, tc.tail); got != tc.want {
			t.Errorf("Over(%q, %q) = %q, want %q", tc.exit, tc.tail, got, tc.want)
		}
	}
	if got := (Caps{}).Over("exit status 1", "MemoryError"); got != "" {
		t.Errorf("no caps: Over = %q, want none named", got)
	}
}
