package untrusted

import (
	"strings"
	"testing"
	"unicode"
)

// What a hostile program writes reaches a terminal with no control
// character left in it; what an honest one writes reads as it was.
func TestTextQuotesWhatWouldActOnATerminal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Traceback (most recent call last):", "Traceback (most recent call last):"},
		{"ZeroDivisionError: division by zero", "ZeroDivisionError: division by zero"},
		{"naïve – ünïcode", "naïve – ünïcode"},
		{"\x1b]0;pwned\a", `\x1b]0;pwned\a`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"ok\rfake line", `ok\rfake line`},
		{"a\u202eevil", `a\u202eevil`},
		{"bad \xff byte", `bad \xff byte`},
		{"C:\\path", "C:\\path"},
	} {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, r := range got {
			if r != ' ' && !unicode.IsPrint(r) {
				t.Errorf("Text(%q) keeps %U", c.in, r)
			}
		}
	}
}

func TestClipAndLine(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes: cut inside a rune
	if got := Clip([]byte(long)); len(got) > 60 || !strings.HasSuffix(got, "...") || strings.Contains(got, `\x`) {
		t.Errorf("Clip = %q", got)
	}
	if got := Line("first\nlast \x1b[31mred\r\n"); got != `last \x1b[31mred` {
		t.Errorf("Line = %q", got)
	}
}

// What passes through a Writer cannot act on a terminal; arena's own
// newlines, tabs and progress bars' carriage returns pass as they are.
func TestWriterEscapesControls(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	in := "standings\n\tP1 \x1b]0;owned\a\x1b[2J\rbar\u202e é \xff\n"
	if n, err := w.Write([]byte(in)); n != len(in) || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	want := "standings\n\tP1 \\x1b]0;owned\\a\\x1b[2J\rbar\\u202e é \\xff\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	w.Write([]byte("plain text, naïve\n"))
	if b.String() != "plain text, naïve\n" {
		t.Errorf("plain text changed: %q", b.String())
	}
}
