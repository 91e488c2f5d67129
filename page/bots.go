package page

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/arena-playground/arena/gobot/build"
	"github.com/arena-playground/arena/gobot/interp"
)

// The page interprets a bot written in its editor (gobot.wasm), as it
// must on a static host. Served by arena serve (or go run ./cmd/wasm) on
// a machine with Go, the bot is built instead: the page posts its source
// here, the server checks it as the interpreter does and builds it for
// js/wasm (gobot/build), and the page runs the built program in the bot's
// worker, as fast as arena's own bots. What this server runs is the Go
// compiler on a checked source (no cgo, no unsafe, no directive): the
// bot itself runs in the visitor's browser, in a worker of its own.

// botRoom builds the page's bots.
type botRoom struct {
	find func() (*build.Toolchain, error) // build.Find; a test's own
}

// maxBotBody bounds a build request: a source at its limit, quoted.
const maxBotBody = 2*interp.MaxSource + 4<<10

func (b *botRoom) routes(mux *http.ServeMux, p *programRoom) {
	mux.Handle("POST /api/bots", p.guard(http.HandlerFunc(b.build), true))
	mux.Handle("GET /api/bots/{key}", p.guard(http.HandlerFunc(b.program), false))
}

// botBuild is the answer to a build: the program's address, or why the
// page is to interpret the bot (Interpret) or why the source is refused.
type botBuild struct {
	URL       string  `json:"url,omitempty"`
	Go        string  `json:"go,omitempty"`        // the toolchain that built it
	Seconds   float64 `json:"seconds"`             // the build's time (0: it was kept)
	Interpret string  `json:"interpret,omitempty"` // why it cannot be built here
	Error     string  `json:"error,omitempty"`
}

func (b *botRoom) build(w http.ResponseWriter, r *http.Request) {
	var req struct{ File, Source string }
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBotBody)).Decode(&req); err != nil {
		refuse(w, http.StatusBadRequest, "a bot to build is {\"file\": NAME, \"source\": GO}: "+err.Error())
		return
	}
	file := req.File
	if !regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}\.go$`).MatchString(file) {
		file = "bot.go"
	}
	answer := func(status int, a botBuild) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(a)
	}
	tc, why := b.toolchain()
	if why != "" {
		answer(http.StatusOK, botBuild{Interpret: why})
		return
	}
	if err := interp.Check(file, req.Source); err != nil {
		answer(http.StatusUnprocessableEntity, botBuild{Error: public(err.Error())})
		return
	}
	built := false
	start := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
	defer cancel()
	path, err := tc.Build(ctx, file, req.Source, build.Wasm, func() { built, start = true, time.Now() })
	if err != nil {
		answer(http.StatusUnprocessableEntity, botBuild{Error: public(err.Error())})
		return
	}
	a := botBuild{URL: "api/bots/" + strings.TrimSuffix(strings.TrimPrefix(pathBase(path), "bot-"), ".wasm"), Go: tc.Version}
	if built {
		a.Seconds = time.Since(start).Seconds()
	}
	answer(http.StatusOK, a)
}

// toolchain is the Go that builds the page's bots, or why there is none:
// none on the machine, or one of another version than the page's
// runtime (wasm_exec.js is this binary's Go's, and a program built by
// another may not run under it).
func (b *botRoom) toolchain() (*build.Toolchain, string) {
	find := b.find
	if find == nil {
		find = build.Find
	}
	tc, err := find()
	if err != nil {
		return nil, "the page's server cannot build Go: " + err.Error()
	}
	if minor(tc.Version) != minor(runtime.Version()) {
		return nil, fmt.Sprintf("the page's server has %s, and the page runs programs built by %s", tc.Version, runtime.Version())
	}
	return tc, ""
}

// minor is a Go version's release ("go1.26" of "go1.26.8").
func minor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// botKey is a built bot's name in a request.
var botKey = regexp.MustCompile(`^[0-9a-f]{32}$`)

// program serves a built bot to the page that asked for it.
func (b *botRoom) program(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	tc, why := b.toolchain()
	if why != "" || !botKey.MatchString(key) {
		refuse(w, http.StatusNotFound, "no such bot")
		return
	}
	data, err := os.ReadFile(tc.Program(key, build.Wasm))
	if err != nil {
		refuse(w, http.StatusNotFound, "no such bot")
		return
	}
	// As gobot.wasm: its memory capped (a bot that allocates without
	// bound stops at botMemory, not at the tab's end), its data joined.
	if data, err = capMemory(data, botMemory); err == nil {
		data, err = joinDataSegments(data)
	}
	if err != nil {
		refuse(w, http.StatusInternalServerError, "the built bot: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("Cache-Control", "private, max-age=86400, immutable")
	if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Write(data)
		return
	}
	// A bot is a few megabytes, a quarter of that gzipped at the fastest
	// level, which takes a few tens of milliseconds.
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Vary", "Accept-Encoding")
	z, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	z.Write(data)
	z.Close()
}

// pathBase is the last element of a path on this system.
func pathBase(p string) string {
	return p[strings.LastIndexAny(p, `/\`)+1:]
}
