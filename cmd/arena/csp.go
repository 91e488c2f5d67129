package main

import (
	"fmt"
	"io"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/internal/atomicfile"
	"github.com/arena-playground/arena/internal/safefile"
)

// runCSP is the course's program: it reads input.txt and prints, or
// writes, output.txt exactly as the course expects it.
func runCSP(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("csp", stdout)
	out := fs.String("o", "", "write the output to this `file` instead of printing it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give one input file")
	}
	in := fs.Arg(0)
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o %v", err)
	}
	data, err := safefile.ReadFile(in)
	if err != nil {
		return err
	}
	p, err := mapcolor.ParseProblem(in, data)
	if err != nil {
		return err
	}
	// The trace streams as the search writes it: a deep search's runs to
	// millions of lines, and none is held.
	if *out == "" {
		return mapcolor.SolveTo(stdout, p)
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return mapcolor.SolveTo(w, p) }); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", *out)
	return nil
}
