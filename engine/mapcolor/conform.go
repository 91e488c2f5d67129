package mapcolor

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Conform checks a course input against the expected output beside it
// (tN.txt and output_tN.txt, or recommended_output_...), or an expected
// output against the input beside it, and reports the first different
// line.
func Conform(file string, read func(string) ([]byte, error)) (string, error) {
	dir, base := filepath.Split(file)
	in, want := file, ""
	switch {
	case strings.HasPrefix(base, "recommended_output_"):
		in = filepath.Join(dir, strings.TrimPrefix(base, "recommended_output_"))
		want = file
	case strings.HasPrefix(base, "output_"):
		in = filepath.Join(dir, strings.TrimPrefix(base, "output_"))
		want = file
	}
	inData, err := read(in)
	if err != nil {
		return "", err
	}
	var wantData []byte
	if want == "" {
		for _, name := range []string{"output_" + base, "recommended_output_" + base} {
			if wantData, err = read(filepath.Join(dir, name)); err == nil {
				want = filepath.Join(dir, name)
				break
			}
		}
		if want == "" {
			return "", fmt.Errorf("%s: no output_%s or recommended_output_%s beside it", file, base, base)
		}
	} else if wantData, err = read(want); err != nil {
		return "", err
	}
	p, err := ParseProblem(in, inData)
	if err != nil {
		return "", err
	}
	got := Solve(p)
	if err := compareOutput(got, wantData); err != nil {
		return "", fmt.Errorf("%s: %v", filepath.Base(want), err)
	}
	if n := bytes.Count(got, []byte("\n")) + 1; n > 1 {
		return fmt.Sprintf("%d lines, byte for byte", n), nil
	}
	return "1 line, byte for byte", nil
}

// compareOutput reports the first line where got and want differ, or a
// difference in the file's end (the course's files have no final newline).
func compareOutput(got, want []byte) error {
	if bytes.Equal(got, want) {
		return nil
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		switch {
		case i >= len(g):
			return fmt.Errorf("line %d: the output ends; want %q", i+1, w[i])
		case i >= len(w):
			return fmt.Errorf("line %d: %q; the expected output has ended", i+1, g[i])
		case g[i] != w[i]:
			return fmt.Errorf("line %d: %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Errorf("the outputs differ in bytes that no line shows (line ends?)")
}
