package players

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// splitCommand splits a command line into words, with single and double
// quotes grouping words that hold spaces.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("the quote %c is not closed", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// FindProgram reports a command whose program cannot be found, before
// anything runs.
func FindProgram(command string) error {
	args, err := splitCommand(command)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("no program given")
	}
	return lookPath(args[0])
}

// tailBuffer keeps the last bytes written to it: a program's stderr, for
// the message when it dies.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if extra := b.buf.Len() - b.max; extra > 0 {
		b.buf.Next(extra)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
