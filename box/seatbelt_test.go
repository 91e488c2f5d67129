//go:build !js

package box

import (
	"strings"
	"testing"
)

// The profile denies by default, lets the program read its files and
// write its box alone, and connect to its seat alone; a path that holds
// a quote cannot end its string and add a rule.
func TestSeatbeltProfile(t *testing.T) {
	p := Profile{Read: []string{"/Users/ann/agent"}, Write: []string{"/tmp/arena-box-1-2/box", "/tmp/arena-box-1-2/tmp"}, Port: 9000}
	s := p.SBPL()
	for _, want := range []string{
		"(deny default)",
		`(subpath "/Users/ann/agent")`,
		"(allow file-read* file-write*\n  (subpath \"/tmp/arena-box-1-2/box\")\n  (subpath \"/tmp/arena-box-1-2/tmp\")",
		`(allow network-outbound (remote tcp "localhost:9000"))`,
		"(allow signal (target same-sandbox))",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the profile has no %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "file-write*") != 1 {
		t.Errorf("writes are allowed more than once:\n%s", s)
	}
	if strings.Contains(Profile{}.SBPL(), "network") {
		t.Errorf("a program with no seat may reach the network")
	}
	evil := Profile{Read: []string{`/tmp/x") (allow default) ("`}}.SBPL()
	if strings.Contains(evil, `(allow default)`) && !strings.Contains(evil, `\") (allow default) (\"`) {
		t.Errorf("a path's quote ended its string:\n%s", evil)
	}
	if open, close := strings.Count(s, "("), strings.Count(s, ")"); open != close {
		t.Errorf("%d ( and %d ): not one expression each", open, close)
	}
}

// A Windows box's directory is its user's and SYSTEM's alone, inherited
// inside, and labelled low integrity, which the program's low token may
// write; no other trustee is named.
func TestBoxSDDL(t *testing.T) {
	got := boxSDDL("S-1-5-21-1-2-3-1001")
	want := "D:P(A;OICI;FA;;;S-1-5-21-1-2-3-1001)(A;OICI;FA;;;SY)S:(ML;OICI;NW;;;LW)"
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	if strings.Count(got, "(A;") != 2 || strings.Contains(got, "WD") || strings.Contains(got, "BU") {
		t.Errorf("the box's directory is opened to others: %s", got)
	}
}
