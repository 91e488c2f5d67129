//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every arena command the README and docs/ show runs as written: a shell
// runs each block of commands in a directory of its own that holds the
// repository's files (linked), with `arena` on its PATH (this test binary,
// which is arena with ARENA_AS_MAIN=1), and every command must exit 0.
//
// A block is an indented one (each line a command) or a fenced one whose
// commands start with "$ " (the other lines are what they print; a fenced
// block without "$ " shows output only). `go run ./cmd/arena` runs as
// `arena`. An HTML comment just before a block may say how it runs:
//
//	<!-- docs-test: check -->  each arena command with -check: its command
//	                           line, players and files are checked, and no
//	                           game is played (blocks of hundreds of games)
//	<!-- docs-test: skip WHY --> not run, for the reason given (a command
//	                           that needs the network, or serves for ever)
//
// Only commands whose first word is arena run; the others in a block (cd,
// ps) run too, as the shell would, but a block is run only when it has an
// arena command.
func TestDocsCommandsRun(t *testing.T) {
	py := python(t, true) // the Python with NumPy that make deps installs, for py: agents
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := fmt.Sprintf("#!/bin/sh\nARENA_AS_MAIN=1 exec %q \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "arena"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	rules, _ := filepath.Glob(filepath.Join(root, "docs", "rules", "*.md"))
	pages = append(append([]string{filepath.Join(root, "README.md")}, pages...), rules...)
	ran, checked, skipped := 0, 0, 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		dir := "" // the page's blocks run in order in one directory: a later one reads what an earlier one wrote
		for _, b := range commandBlocks(string(data)) {
			if !b.hasArena() {
				continue
			}
			switch {
			case b.mode == "skip":
				skipped++
				t.Logf("%s:%d: not run: %s", rel, b.line, b.why)
				continue
			case strings.HasPrefix(b.mode, "check"):
				checked++
			case b.mode != "":
				t.Errorf("%s:%d: docs-test %q: want check or skip WHY", rel, b.line, b.mode)
				continue
			default:
				ran++
			}
			if dir == "" {
				dir = linkedCopy(t, root)
				if rel == filepath.Join("docs", "download.md") {
					downloadExamples(t, root, dir)
				}
			}
			t.Run(fmt.Sprintf("%s:%d", rel, b.line), func(t *testing.T) {
				script := "set -e\n" + strings.Join(b.shell(), "\n") + "\nwait\n"
				sh := exec.Command("sh", "-c", script)
				sh.Dir = dir
				sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "ARENA_PYTHON="+py)
				var out bytes.Buffer
				sh.Stdout, sh.Stderr = &out, &out
				if err := sh.Run(); err != nil {
					t.Errorf("%s:%d: %v\n%s\n%s", rel, b.line, err, script, out.String())
				}
			})
		}
	}
	t.Logf("%d blocks run, %d checked (-check), %d not run", ran, checked, skipped)
	if ran == 0 {
		t.Error("no block of commands was found to run")
	}
}

// block is a block of commands in a page.
type block struct {
	line      int      // where it starts
	commands  []string // each with its continuation lines joined
	mode, why string   // from a docs-test comment before it
}

var (
	docsTestComment = regexp.MustCompile(`^<!-- docs-test: (\w+) ?(.*?) ?-->$`)
	goRunArena      = regexp.MustCompile(`^go run \./cmd/arena\b`)
)

// commandBlocks finds the blocks of commands in a Markdown page.
func commandBlocks(page string) []block {
	lines := strings.Split(page, "\n")
	var out []block
	mode, why := "", ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := docsTestComment.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			mode, why = m[1], m[2]
			continue
		}
		var body []string
		start := i + 1
		switch {
		case strings.HasPrefix(l, "```"):
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				if c, ok := strings.CutPrefix(lines[i], "$ "); ok {
					body = append(body, c)
					for strings.HasSuffix(c, "\\") && i+1 < len(lines) {
						i++
						c = lines[i]
						body[len(body)-1] += "\n" + c
					}
				}
			}
		case strings.HasPrefix(l, "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == "" || docsTestComment.MatchString(strings.TrimSpace(lines[i-1]))):
			for ; i < len(lines) && strings.HasPrefix(lines[i], "    "); i++ {
				body = append(body, strings.TrimPrefix(lines[i], "    "))
			}
			i--
		default:
			if strings.TrimSpace(l) != "" {
				mode, why = "", ""
			}
			continue
		}
		if len(body) > 0 {
			out = append(out, block{line: start, commands: body, mode: mode, why: why})
		}
		mode, why = "", ""
	}
	return out
}

// hasArena reports whether the block runs arena.
func (b block) hasArena() bool {
	for _, c := range b.commands {
		if strings.HasPrefix(c, "arena ") || goRunArena.MatchString(c) {
			return true
		}
	}
	return false
}

// shell is the block as a shell runs it: `go run ./cmd/arena` as arena,
// and with -check after the arena command's subcommand in a check block.
func (b block) shell() []string {
	out := make([]string, len(b.commands))
	for i, c := range b.commands {
		c = goRunArena.ReplaceAllString(c, "arena")
		if b.mode == "check" {
			if words := strings.SplitN(c, " ", 3); len(words) == 3 && words[0] == "arena" {
				c = "arena " + words[1] + " -check " + words[2]
			}
		}
		out[i] = c
	}
	return out
}

// linkedCopy is a directory that holds a link to each of the
// repository's top-level files and directories, where a block's commands
// write what they write.
func linkedCopy(t *testing.T, root string) string {
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// downloadExamples puts in dir the example programs a download carries
// (cmd/release's carried files), where docs/download.md's commands name
// them.
func downloadExamples(t *testing.T, root, dir string) {
	t.Helper()
	for from, to := range map[string]string{
		"cmd/arena/testdata/comp424/agents/student_agent.py": "examples/colosseum/agents/student_agent.py",
		"cmd/arena/testdata/students/evasion_client.py":      "examples/evasion_client.py",
		"cmd/arena/testdata/students/asp_client.py":          "examples/asp_client.py",
	} {
		data, err := os.ReadFile(filepath.Join(root, from))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, filepath.Dir(to)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
