package page

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// public writes a text the server sends a page (a refusal, a gauntlet's
// error, a report's reasons) without this machine's paths: a request that
// needs no token learns no user's name, home or layout from an answer. A
// directory the server knows becomes its name (".", "~", "$TMPDIR"), and
// any other absolute path its last element.
func public(s string) string {
	for _, k := range knownDirs() {
		if k.dir != "" && k.dir != "/" {
			s = strings.ReplaceAll(s, k.dir, k.as)
		}
	}
	return absPath.ReplaceAllStringFunc(s, func(m string) string {
		g := absPath.FindStringSubmatch(m)    // before, the path, its last element
		if strings.HasPrefix(g[2], "/api/") { // the server's own address for a thing, not a file
			return m
		}
		return g[1] + "…/" + g[3]
	})
}

// absPath is an absolute path of a few elements, Unix's or Windows' with
// a drive letter, where a path starts: at the start of the text, or after
// a space, a quote, a bracket, "=" or ":" ("~/x" and "./x" are not).
var absPath = regexp.MustCompile(`(^|[\s"'(\[=<>:,])((?:[A-Za-z]:\\|/)(?:[^\s/\\:"'<>]+[/\\])+([^\s/\\:"'<>]+))`)

type knownDir struct{ dir, as string }

// knownDirs are the directories a server's answers may name, longest
// first, so that the working directory under the home is said as such;
// read once, not for each line of a report.
var knownDirs = sync.OnceValue(func() []knownDir {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	dirs := []knownDir{{filepath.Clean(os.TempDir()), "$TMPDIR"}, {cwd, "."}, {home, "~"}}
	for i := range dirs {
		for j := i + 1; j < len(dirs); j++ {
			if len(dirs[j].dir) > len(dirs[i].dir) {
				dirs[i], dirs[j] = dirs[j], dirs[i]
			}
		}
	}
	return dirs
})

// publicLines passes what is written on to w a line at a time, each line
// made public.
type publicLines struct {
	w    io.Writer
	line []byte
}

func (p *publicLines) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.line = append(p.line, b...)
			break
		}
		p.line = append(p.line, b[:i+1]...)
		if _, err := io.WriteString(p.w, public(string(p.line))); err != nil {
			return 0, err
		}
		p.line, b = p.line[:0], b[i+1:]
	}
	return n, nil
}

// Close writes the last line, unended.
func (p *publicLines) Close() error {
	_, err := io.WriteString(p.w, public(string(p.line)))
	p.line = nil
	return err
}
