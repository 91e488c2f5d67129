package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/gobot"
)

// toolchain is the machine's Go, with the cache in the test's folder,
// under a name with a space in it (a user's cache on Windows may have
// one, in the go.mod the build writes).
func toolchain(t *testing.T) *Toolchain {
	t.Helper()
	tc, err := Find()
	if err != nil {
		t.Fatalf("the tests build bots with the Go that runs them: %v", err)
	}
	c := *tc
	c.Dir = filepath.Join(t.TempDir(), "John Smith")
	return &c
}

// TestBuildKeepsABuiltBot: a template builds into a program, kept under
// the hash of its source: the same source again is found built, another
// source is not.
func TestBuildKeepsABuiltBot(t *testing.T) {
	tc := toolchain(t)
	src, _ := gobot.Template("pathgame")
	if _, ok := tc.Cached("pg.go", src, Native); ok {
		t.Fatal("a bot is found built before any build")
	}
	built := 0
	p, err := tc.Build(context.Background(), "pg.go", src, Native, func() { built++ })
	if err != nil || built != 1 {
		t.Fatalf("the first build: %v, building said %d times", err, built)
	}
	if again, err := tc.Build(context.Background(), "pg.go", src, Native, func() { built++ }); err != nil || again != p || built != 1 {
		t.Fatalf("the same source again: %q, %v, building said %d times; want %q, kept", again, err, built, p)
	}
	if got, ok := tc.Cached("pg.go", src, Native); !ok || got != p {
		t.Fatalf("after a build, Cached gives %q, %v; want %q", got, ok, p)
	}
	if _, ok := tc.Cached("pg.go", src+"\n// an edit\n", Native); ok {
		t.Fatal("an edited source is found built")
	}
	// The program serves: asked to compile only, it answers.
	cmd := exec.Command(p)
	cmd.Stdin = strings.NewReader(`{"id":1,"begin":{"file":"pg.go","source":""}}` + "\n")
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), `{"id":1}`) {
		t.Fatalf("the built bot answered %q, %v", out, err)
	}
}

// TestBuildRefusals: what the compiler refuses is said against the bot's
// file and line, and a bot without Act in the interpreter's words.
func TestBuildRefusals(t *testing.T) {
	tc := toolchain(t)
	for _, c := range []struct{ name, src, want string }{
		{"unused", "package bot\n\nimport \"github.com/arena-playground/arena/engine/match\"\n\nfunc Act(t *match.Turn) (match.Action, error) {\n\tx := 1\n\treturn nil, nil\n}\n", "mine.go:6:2: declared and not used: x"},
		{"no act", "package bot\n\nfunc Move() {}\n", "mine.go: the bot has no func Act"},
		{"wrong act", "package main\n\nfunc Act() int { return 0 }\n", "mine.go: Act is not a func Act(t *match.Turn) (match.Action, error)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tc.Build(context.Background(), "dir/mine.go", c.src, Native, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v; want %q", err, c.want)
			}
		})
	}
}

// TestBuildKeepsTheLatest: beyond Kept built bots, the least recently
// used go.
func TestBuildKeepsTheLatest(t *testing.T) {
	tc := toolchain(t)
	defer func(k int) { Kept = k }(Kept)
	Kept = 2
	src, _ := gobot.Template("life")
	var built []string
	for i := range 3 {
		p, err := tc.Build(context.Background(), "life.go", src+strings.Repeat("\n", i), Native, nil)
		if err != nil {
			t.Fatal(err)
		}
		built = append(built, p)
	}
	left, _ := filepath.Glob(filepath.Join(tc.Dir, "bot-*"))
	if len(left) != 2 {
		t.Fatalf("%d built bots kept; want 2", len(left))
	}
	if _, err := os.Stat(built[0]); err == nil {
		t.Fatal("the least recently used bot was kept")
	}
}

func TestAtLeast(t *testing.T) {
	for _, c := range []struct {
		v, need string
		ok      bool
	}{
		{"go1.26.8", "1.26.0", true}, {"go1.26", "1.26.0", true}, {"go1.25.9", "1.26.0", false},
		{"go1.27rc1", "1.26.0", true}, {"go1.26rc2", "1.26.1", false}, {"devel go1.27-abc", "1.26.0", true},
	} {
		if got := atLeast(c.v, c.need); got != c.ok {
			t.Errorf("atLeast(%q, %q) = %v", c.v, c.need, got)
		}
	}
}
