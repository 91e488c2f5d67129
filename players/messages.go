//go:build !js

package players

import (
	"bufio"
	"errors"
	"io"
)

// messages scans r with split, bounded by maxLine, for the whole messages
// a player sent. A message cut short by a broken connection is not one:
// when a read fails with anything but io.EOF (a reset, which discards
// what the kernel had not yet handed over), the unterminated bytes left
// are dropped, not passed on as the player's last message. An ordinary
// end keeps its unterminated last line, as a program that prints its
// answer without a newline and exits means it.
func messages(r io.Reader, split bufio.SplitFunc) *bufio.Scanner {
	er := &errReader{r: r}
	sc := bufio.NewScanner(er)
	sc.Buffer(nil, maxLine)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if atEOF && er.err != nil && !errors.Is(er.err, io.EOF) {
			return split(data, false)
		}
		return split(data, atEOF)
	})
	return sc
}

// errReader remembers the error its reads ended with.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}
