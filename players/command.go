package players

import (
	"fmt"
	"strings"

	"github.com/arena-playground/arena/engine/play"
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
	return findProgram(play.Spec{Command: command})
}

// words are the program's words of a spec: its Args, or its Command split.
func words(spec play.Spec) ([]string, error) {
	if spec.Args != nil {
		return spec.Args, nil
	}
	return splitCommand(spec.Command)
}

// findProgram reports a spec whose program cannot be found.
func findProgram(spec play.Spec) error {
	args, err := words(spec)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("no program given")
	}
	return lookPath(args[0])
}
