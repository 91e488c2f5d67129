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
