package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGoBotFromTemplate writes a game's template with `arena template`,
// plays it as go:FILE, and checks that a file that does not compile is
// refused before any game, by its line, with exit status 1.
func TestGoBotFromTemplate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mybot.go")
	if code, _, stderr := arena(t, "template", "-game", "mapcolor", "-o", file); code != 0 {
		t.Fatalf("template: exit %d: %s", code, stderr)
	}
	if code, _, stderr := arena(t, "template", "-game", "mapcolor", "-o", file); code != 1 || !strings.Contains(stderr, "exists") {
		t.Fatalf("template over an existing file: exit %d: %s; want 1, refused", code, stderr)
	}
	code, stdout, stderr := arena(t, "play", "-game", "mapcolor", "-p1", "go:"+file, "-p2", "greedy", "-seed", "4")
	if code != 0 || !strings.Contains(stdout, "result: ") {
		t.Fatalf("play go:%s: exit %d\n%s%s", file, code, stdout, stderr)
	}
	_, want, _ := arena(t, "play", "-game", "mapcolor", "-p1", "greedy", "-p2", "greedy", "-seed", "4")
	if line(stdout, "result:") != line(want, "result:") {
		t.Fatalf("the template's result %q; greedy's %q", line(stdout, "result:"), line(want, "result:"))
	}

	src, _ := os.ReadFile(file)
	broken := strings.Replace(string(src), "return best, nil", "return best, nil, 3", 1)
	if broken == string(src) {
		t.Fatal("the template has no 'return best, nil' to break")
	}
	bad := filepath.Join(dir, "bad.go")
	os.WriteFile(bad, []byte(broken), 0o644)
	wantLine := strings.Count(broken[:strings.Index(broken, "return best, nil, 3")], "\n") + 1
	code, stdout, stderr = arena(t, "play", "-game", "mapcolor", "-p1", "go:"+bad, "-p2", "greedy")
	at := bad + ":" + strconv.Itoa(wantLine) + ":"
	if code != 1 || !strings.Contains(stderr, at) || strings.Contains(stdout, "result:") {
		t.Fatalf("a bot that does not compile: exit %d, stderr %q; want 1 and %q, before any game", code, stderr, at)
	}
}

func line(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestGoBotThatCannotStartLoses: a go: file that compiles but whose
// package initialisation panics passes the check before any game, then
// loses each of its games with the reason, and the tournament ends.
func TestGoBotThatCannotStartLoses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.go")
	if code, _, stderr := arena(t, "template", "-game", "colosseum", "-o", file); code != 0 {
		t.Fatalf("template: exit %d: %s", code, stderr)
	}
	src, _ := os.ReadFile(file)
	os.WriteFile(file, append(src, "\nvar boom = func() int { var m map[string]int; m[\"x\"] = 1; return 1 }()\n"...), 0o644)
	code, stdout, stderr := arena(t, "tournament", "-game", "colosseum", "-o", filepath.Join(dir, "t"), "-containment", "weak", "bad=go:"+file, "g=greedy")
	if code != 0 {
		t.Fatalf("the tournament did not end: exit %d\n%s%s", code, stdout, stderr)
	}
	// Built with Go, the program dies of the panic before it serves, and
	// its crash says where.
	if !regexp.MustCompile(`bad: 2x replaced: the bot could not start: the bot panicked in bot.init.func1, line \d+: assignment to entry in nil map`).MatchString(stdout) || !strings.Contains(stdout, "g    -  2/2") {
		t.Fatalf("the bot that cannot start did not lose its two games with the reason:\n%s", stdout)
	}
}

// TestGoBotAtTheLeastMemoryCap: a memory cap under the least a go: bot's
// interpreter starts in is refused when given, with why; at it, the bot
// plays its moves (none replaced).
func TestGoBotAtTheLeastMemoryCap(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.go")
	arena(t, "template", "-game", "colosseum", "-o", file)
	code, _, stderr := arena(t, "play", "-game", "colosseum", "-p1", "go:"+file, "-p2", "random", "-caps", "memory=128M")
	if code != 2 || !strings.Contains(stderr, "want 256M or more: a go: bot's interpreter") {
		t.Errorf("-caps memory=128M: exit %d: %s", code, stderr)
	}
	replay := filepath.Join(dir, "r.json")
	code, out, stderr := arena(t, "play", "-game", "colosseum", "-p1", "go:"+file, "-p2", "random", "-caps", "memory=256M", "-replay", replay)
	data, _ := os.ReadFile(replay)
	if code != 0 || strings.Contains(string(data), `"replaced"`) {
		t.Errorf("-caps memory=256M: exit %d, moves replaced: %v\n%s%s", code, strings.Contains(string(data), `"replaced"`), out, stderr)
	}
}

// A bot that panics is said in play's output: how many of its moves were
// replaced, and why the first was, with the panic's value and where,
// built with Go and interpreted.
func TestPlaySaysWhyMovesWereReplaced(t *testing.T) {
	bot := filepath.Join(t.TempDir(), "bot.go")
	os.WriteFile(bot, []byte(`package bot

import (
	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

func Act(t *match.Turn) (match.Action, error) {
	if t.State.Turn() >= 1 {
		panic("no idea what to do")
	}
	return t.State.(colosseum.State).Moves(nil)[0], nil
}
`), 0o644)
	// Built with Go, the line; interpreted, the function's body.
	for _, c := range []struct{ flag, where string }{
		{"-interpret=false", `bot.Act, line 10`},
		{"-interpret", `bot.Act \(its body from line 9\)`},
	} {
		code, out, stderr := arena(t, "play", "-game", "colosseum", "-preset", "8", "-seed", "3", "-quiet", c.flag, "-p1", "go:"+bot, "-p2", "greedy")
		if code != 0 || !regexp.MustCompile(`(?m)^replaced: \d+ moves of P1's, the first: the bot panicked in `+c.where+`: no idea what to do$`).MatchString(out) {
			t.Errorf("%s: exit %d:\n%s%s", c.flag, code, out, stderr)
		}
	}
}

// TestGoBotWithoutGo: on a machine without Go (no go on the PATH), a go:
// bot is interpreted, and arena says so once however many matches it
// plays; with Go, the first match of a new source says it is compiling,
// and when it is done and in how long, and the next says nothing.
func TestGoBotWithoutGo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.go")
	arena(t, "template", "-game", "colosseum", "-o", file)
	exe, _ := os.Executable()
	// The built bots' cache of the test's own (a first run compiles:
	// os.UserCacheDir is under XDG_CACHE_HOME, HOME or LocalAppData), Go's
	// build cache the machine's (the standard library stays built).
	gocache, err := exec.Command(goCommand(t), "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	run := func(path string) string {
		cmd := exec.Command(exe, "autoplay", "-game", "colosseum", "-preset", "8", "-p1", "go:"+file, "-p2", "random", "-n", "2", "-quiet")
		cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1", "PATH="+path, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "HOME="+dir, "LocalAppData="+dir, "GOCACHE="+strings.TrimSpace(string(gocache)))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("PATH=%s: %v\n%s", path, err, out)
		}
		return string(out)
	}
	out := run(dir) // a folder with no go in it
	if n := strings.Count(out, "arena: go: bots are interpreted here, several times slower than compiled: no Go toolchain found"); n != 1 || strings.Contains(out, "compiling") {
		t.Fatalf("without Go: the note %d times (want once), compiling said: %v\n%s", n, strings.Contains(out, "compiling"), out)
	}
	goDir := filepath.Dir(goCommand(t))
	for i, want := range []int{1, 0} {
		// The wait told: a line when the build starts, one when it is done.
		out := run(goDir)
		started, done := strings.Count(out, "arena: compiling go:"+file), strings.Count(out, "(once for this source): compiled in ")
		if started != 2*want || done != want {
			t.Fatalf("with Go, run %d: compiling said %d times, done %d; want a build's start and end %d times\n%s", i+1, started, done, want, out)
		}
	}
}

// goCommand is the go command on the test's PATH.
func goCommand(t *testing.T) string {
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the tests need the go command: %v", err)
	}
	return p
}
