package page

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// applyPatch applies a unified diff (git diff's, as third_party/ebiten
// keeps them) to the files it names, read and written through read and
// write by their paths in the diff (b/PATH less its b/). Every line of
// context and every line removed must be where the hunk says: a patch
// that does not apply exactly is an error naming its file and line, never
// applied by a guess, so that an upgrade of what it patches is noticed; a
// file the patch creates (--- /dev/null) must not be there yet.
func applyPatch(name string, patch []byte, read func(path string) ([]byte, error), write func(path string, data []byte) error) error {
	lines := strings.SplitAfter(string(patch), "\n")
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "+++ b/") {
			i++
			continue
		}
		path := strings.TrimSpace(strings.TrimPrefix(lines[i], "+++ b/"))
		created := i > 0 && strings.TrimSpace(lines[i-1]) == "--- /dev/null"
		i++
		var src []string
		if old, err := read(path); created && err == nil {
			return fmt.Errorf("%s: line %d: %s is there already, and the patch creates it: Ebitengine changed; see third_party/ebiten/README.md", name, i, path)
		} else if !created && err != nil {
			return fmt.Errorf("%s: %v", name, err)
		} else if !created {
			src = strings.SplitAfter(string(old), "\n")
			if src[len(src)-1] == "" {
				src = src[:len(src)-1]
			}
		}
		var out []string
		at := 0 // the next line of src not yet copied
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			start, err := hunkStart(lines[i], created)
			if err != nil {
				return fmt.Errorf("%s: line %d: %v", name, i+1, err)
			}
			if start-1 < at || start-1 > len(src) {
				return fmt.Errorf("%s: line %d: a hunk at line %d of %s, which has %d lines", name, i+1, start, path, len(src))
			}
			out = append(out, src[at:start-1]...)
			at = start - 1
			for i++; i < len(lines) && lines[i] != "" && strings.ContainsRune(" -+\\", rune(lines[i][0])); i++ {
				l := lines[i]
				switch l[0] {
				case ' ', '-':
					if at >= len(src) || strings.TrimSuffix(src[at], "\n") != strings.TrimSuffix(l[1:], "\n") {
						return fmt.Errorf("%s: line %d: %s line %d is not what the patch expects: Ebitengine changed; see third_party/ebiten/README.md", name, i+1, path, at+1)
					}
					if l[0] == ' ' {
						out = append(out, src[at])
					}
					at++
				case '+':
					out = append(out, l[1:])
				}
			}
		}
		out = append(out, src[at:]...)
		if err := write(path, []byte(strings.Join(out, ""))); err != nil {
			return err
		}
	}
	if !bytes.Contains(patch, []byte("\n+++ b/")) && !bytes.HasPrefix(patch, []byte("+++ b/")) {
		return fmt.Errorf("%s: no file in the patch", name)
	}
	return nil
}

// hunkStart reads the line a hunk starts at in the old file, from its
// header "@@ -START,COUNT +START,COUNT @@": line 1 for a file the patch
// creates, whose header says -0,0.
func hunkStart(header string, created bool) (int, error) {
	f := strings.Fields(header)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, fmt.Errorf("a hunk header %q", strings.TrimSpace(header))
	}
	if created {
		if f[1] != "-0,0" {
			return 0, fmt.Errorf("a hunk header %q of a file the patch creates", strings.TrimSpace(header))
		}
		return 1, nil
	}
	n, _, _ := strings.Cut(f[1][1:], ",")
	start, err := strconv.Atoi(n)
	if err != nil || start < 1 {
		return 0, fmt.Errorf("a hunk header %q", strings.TrimSpace(header))
	}
	return start, nil
}
