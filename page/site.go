package page

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet"
)

// file is one file of the site, with its compressed forms. br is nil
// until brotli has compressed it (slow at its best setting: see
// compressBrotli); until then browsers get gzip.
type file struct {
	name, ctype string
	data, gz    []byte
	mu          sync.Mutex
	br          []byte
	etag        string
}

// tag names the file's content, for its ETag.
func (f *file) tag() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.etag == "" {
		sum := sha256.Sum256(f.data)
		f.etag = hex.EncodeToString(sum[:12])
	}
	return f.etag
}

func (f *file) brotli() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.br
}

// Site is the page's files: index.html, the wasm_exec.js of the Go that
// built the programs, the page's program (arena.wasm, which is also its
// match workers' program), the match worker's script (worker.js) and the
// bot worker's script and program (botworker.js, gobot.wasm); and what the server adds
// to them (programs, gauntlets, a tournament's replays). Build makes one
// with the Go at hand, Load from the files a release carries.
type Site struct {
	files   []*file
	replays *servedReplays // a tournament's replays: see -tournament
	// programs are those offered by -player; room serves them, with
	// the token starting one takes when other machines can reach the
	// server.
	programs []players.Program
	room     *programRoom
	// gauntletDir is where the page's gauntlets are played (-gauntlets).
	gauntletDir string
	// serve is how the server plays the matches and gauntlets of the
	// programs offered: its log and its flags (-python, -caps, -quiet).
	serve play.ServeOptions
}

// get returns the file of that name.
func (s *Site) get(name string) *file {
	for _, f := range s.files {
		if f.name == name {
			return f
		}
	}
	return nil
}

// goEnv returns one value of `go env`.
func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// uiGCFlags builds the window's package (ui) without inlining: its code
// lays out and answers clicks, never in a loop that a call's cost would
// show in, and the copies the inliner makes of its helpers weighed 28.8
// KB of the page's program gzipped (docs/speed.md).
const uiGCFlags = "-gcflags=github.com/arena-playground/arena/ui=-l"

// buildWasm builds one package of the module for js/wasm, with modfile
// as its go.mod ("" for the module's own). With ARENA_WASM_NAMES=1 the
// program keeps its functions' names (the name section), so that a
// profile of the page names them (BenchmarkPageFrames with ARENA_PROFILE).
func buildWasm(root, pkg, out, modfile string) ([]byte, error) {
	ldflags := "-ldflags=-s -w"
	if os.Getenv("ARENA_WASM_NAMES") == "1" {
		ldflags = "-ldflags=-w"
	}
	args := []string{"build", "-trimpath", ldflags, uiGCFlags, "-o", out}
	if modfile != "" {
		args = append(args, "-modfile", modfile)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building %s for js/wasm: %v\n%s", pkg, err, out)
	}
	return os.ReadFile(out)
}

// patchedModfile writes, in dir, a go.mod (with its go.sum) that
// replaces Ebitengine with a copy of it with third_party/ebiten's patches
// applied: its shaders written without text/template, whose reflection
// keeps every exported method of the page's program; its shader
// compiler without package regexp; its built-in shaders carried compiled,
// so that no Kage compiler (nor Go's parser) is in the page at all (4.1
// MB, 120 KB and 1.3 MB of the page's program; see
// third_party/ebiten/README.md). The copy is made once per
// version and patches, in the user's cache. It returns the go.mod's path,
// for go build -modfile.
func patchedModfile(root, dir string) (string, error) {
	// go mod download, not go list -m: on a machine that has not fetched
	// the module yet, go list leaves its directory empty.
	cmd := exec.Command("go", "mod", "download", "-json", ebitenModule)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", ebitenModule, err)
	}
	var dl struct{ Dir, Version string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in %q", ebitenModule, out)
	}
	upstream, version := dl.Dir, dl.Version
	patches := map[string][]byte{}
	sum := sha256.New()
	for _, name := range ebitenPatches {
		data, err := os.ReadFile(filepath.Join(root, "third_party", "ebiten", name))
		if err != nil {
			return "", err
		}
		patches[name] = data
		sum.Write(data)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = dir
	}
	copyDir := filepath.Join(cache, "arena", "ebiten", version+"-"+hex.EncodeToString(sum.Sum(nil))[:12])
	if _, err := os.Stat(copyDir); err != nil {
		if err := copyPatched(upstream, copyDir, patches); err != nil {
			return "", fmt.Errorf("a patched copy of Ebitengine %s: %v", version, err)
		}
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	mod = fmt.Appendf(mod, "\nreplace %s => %s\n", ebitenModule, copyDir)
	path := filepath.Join(dir, "page.mod")
	if err := os.WriteFile(path, mod, 0o644); err != nil {
		return "", err
	}
	return path, os.WriteFile(filepath.Join(dir, "page.sum"), sums, 0o644)
}

// ebitenModule is Ebitengine's module, and ebitenPatches the patches of
// it in third_party/ebiten, in the order they apply.
const ebitenModule = "github.com/hajimehoshi/ebiten/v2"

var ebitenPatches = []string{"builtinshader.patch", "noregexp.patch", "precompiledshader.patch"}

// copyPatched copies the module at src to dst (its examples left out: no
// build needs them) and applies the patches, under a temporary name
// renamed when complete.
func copyPatched(src, dst string, patches map[string][]byte) error {
	tmp := dst + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.RemoveAll(tmp)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel == "examples" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, rel), data, 0o644)
	})
	if err != nil {
		return err
	}
	for _, name := range ebitenPatches {
		err := applyPatch(name, patches[name],
			func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(tmp, filepath.FromSlash(p))) },
			func(p string, data []byte) error {
				return os.WriteFile(filepath.Join(tmp, filepath.FromSlash(p)), data, 0o644)
			})
		if err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// Build builds ./cmd/wasm and ./cmd/botworker for js/wasm
// from the module in the working directory, at once, and gathers the
// page's files, gzipped: what go run ./cmd/wasm serves.
func Build() (*Site, error) {
	mod, err := goEnv("GOMOD")
	if err != nil {
		return nil, err
	}
	if mod == "" || mod == os.DevNull {
		return nil, fmt.Errorf("run me from inside the arena module (go run ./cmd/wasm)")
	}
	return buildAt(filepath.Dir(mod))
}

// buildAt builds the page of the arena module checked out at root: the
// module of the working directory, or another revision of it
// (BenchmarkPageFrames with ARENA_BEFORE).
func buildAt(root string) (*Site, error) {
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "arena-wasm")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	defer cleanup.Add(func() { os.RemoveAll(tmp) })()
	var page, bots []byte
	var pageErr, botsErr error
	var wg sync.WaitGroup
	modfile, err := patchedModfile(root, tmp)
	if err != nil {
		return nil, err
	}
	wg.Go(func() { page, pageErr = buildWasm(root, "./cmd/wasm", filepath.Join(tmp, "arena.wasm"), modfile) })
	wg.Go(func() { bots, botsErr = buildWasm(root, "./cmd/botworker", filepath.Join(tmp, "gobot.wasm"), modfile) })
	wg.Wait()
	if err := cmp.Or(pageErr, botsErr); err != nil {
		return nil, err
	}
	if bots, err = capMemory(bots, botMemory); err != nil {
		return nil, fmt.Errorf("gobot.wasm: %v", err)
	}
	if page, err = joinDataSegments(page); err != nil {
		return nil, fmt.Errorf("arena.wasm: %v", err)
	}
	if bots, err = joinDataSegments(bots); err != nil {
		return nil, fmt.Errorf("gobot.wasm: %v", err)
	}
	s := &Site{}
	add := func(name string, data []byte) {
		s.files = append(s.files, &file{name: name, ctype: contentTypes[name], data: data, gz: gzipBytes(data)})
	}
	for _, f := range []struct{ name, path string }{
		{"index.html", filepath.Join(root, "index.html")},
		{"worker.js", filepath.Join(root, "worker.js")},
		{"botworker.js", filepath.Join(root, "botworker.js")},
		{"gauntlet.js", filepath.Join(root, "gauntlet.js")},
		{"boot.js", filepath.Join(root, "boot.js")},
		{"wasm_exec.js", filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")},
	} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		if f.name == "index.html" {
			if data, err = startCard(data); err != nil {
				return nil, err
			}
		}
		add(f.name, data)
	}
	add("arena.wasm", page)
	add("gobot.wasm", bots)
	return s, nil
}

func gzipBytes(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// compressed reports whether every file has its brotli form: a site a
// release carries comes compressed.
func (s *Site) compressed() bool {
	for _, f := range s.files {
		if f.brotli() == nil {
			return false
		}
	}
	return true
}

// compressBrotli compresses every file with brotli at its best setting,
// the files at once. That takes about a minute for the page's program,
// so results are kept in the user's cache directory by content, and the
// same build is compressed once.
func (s *Site) compressBrotli() {
	var wg sync.WaitGroup
	for _, f := range s.files {
		wg.Go(func() { f.setBrotli(cachedBrotli(f.data, true)) })
	}
	wg.Wait()
}

// compressBrotliNow gives every file a brotli form at once: the best one
// where the cache has it, else one at a quality that takes a second for
// the page's program (2.75 MB against 2.32 at the best; gzip's is 3.3),
// so that a server serves brotli from its first request. It reports
// whether any file still wants the best, which compressBrotli then makes.
func (s *Site) compressBrotliNow() (more bool) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, f := range s.files {
		wg.Go(func() {
			br := cachedBrotli(f.data, false)
			if br == nil {
				br = brotliAt(f.data, quickBrotli)
				mu.Lock()
				more = true
				mu.Unlock()
			}
			f.setBrotli(br)
		})
	}
	wg.Wait()
	return more
}

// quickBrotli is the brotli quality a server starts with (see
// compressBrotliNow).
const quickBrotli = 5

func (f *file) setBrotli(br []byte) {
	f.mu.Lock()
	f.br = br
	f.mu.Unlock()
}

// brotliAt compresses data at a brotli quality.
func brotliAt(data []byte, quality int) []byte {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: quality, LGWin: 24})
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// cachedBrotli returns data compressed with brotli at its best, from the
// cache when this very data was compressed before; else, with compress, made
// now and kept in the cache (nil without).
func cachedBrotli(data []byte, compress bool) []byte {
	sum := sha256.Sum256(data)
	var path string
	if dir, err := os.UserCacheDir(); err == nil {
		path = filepath.Join(dir, "arena", "brotli", hex.EncodeToString(sum[:])+".br")
		if br, err := os.ReadFile(path); err == nil {
			return br
		}
	}
	if !compress {
		return nil
	}
	br := brotliAt(data, brotli.BestCompression)
	if path != "" && os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
		if os.WriteFile(tmp, br, 0o644) == nil {
			os.Rename(tmp, path)
		}
	}
	return br
}

// write puts the site's files in dir, each with its .gz and .br forms
// beside it for hosts that serve precompressed files. The page fetches
// the programs itself, so it works whatever type a static host gives
// them. Each file is written as a tournament's are (safefile.Dir): a link
// or a file planted in its place is replaced, never written through.
func (s *Site) write(dir string) error {
	d, err := safefile.OpenDir(dir, true)
	if err != nil {
		return err
	}
	defer d.Close()
	for _, f := range s.files {
		for name, data := range map[string][]byte{f.name: f.data, f.name + ".gz": f.gz, f.name + ".br": f.brotli()} {
			if data == nil {
				continue
			}
			if err := d.WriteFile(name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
				return err
			}
		}
	}
	return nil
}

// accepts reports whether an Accept-Encoding header takes the coding.
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) != coding {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// handler serves the site, each file brotli- or gzip-compressed as the
// browser accepts.
// Files serves the site's files alone, none of its server's rooms (the
// programs, the gauntlets, a tournament's replays): the playground a
// ladder serves beside its pages (ladder.Server.Playground).
func (s *Site) Files() http.Handler {
	mux := http.NewServeMux()
	s.fileRoutes(mux)
	return mux
}

// fileRoutes serves each file of the site at its name, and index.html
// at the root.
func (s *Site) fileRoutes(mux *http.ServeMux) {
	serve := func(f *file) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Type", f.ctype)
			h.Set("Cache-Control", "no-cache")
			h.Set("Vary", "Accept-Encoding")
			h.Set("X-Uncompressed-Length", strconv.Itoa(len(f.data)))
			body, ae, coding := f.data, r.Header.Get("Accept-Encoding"), "identity"
			if br := f.brotli(); br != nil && accepts(ae, "br") {
				body, coding = br, "br"
			} else if accepts(ae, "gzip") {
				body, coding = f.gz, "gzip"
			}
			if coding != "identity" {
				h.Set("Content-Encoding", coding)
			}
			// no-cache asks the browser to check each time; the ETag
			// lets it keep what it has (304), and with it the code it
			// compiled from the page's program the last time.
			// Weak: the brotli form gets better once compressBrotli is
			// done, the content it decodes to the same.
			etag := fmt.Sprintf(`W/"%s-%s"`, f.tag(), coding)
			h.Set("ETag", etag)
			if r.Header.Get("If-None-Match") == etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			h.Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	}
	for _, f := range s.files {
		mux.HandleFunc("GET /"+f.name, serve(f))
	}
	mux.HandleFunc("GET /{$}", serve(s.get("index.html")))
}

func (s *Site) handler() http.Handler {
	mux := http.NewServeMux()
	s.fileRoutes(mux)
	if s.room == nil {
		s.room = newProgramRoom(s.programs, "", s.serve)
	}
	s.room.routes(mux)
	gdir := s.gauntletDir
	if gdir == "" {
		gdir = gauntlet.DefaultDir()
	}
	(&gauntletRoom{dir: gdir, serve: s.serve, run: map[string]*gauntletRun{}}).routes(mux, s.room)
	(&botRoom{}).routes(mux, s.room)
	if s.replays != nil {
		mux.HandleFunc("GET /replays/{name}", func(w http.ResponseWriter, r *http.Request) {
			rel, ok := s.replays.names[r.PathValue("name")]
			if !ok {
				http.Error(w, "no such replay in the tournament", http.StatusNotFound)
				return
			}
			// Only a regular file inside the directory, at most 64 MB: a
			// link out of it, a pipe or a device put in a replay's place
			// is refused, not followed, read or waited on.
			data, err := s.replays.dir.ReadFile(rel)
			if err != nil {
				http.Error(w, untrusted.Text(err.Error()), http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(data)
		})
	}
	return mux
}

// servedReplays are a tournament's replays the page's server serves: the
// files its journal names (replays/ID.json, checked as show and report
// check every line), read from its directory.
type servedReplays struct {
	dir   *safefile.Dir
	names map[string]string // ID.json: its file, relative to dir
}

// tournamentReplays opens a tournament's directory for its replays: one
// that does not exist, or holds no tournament, is an error, not a server
// of no replays.
func tournamentReplays(dir string) (*servedReplays, error) {
	d, err := safefile.OpenDir(dir, false)
	if err != nil {
		return nil, fmt.Errorf("-tournament: %v", err)
	}
	r := &servedReplays{dir: d, names: map[string]string{}}
	err = tournament.Entries(dir, func(e tournament.Entry) error {
		if e.Replay != "" {
			r.names[e.ID+".json"] = e.Replay
		}
		return nil
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	return r, nil
}

// serve listens on addr and serves the site until the process ends.
func serve(addr string, s *Site, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	a := ln.Addr().(*net.TCPAddr)
	link, where := announce(a)
	token := ""
	if !a.IP.IsLoopback() && len(s.programs) > 0 {
		// Other machines can reach the page: the programs it offers
		// start only for those who have the link with the token.
		token = newToken()
		link += "?token=" + token
	}
	s.room = newProgramRoom(s.programs, token, s.serve)
	fmt.Fprintf(stderr, "arena: the playground is on %s, %s (Ctrl-C to stop)\n", link, where)
	openBrowser(link)
	return newServer(s.handler(), serverLimits).Serve(ln)
}

// announce returns the link to open on this machine and, in words, who
// else can reach the address the server listens on: -addr :8080 listens
// on every interface, which the announcement must not hide behind a
// localhost link.
func announce(a *net.TCPAddr) (link, where string) {
	port := strconv.Itoa(a.Port)
	switch {
	case a.IP == nil || a.IP.IsUnspecified():
		return "http://" + net.JoinHostPort("localhost", port) + "/",
			"listening on every network interface (port " + port + "): other machines can open it too"
	case a.IP.IsLoopback():
		return "http://" + net.JoinHostPort("localhost", port) + "/", "listening on " + a.IP.String() + " only: this machine alone can open it"
	}
	return "http://" + net.JoinHostPort(a.IP.String(), port) + "/", "listening on " + a.IP.String() + ": machines on its network can open it"
}

// limits bound what one connection may take of the server: a client that
// connects and sends nothing, or reads slowly forever, is let go.
type limits struct {
	header, read, write, idle time.Duration
}

// serverLimits lets a slow link fetch the 3.5 MB page in minutes, and
// no more.
var serverLimits = limits{header: 10 * time.Second, read: 30 * time.Second, write: 5 * time.Minute, idle: 2 * time.Minute}

func newServer(h http.Handler, l limits) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: l.header, ReadTimeout: l.read, WriteTimeout: l.write,
		IdleTimeout: l.idle, MaxHeaderBytes: 64 << 10}
}

// openBrowser asks the desktop to open the page, where there is one; a
// machine without a browser just keeps the printed link.
func openBrowser(link string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", link)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", link)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return
		}
		cmd = exec.Command("xdg-open", link)
	}
	cmd.Start()
}
