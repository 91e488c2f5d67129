// Package untrusted shows text that other people's programs wrote (their
// stderr, their replies, their names, the files they left in a directory)
// to the person running arena. Such text reaches an operator's terminal,
// where an escape sequence would set the window's title, clear the screen
// or recolour the standings, and a log, where a carriage return would hide
// a line. Everything that is not printable is shown quoted, as Go writes
// it in a string literal, so that nothing another program wrote acts on
// the terminal.
package untrusted

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s with every byte or rune that is not printable (control
// characters, escapes, invalid UTF-8, Unicode's format characters such as
// the bidirectional overrides) written as a Go escape: "\x1b]0;pwned\a"
// shows as `\x1b]0;pwned\a`. Printable text, spaces included, is kept as it
// is, so that an honest line reads as its program wrote it.
func Text(s string) string {
	if printable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// printable reports whether s needs no escape.
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || (r != ' ' && !unicode.IsPrint(r)) {
			return false
		}
	}
	return true
}

// Clip shortens what a message quotes to 60 bytes and shows it as Text.
func Clip(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		s = strings.ToValidUTF8(s[:57], "") + "..."
	}
	return Text(s)
}

// Line returns the last line of s as Text: what a message about a
// program's end quotes of its output.
func Line(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return Text(strings.TrimSuffix(s, "\r"))
}
