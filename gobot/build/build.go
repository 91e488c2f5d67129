// Package build compiles a bot written in Go (a go: file, the page's
// editor's source) with the Go toolchain installed on the machine, into a
// program that serves a match's requests as the interpreter does
// (gobot/serve.Main): natively for arena's command and window, and to
// WebAssembly for the page's bot worker. The bot API it is built against
// is the source arena carries (arena.BotAPI), written once to the cache,
// so a build needs no network and no copy of arena's repository. Built
// programs are kept by the hash of what made them (the source, the API,
// the toolchain and the target): a source built once starts at once.
//
// Building runs none of the bot's code: the source is checked against the
// bot API first (the interpreter's check, which refuses cgo, unsafe and
// every import outside the reviewed list), and built with cgo off, the
// network off and the toolchain pinned. The program is run in the box
// every program runs in.
package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	arena "github.com/arena-playground/arena"
	"github.com/arena-playground/arena/gobot/serve"
)

// Target is what a bot is built for.
type Target struct{ GOOS, GOARCH string }

// Native is the machine arena runs on.
var Native = Target{runtime.GOOS, runtime.GOARCH}

// Wasm is the page's bot worker.
var Wasm = Target{"js", "wasm"}

// ext is the built program's file extension.
func (t Target) ext() string {
	switch t.GOOS {
	case "windows":
		return ".exe"
	case "js", "wasip1":
		return ".wasm"
	}
	return ""
}

// Kept is how many built bots the cache keeps: the least recently used
// beyond it are removed after each build (a build is a few megabytes).
var Kept = 64

// Toolchain is the Go that builds bots, and where what it built is kept.
type Toolchain struct {
	Go      string // the go command
	Version string // its version, as go env GOVERSION says it ("go1.26.8")
	Dir     string // the cache: the API's source and the built bots
}

// ErrNoGo is Find's error on a machine without Go.
var ErrNoGo = errors.New("no Go toolchain found (the go command is not on the PATH)")

var (
	findOnce sync.Once
	found    *Toolchain
	findErr  error
)

// Find finds the go command on the PATH, once a process, and checks that
// it is as new as the bot API needs (the go line of arena's go.mod). Its
// error says why bots cannot be compiled here.
func Find() (*Toolchain, error) {
	findOnce.Do(func() { found, findErr = find() })
	return found, findErr
}

func find() (*Toolchain, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil, ErrNoGo
	}
	// Asked outside any module, of the toolchain found itself: a go.mod
	// where arena runs, or GOTOOLCHAIN, could have it fetch another.
	cmd := exec.Command(goCmd, "env", "GOVERSION")
	cmd.Dir, cmd.Env = os.TempDir(), append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s env GOVERSION: %v", goCmd, err)
	}
	version := strings.TrimSpace(string(out))
	need, err := apiGoVersion()
	if err != nil {
		return nil, err
	}
	if !atLeast(version, need) {
		return nil, fmt.Errorf("%s is %s; arena's bot API needs go%s or newer", goCmd, version, need)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("no cache folder for built bots: %v", err)
	}
	return &Toolchain{Go: goCmd, Version: version, Dir: filepath.Join(cache, "arena", "gobots")}, nil
}

// apiGoVersion is the go line of the API's go.mod ("1.26.0").
func apiGoVersion() (string, error) {
	mod, err := arena.BotAPI.ReadFile("go.mod")
	if err != nil {
		return "", err
	}
	for l := range strings.Lines(string(mod)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "go "); ok {
			return v, nil
		}
	}
	return "", errors.New("arena's go.mod has no go line")
}

// atLeast reports whether the toolchain version ("go1.26.8",
// "go1.27rc1", "devel ...") is at least need ("1.26.0").
func atLeast(version, need string) bool {
	v, ok := strings.CutPrefix(version, "go")
	if !ok {
		return true // a development toolchain: let its build say
	}
	// Each part's leading digits: "27rc1" is 27.
	num := func(s string) []int {
		out := make([]int, 3)
		for i, p := range strings.SplitN(s, ".", 3) {
			end := strings.IndexFunc(p, func(r rune) bool { return r < '0' || r > '9' })
			if end < 0 {
				end = len(p)
			}
			out[i], _ = strconv.Atoi(p[:end])
		}
		return out
	}
	return slices.Compare(num(v), num(need)) >= 0
}

var (
	apiOnce sync.Once
	apiSum  string
	apiErr  error
)

// apiHash is the hash of the bot API's source: a new arena with another
// API builds every bot again.
func apiHash() (string, error) {
	apiOnce.Do(func() {
		h := sha256.New()
		apiErr = fs.WalkDir(arena.BotAPI, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := arena.BotAPI.ReadFile(p)
			fmt.Fprintf(h, "%s %d\n", p, len(data))
			h.Write(data)
			return err
		})
		apiSum = hex.EncodeToString(h.Sum(nil))
	})
	return apiSum, apiErr
}

// key names what a build of src for t makes.
func (tc *Toolchain) key(file, src string, t Target) (string, error) {
	api, err := apiHash()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "arena go: bot\napi %s\ngo %s\ntarget %s/%s\nfile %s\n%d\n", api, tc.Version, t.GOOS, t.GOARCH, filepath.Base(file), len(src))
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// Program is where the bot built as key (the name Build gives it,
// "bot-KEY") for t is kept.
func (tc *Toolchain) Program(key string, t Target) string { return tc.path(key, t) }

// path is where the bot built from key for t is kept.
func (tc *Toolchain) path(key string, t Target) string {
	return filepath.Join(tc.Dir, "bot-"+key+t.ext())
}

// Cached returns the program already built from the source for t, if
// there is one: a caller says it is compiling when there is not.
func (tc *Toolchain) Cached(file, src string, t Target) (string, bool) {
	key, err := tc.key(file, src, t)
	if err != nil {
		return "", false
	}
	p := tc.path(key, t)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// builds makes one build at a time in this process: a tournament's games
// that start the same new bot at once build it once and share it.
var builds sync.Mutex

// Build returns the program built from the bot's source (named file in
// errors, checked against the bot API already) for t, building it when
// it is not kept; building, when not nil, is called first then, once
// however many ask for the same source at once (a caller says it is
// compiling). A source the compiler refuses gets its errors written
// against file, as the interpreter's check writes its own.
func (tc *Toolchain) Build(ctx context.Context, file, src string, t Target, building func()) (string, error) {
	key, err := tc.key(file, src, t)
	if err != nil {
		return "", err
	}
	out := tc.path(key, t)
	builds.Lock()
	defer builds.Unlock()
	if _, err := os.Stat(out); err == nil {
		now := time.Now()
		os.Chtimes(out, now, now) // used: kept the longest
		return out, nil
	}
	if building != nil {
		building()
	}
	api, err := tc.writeAPI()
	if err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(tc.Dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	if err := writeModule(work, api, file, src); err != nil {
		return "", err
	}
	built := filepath.Join(work, "program"+t.ext()) // not "bot": the bot's package folder
	cmd := exec.CommandContext(ctx, tc.Go, "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", built, ".")
	cmd.Dir = work
	cmd.Env = buildEnv(t)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", refusal(file, stderr.String(), err)
	}
	if err := os.Rename(built, out); err != nil {
		return "", err
	}
	tc.evict(out)
	return out, nil
}

// buildEnv is the go command's environment for a build: the user's (its
// build cache, its temporary folder), with the network, cgo, workspaces
// and toolchain switches off, and the target's.
func buildEnv(t Target) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "GOWORK", "CGO_ENABLED", "GOOS", "GOARCH", "GOENV", "GOINSECURE", "GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOSUMDB":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOENV=off",
		"CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
}

// writeAPI writes the bot API's source to the cache, once for each
// version of it, and returns its folder.
func (tc *Toolchain) writeAPI() (string, error) {
	sum, err := apiHash()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(tc.Dir, "api-"+sum[:16])
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(tc.Dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(tc.Dir, "api-new-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	err = fs.WalkDir(arena.BotAPI, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
			return err
		}
		data, err := arena.BotAPI.ReadFile(p)
		if err != nil {
			return err
		}
		if p == "go.mod" { // its requires are the window's and the page's, not the API's
			data = []byte(apiModule(data))
		}
		to := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		return "", err
	}
	// The go.mod written last: a folder without one was cut short, and
	// is written again.
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return dir, nil // another process wrote it first
		}
		return "", err
	}
	return dir, nil
}

// apiModule is the API's go.mod: the module and its go line, no
// requires (the API imports only the standard library).
func apiModule(mod []byte) string {
	out := ""
	for l := range strings.Lines(string(mod)) {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "module ") || strings.HasPrefix(t, "go ") {
			out += t + "\n"
		}
	}
	return out
}

// writeModule writes the bot's module: its file, renamed bot.go in
// package bot (a file named x_test.go or x_windows.go would be left out
// of a build), and a main that serves it.
func writeModule(dir, api, file, src string) error {
	v, err := apiGoVersion()
	if err != nil {
		return err
	}
	src, err = asPackageBot(file, src)
	if err != nil {
		return err
	}
	// The folder quoted: a user's cache on Windows may hold spaces.
	mod := fmt.Sprintf("module arenabot\n\ngo %s\n\nrequire github.com/arena-playground/arena v0.0.0\n\nreplace github.com/arena-playground/arena => %s\n", v, strconv.Quote(api))
	main := fmt.Sprintf(`package main

import (
	bot %q

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/gobot/serve"
)

func main() { serve.Main(bot.Act) }
`, serve.BotPackage)
	if err := os.MkdirAll(filepath.Join(dir, "bot"), 0o755); err != nil {
		return err
	}
	for name, text := range map[string]string{"go.mod": mod, "main.go": main, filepath.Join("bot", "bot.go"): src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// asPackageBot renames the source's package bot, in place, so that its
// lines stay where they were.
func asPackageBot(file, src string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	at := int(f.Name.Pos()) - 1 // a file set's first file starts at base 1
	return src[:at] + "bot" + src[at+len(f.Name.Name):], nil
}

// buildPos is how the compiler places an error in the bot's file.
var buildPos = regexp.MustCompile(`(?m)^(?:\./)?bot/bot\.go:`)

// refusal writes the compiler's errors against the bot's file: a missing
// Act or one of another type (which the main's call finds) in the words
// the interpreter uses.
func refusal(file, out string, err error) error {
	var lines []string
	for l := range strings.Lines(out) {
		l = strings.TrimRight(l, "\n")
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "./main.go:") || strings.HasPrefix(l, "main.go:"):
			if strings.Contains(l, "undefined: bot.Act") {
				return fmt.Errorf("%s: the bot has no func Act(t *match.Turn) (match.Action, error)", file)
			}
			if strings.Contains(l, "bot.Act") {
				return fmt.Errorf("%s: Act is not a func Act(t *match.Turn) (match.Action, error)", file)
			}
		}
		lines = append(lines, buildPos.ReplaceAllString(l, file+":"))
	}
	if len(lines) == 0 {
		return fmt.Errorf("%s: go build: %v", file, err)
	}
	if len(lines) > 6 {
		lines = append(lines[:5], "(and more)")
	}
	return errors.New(strings.Join(lines, "\n"))
}

// evict removes the least recently used built bots beyond Kept, never
// the one just built.
func (tc *Toolchain) evict(keep string) {
	entries, err := os.ReadDir(tc.Dir)
	if err != nil {
		return
	}
	type built struct {
		path string
		used time.Time
	}
	var bots []built
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "bot-") {
			continue
		}
		if info, err := e.Info(); err == nil {
			bots = append(bots, built{filepath.Join(tc.Dir, e.Name()), info.ModTime()})
		}
	}
	if len(bots) <= Kept {
		return
	}
	slices.SortFunc(bots, func(a, b built) int { return b.used.Compare(a.used) })
	for _, b := range bots[Kept:] {
		if b.path != keep {
			os.Remove(b.path)
		}
	}
}
