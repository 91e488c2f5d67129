//go:build unix

package tournament

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A tournament's directory sits where every entrant's program can write:
// what is planted in it is refused or replaced, never followed, read
// without end or waited on. Each case plants one thing and runs or reads
// the tournament; the file outside the directory must stay as it was.
func TestHostileDirectory(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "grades.txt")
	const kept = "the course's grades\n"
	reset := func() { os.WriteFile(outside, []byte(kept), 0o644) }
	p := plan(t, RoundRobin, 1, "random", "greedy")
	played := func(t *testing.T) string {
		dir := t.TempDir()
		if _, err := Run(t.Context(), p, Options{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	cases := []struct {
		name  string
		plant func(t *testing.T, dir string)
		run   bool   // run the tournament (else: Load it, as show and report do)
		want  string // the error; "" when the run plays on
	}{
		{"a journal linked out of the directory", func(t *testing.T, dir string) {
			os.Symlink(outside, filepath.Join(dir, JournalFile))
		}, true, "games.jsonl: a link, not a file"},
		{"a journal that is a named pipe", func(t *testing.T, dir string) {
			syscall.Mkfifo(filepath.Join(dir, JournalFile), 0o644)
		}, true, "games.jsonl: a named pipe, not a file"},
		{"a plan linked to a device", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, PlanFile))
			os.Symlink("/dev/zero", filepath.Join(dir, PlanFile))
		}, false, "tournament.json: a link, not a file"},
		{"a plan that is a named pipe", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, PlanFile))
			syscall.Mkfifo(filepath.Join(dir, PlanFile), 0o644)
		}, false, "tournament.json: a named pipe, not a file"},
		{"a replay linked out of the directory", func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, ReplayDir), 0o755)
			os.Symlink(outside, filepath.Join(dir, ReplayDir, "r0-p0-a.json"))
		}, true, ""},
		{"the replays' directory linked out of it", func(t *testing.T, dir string) {
			os.Symlink(filepath.Dir(outside), filepath.Join(dir, ReplayDir))
		}, true, "replays"},
		{"a journal line recorded twice", func(t *testing.T, dir string) {
			appendLine(t, dir, firstLine(t, dir))
		}, false, "is recorded twice"},
		{"a journal line with a 300-digit time", func(t *testing.T, dir string) {
			rewriteFirst(t, dir, func(e map[string]any) { e["think_ms"] = []any{json.Number("1" + strings.Repeat("0", 300)), 0} })
		}, false, "think_ms 1e+300"},
		{"a journal line naming a replay outside the directory", func(t *testing.T, dir string) {
			rewriteFirst(t, dir, func(e map[string]any) { e["replay"] = "../../grades.txt" })
		}, false, `replay "../../grades.txt": the run writes "replays/r0-p0-`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reset()
			var dir string
			if c.run {
				dir = t.TempDir()
			} else {
				dir = played(t)
			}
			c.plant(t, dir)
			var err error
			if c.run {
				_, err = Run(t.Context(), p, Options{Dir: dir})
			} else {
				_, err = Load(dir)
			}
			switch {
			case c.want == "" && err != nil:
				t.Errorf("the run stopped: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
			if b, _ := os.ReadFile(outside); string(b) != kept {
				t.Errorf("the file outside the directory was written: %q", b)
			}
		})
	}
}

func firstLine(t *testing.T, dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return line
}

func appendLine(t *testing.T, dir, line string) {
	f, err := os.OpenFile(filepath.Join(dir, JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line + "\n")
	f.Close()
}

// rewriteFirst changes the journal's first line.
func rewriteFirst(t *testing.T, dir string, change func(map[string]any)) {
	path := filepath.Join(dir, JournalFile)
	data, _ := os.ReadFile(path)
	first, rest, _ := strings.Cut(string(data), "\n")
	dec := json.NewDecoder(strings.NewReader(first))
	dec.UseNumber()
	var e map[string]any
	if err := dec.Decode(&e); err != nil {
		t.Fatal(err)
	}
	change(e)
	b, _ := json.Marshal(e)
	os.WriteFile(path, []byte(string(b)+"\n"+rest), 0o644)
}
