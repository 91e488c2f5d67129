package players

import (
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/play"
)

// The specs of the kinds this package registers read and write back as
// they were written; what they cannot mean is refused.
func TestKindSpecs(t *testing.T) {
	for _, bad := range []string{"tcp:", "tcp:9000", "tcp::99999", "tcp::x", "cmd:", "cmd: ",
		"tcp:cmd:", "tcp:cmd: ", "cmd:python3 'a.py", "tcp:cmd:python3 \"a.py {port}", "tcp:pace=sometimes::9000", "tcp:pace=-1s::9000", "tcp:speed=1::9000", "tcp:pace::9000", "tcp:pace=off:", "py:", "py: "} {
		if _, err := play.ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) accepted", bad)
		}
	}
	for _, c := range []struct {
		spec          string
		addr, command string
		pace          Pace
	}{
		{"tcp::9000", ":9000", "", DefaultPace},
		{"tcp:localhost:9000", "localhost:9000", "", DefaultPace},
		{"tcp:pace=off::9000", ":9000", "", Pace{}},
		{"tcp:pace=120ms:cmd:python3 c.py {port}", "", "python3 c.py {port}", Pace{Opening: DefaultPace.Opening, Gap: 120 * time.Millisecond}},
		{"tcp:cmd:python3 a:b.py --port {port} --role={role}", "", "python3 a:b.py --port {port} --role={role}", DefaultPace},
	} {
		sp, err := play.ParseSpec(c.spec)
		if err != nil || sp.Name != Network || sp.Addr != c.addr || sp.Command != c.command || sp.String() != c.spec {
			t.Errorf("ParseSpec(%s) = %+v (%s), %v", c.spec, sp, sp, err)
			continue
		}
		if p, err := PaceOf(sp); err != nil || p != c.pace {
			t.Errorf("%s: pace %+v, %v; want %+v", c.spec, p, err, c.pace)
		}
	}
	if sp, err := play.ParseSpec("py:agents/student_agent.py"); err != nil || sp.Name != Agent || sp.Command != "agents/student_agent.py" || sp.String() != "py:agents/student_agent.py" || !sp.Timed() {
		t.Errorf("ParseSpec(py:...) = %+v, %v", sp, err)
	}
	if sp, err := play.ParseSpec("cmd:python3 a.py --x=1,2"); err != nil || sp.Name != Command || sp.Command != "python3 a.py --x=1,2" || sp.String() != "cmd:python3 a.py --x=1,2" {
		t.Errorf("ParseSpec(cmd:...) = %+v, %v", sp, err)
	}
}

// Every kind is registered with an example and a description, which the
// listings show.
func TestKindsAreListed(t *testing.T) {
	names := map[string]bool{}
	for _, k := range play.Kinds() {
		names[k.Name] = true
		if k.Example == "" || k.Description == "" {
			t.Errorf("kind %s has no example or description", k.Name)
		}
	}
	for _, want := range []string{Command, Network, Agent} {
		if !names[want] {
			t.Errorf("kind %s is not registered", want)
		}
	}
}

// A served program's name travels in links and menus: letters, digits
// and . _ - only, 1 to 32 of them, not starting with punctuation.
func TestServedNames(t *testing.T) {
	for name, ok := range map[string]bool{"mine": true, "a": true, "Team_7.v2-b": true, "": false, "-x": false, ".x": false,
		"a b": false, "a/b": false, "é": false, "abcdefghijklmnopqrstuvwxyz123456": true, "abcdefghijklmnopqrstuvwxyz1234567": false} {
		if validName(name) != ok {
			t.Errorf("validName(%q) = %v", name, !ok)
		}
		if _, err := play.ParseSpec("served:" + name); (err == nil) != ok {
			t.Errorf("ParseSpec(served:%s): %v", name, err)
		}
	}
}

// TestPythonCandidates: py: agents find Python as each system names it,
// Windows' launcher first (python3 there may be the Store's stub).
func TestPythonCandidates(t *testing.T) {
	win := pythonCandidates("windows")
	if len(win) != 3 || win[0][0] != "py" || win[0][1] != "-3" || win[1][0] != "python3" || win[2][0] != "python" {
		t.Errorf("Windows: %q", win)
	}
	if unix := pythonCandidates("darwin"); unix[0][0] != "python3" || unix[1][0] != "python" {
		t.Errorf("macOS: %q", unix)
	}
	python := `C:\Program Files\Python 3.12\python.exe`
	if cmd, from := PythonCommand(python); len(cmd) != 1 || cmd[0] != python || from != "-python" {
		t.Errorf("-python with spaces: %q from %s", cmd, from)
	}
}

// TestSplitCommandWindowsPaths: a spec's command keeps a Windows path's
// backslashes, and a quoted path with spaces is one word, {port} in it
// too.
func TestSplitCommandWindowsPaths(t *testing.T) {
	words, err := splitCommand(`"C:\Program Files\Python 3.12\python.exe" C:\Users\ann\asp_client.py "{port}" --dir "C:\My Bots\{role}"`)
	want := []string{`C:\Program Files\Python 3.12\python.exe`, `C:\Users\ann\asp_client.py`, "{port}", "--dir", `C:\My Bots\{role}`}
	if err != nil || len(words) != len(want) {
		t.Fatalf("%q, %v", words, err)
	}
	for i := range want {
		if words[i] != want[i] {
			t.Errorf("word %d: %q, want %q", i, words[i], want[i])
		}
	}
}
