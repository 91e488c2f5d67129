package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/arena-playground/arena/box"
)

// runBox is `arena box check`: an operator's look at the boxes this
// machine makes, before a class's programs play in them.
func runBox(args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintln(stdout, "Usage: arena box check\n\nTry a hostile entrant's attacks in boxes made as this machine makes them, as the user that will run arena,\nand say, a line each, what held and what did not, and which layer this machine lacks (docs/limits.md).")
		return nil
	}
	if len(args) != 1 || args[0] != "check" {
		return usagef("arena box check: try a hostile entrant's attacks in this machine's boxes")
	}
	broke, err := box.TryAttacks(stdout)
	if err != nil {
		return err
	}
	if broke > 0 {
		return fmt.Errorf("%d of the attacks were not held: see BROKE above", broke)
	}
	fmt.Fprintln(stdout, "every attack was held")
	return nil
}

// boxSummary tries the attacks of arena box check before a ladder's
// programs play here, and says in a line or a few what held: each BROKE
// line, and what this machine lacks.
func boxSummary(w io.Writer, who string) {
	var out bytes.Buffer
	broke, err := box.TryAttacks(&out)
	if err != nil {
		fmt.Fprintf(w, "%s: the boxes could not be tried: %v\n", who, err)
		return
	}
	held := 0
	for _, l := range strings.Split(out.String(), "\n") {
		switch {
		case strings.HasPrefix(l, "held "):
			held++
		case strings.HasPrefix(l, "BROKE "), strings.HasPrefix(l, "lacks: "):
			fmt.Fprintf(w, "%s: box check: %s\n", who, l)
		}
	}
	fmt.Fprintf(w, "%s: box check: %d attacks of a hostile entrant held, %d broke (arena box check says each)\n", who, held, broke)
}
