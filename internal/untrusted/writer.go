package untrusted

import (
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Writer passes what is written to w with every control character but
// newline, tab and carriage return, every Unicode format character (the
// bidirectional overrides) and every byte that is not UTF-8 written as a
// Go escape. A command's standard output and error go through it, so that
// text another program wrote, which reached a message arena prints
// unquoted, still cannot move the cursor, set the window's title, clear
// the screen or recolour the standings: an ESC shows as \x1b. The
// carriage return is arena's own, for its progress bars; messages that
// quote other programs quote it too (Text).
type Writer struct{ w io.Writer }

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w} }

// Unwrap is the writer written to, for a caller that asks whether it is a
// terminal.
func (t *Writer) Unwrap() io.Writer { return t.w }

// Write writes p, escaped where it must be, and reports p's length.
func (t *Writer) Write(p []byte) (int, error) {
	if safeForTerminal(p) {
		return t.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			out = append(out, `\x`...)
			out = append(out, strconv.FormatUint(uint64(p[i])|0x100, 16)[1:]...)
		case r == '\n' || r == '\t' || r == '\r' || r == ' ' || unicode.IsPrint(r):
			out = append(out, p[i:i+n]...)
		default:
			q := strconv.QuoteRuneToASCII(r)
			out = append(out, q[1:len(q)-1]...)
		}
		i += n
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// safeForTerminal reports whether p needs no escape: the common case,
// checked without allocating.
func safeForTerminal(p []byte) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n <= 1 || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
		i += n
	}
	return true
}
