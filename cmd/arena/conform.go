package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/arena-playground/arena/internal/safefile"
)

// errFailed reports that some files did not conform: exit status 1, with
// the details already printed.
var errFailed = errors.New("some files did not conform")

func runConform(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("conform", stdout)
	name := fs.String("game", "", "the game whose reference files these are")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*name)
	if err != nil {
		return err
	}
	c, ok := g.(conformer)
	if !ok {
		return fmt.Errorf("%s has no reference files to conform to", *name)
	}
	if fs.NArg() == 0 {
		return usagef("give the reference files to replay")
	}
	passed, failed := 0, 0
	for _, f := range fs.Args() {
		detail, err := c.Conform(f, safefile.ReadFile)
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", f, err)
			continue
		}
		passed++
		fmt.Fprintf(stdout, "PASS %s: %s\n", f, detail)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return errFailed
	}
	return nil
}

// conformer is implemented by games that can replay reference files
// recorded from their original programs (golden traces, generated boards).
type conformer interface {
	// Conform checks one reference file; read loads it and any file it
	// refers to. It returns a summary of what was checked, or the first
	// difference from the reference.
	Conform(file string, read func(name string) ([]byte, error)) (string, error)
}
