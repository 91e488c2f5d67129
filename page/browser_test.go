package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament/progress"
)

// These tests build the page as `go run ./cmd/wasm` does, serve it, and
// drive it in headless Chromium with software WebGL (SwiftShader), reading
// the window's state through the test hook the program publishes.

var builtSite = sync.OnceValues(Build)

// browser is a headless Chromium on the served page.
type browser struct {
	t       testing.TB
	ctx     context.Context
	base    string
	mu      sync.Mutex
	console []string
}

func newBrowser(t testing.TB) *browser {
	t.Helper()
	s, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	return newBrowserOn(t, s)
}

// newBrowserOn opens a browser on a site of the test's own.
func newBrowserOn(t testing.TB, s *Site) *browser {
	t.Helper()
	ts := httptest.NewServer(s.handler())
	t.Cleanup(ts.Close)
	return newBrowserAt(t, ts.URL)
}

// newBrowserAt opens a browser on the page served at base.
func newBrowserAt(t testing.TB, base string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium()),
		chromedp.NoSandbox,
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	opts = append(opts, gpuFlags()...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, base: base}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventConsoleAPICalled); ok {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
			b.mu.Lock()
			b.console = append(b.console, string(e.Type)+": "+strings.Join(parts, " "))
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return b
}

// gpuFlags say how Chromium draws. By default SwiftShader stands in for
// a GPU: Chromium composites and rasters "hardware accelerated" through
// it, as Chromium's own GPU-less test machines run (chrome://gpu says
// so). With ARENA_NO_GPU=1 it runs as a person's Chrome does on a machine
// without a GPU: compositing and raster in software, and WebGL alone in
// SwiftShader ("Software only" for each in chrome://gpu), as
// BenchmarkPageFrames can measure it.
func gpuFlags() []chromedp.ExecAllocatorOption {
	if os.Getenv("ARENA_NO_GPU") == "1" {
		return []chromedp.ExecAllocatorOption{chromedp.DisableGPU}
	}
	return []chromedp.ExecAllocatorOption{chromedp.Flag("use-angle", "swiftshader")}
}

// on returns the same browser looking at another site, served by a
// server of its own.
func (b *browser) on(s *Site) *browser {
	ts := httptest.NewServer(s.handler())
	b.t.Cleanup(ts.Close)
	return &browser{t: b.t, ctx: b.ctx, base: ts.URL}
}

// chromium finds the browser that `make test` installs.
func chromium() string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return "chromium"
}

// fatalf fails the test with the page's console, which says why.
func (b *browser) fatalf(format string, args ...any) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.t.Fatalf(format+"\nconsole:\n%s", append(args, strings.Join(b.console, "\n"))...)
}

// open loads the page with a query and waits for its first frame.
func (b *browser) open(query string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(b.base+"/"+query)); err != nil {
		b.fatalf("navigate: %v", err)
	}
	b.waitJS(`window.arenaTimings && window.arenaTimings.firstFrame > 0 && window.arenaTest`, 90*time.Second)
}

// waitJS waits until a JavaScript expression is truthy: for progress,
// however long a busy machine takes, up to the test binary's deadline
// (go test -timeout), which only a page that stopped making progress
// reaches. The timeout argument is ignored unless the test has no
// deadline.
func (b *browser) waitJS(expr string, timeout time.Duration) {
	b.t.Helper()
	if dt, ok := b.t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := dt.Deadline(); ok {
			timeout = time.Until(d) - 30*time.Second
		}
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(timeout))); err != nil {
		shows, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`window.arenaTest ? window.arenaTest.status() : "no test hook"`))
		b.fatalf("waiting for %s: %v\nthe page shows: %s", expr, err, shows)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// status is the window's state as the test hook reports it.
type status struct {
	View     string                `json:"view"`
	Turn     float64               `json:"turn"`
	Computed int                   `json:"computed"`
	Playing  bool                  `json:"playing"`
	Live     bool                  `json:"live"`
	Speed    float64               `json:"speed"`
	Done     bool                  `json:"done"`
	Scores   [2]match.Score        `json:"scores"`
	Result   string                `json:"result"`
	Winner   string                `json:"winner"`
	Reason   string                `json:"reason"`
	Help     bool                  `json:"help"`
	Asking   string                `json:"asking"`
	Seed     uint64                `json:"seed"`
	Targets  map[string][4]float64 `json:"targets"`
	Players  [2]string             `json:"players"`
	GIF      bool                  `json:"gif"`
	Game     string                `json:"game"`
	Preset   string                `json:"preset"`
	Toast    string                `json:"toast"`
	Prompt   string                `json:"prompt"`
	Failed   string                `json:"failed"`
	Faults   []string              `json:"faults"`
	Draws    int                   `json:"draws"`
	Drawn    float64               `json:"drawn"`
	DrawMs   float64               `json:"draw_ms"`
	DrawMax  float64               `json:"draw_max_ms"`
	// UpdateMax is the longest Go-side Update of the last 120 frames,
	// and its layout of the view and following of the turns.
	UpdateMax       float64          `json:"update_max_ms"`
	UpdateMaxLayout float64          `json:"update_max_layout_ms"`
	UpdateMaxFollow float64          `json:"update_max_follow_ms"`
	Gauntlet        *progress.Status `json:"gauntlet"`
	Notes           []string         `json:"notes"` // the gauntlet view's
}

func (b *browser) status() status {
	b.t.Helper()
	var s status
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &s); err != nil {
		b.fatalf("status: %v", err)
	}
	return s
}

// screenshot captures what the page shows. With ARENA_SHOTS set to a
// directory it also keeps it there under name, for people to look at.
func (b *browser) screenshot(name string) []byte {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.fatalf("screenshot: %v", err)
	}
	if dir := os.Getenv("ARENA_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/"+name+".png", png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	return png
}

// click clicks the middle of a target the window reports, once the
// window has laid it out: a view opened by the last click reports its
// controls at their places a frame later.
func (b *browser) click(target string) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`(JSON.parse(window.arenaTest.status()).targets[%q] || [0, 0, 0])[2] > 0`, target), time.Minute)
	r, ok := b.status().Targets[target]
	if !ok {
		b.fatalf("no target %q", target)
	}
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(r[0]+r[2]/2, r[1]+r[3]/2)); err != nil {
		b.fatalf("click %s: %v", target, err)
	}
}

// chooseGame picks a game on the start view and waits until the view
// shows it chosen: the controls below the games move with the game (its
// boards take a row or two), so a click read from the last game's layout
// would land elsewhere.
func (b *browser) chooseGame(game string) {
	b.t.Helper()
	b.click("game:" + game)
	b.waitJS(fmt.Sprintf(`(s => s.view == "start" && s.game == %q)(JSON.parse(window.arenaTest.status()))`, game), time.Minute)
	b.awaitFrames(2) // laid out for it
}

// key presses a key on the page.
func (b *browser) key(k string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(k)); err != nil {
		b.fatalf("key %q: %v", k, err)
	}
}

// colourShare returns the share of a screenshot's pixels within a small
// distance of each colour.
func colourShare(t *testing.T, pngData []byte, cols ...color.RGBA) []float64 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	shares := make([]float64, len(cols))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for i, c := range cols {
				if abs(int(r>>8)-int(c.R))+abs(int(g>>8)-int(c.G))+abs(int(bl>>8)-int(c.B)) < 24 {
					shares[i]++
				}
			}
		}
	}
	for i := range shares {
		shares[i] /= float64(b.Dx() * b.Dy())
	}
	return shares
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPage is the page end to end: it loads and draws the start view; a
// match URL shows the board in both players' colours and plays; keys and
// clicks work; the match ends with the counts of `arena play` with the
// same arguments; and while strong thinks no frame takes 500 ms.
func TestPage(t *testing.T) {
	b := newBrowser(t)
	b.open("")
	if s := b.status(); s.View != "start" {
		t.Fatalf("the page without a query shows %q, want the start view", s.View)
	}
	if shares := colourShare(t, b.screenshot("playground-start"), render.Dark.Panel, render.Dark.Accent); shares[0] < 0.05 || shares[1] < 0.001 {
		b.fatalf("the start view shows %.3f panel and %.4f accent pixels", shares[0], shares[1])
	}
	t.Logf("first frame %.0f ms after the page started (instantiated at %.0f ms)",
		eval[float64](b, `window.arenaTimings.firstFrame`), eval[float64](b, `window.arenaTimings.instantiated`))

	// A frame held 300 ms by the page's thread counts as slow: the
	// frame benchmarks count those over 250 ms.
	eval[any](b, `window.arenaFrames.reset()`)
	b.awaitFrames(1)
	eval[any](b, `window.held = false; requestAnimationFrame(() => { const t = performance.now(); while (performance.now() - t < 300) {} window.held = true; }); 0`)
	b.waitJS(`window.held`, time.Minute)
	b.awaitFrames(2)
	if slow, n := eval[int](b, `window.arenaFrames.slow`), eval[int](b, `window.arenaFrames.count`); slow < 1 {
		b.fatalf("a frame held 300 ms was not counted as slow (%d of %d frames, the longest %.0f ms)", slow, n, eval[float64](b, `window.arenaFrames.max`))
	}

	b.open("?game=life&p1=strong&p2=greedy&seed=7")
	eval[any](b, `window.arenaFrames.reset()`)
	// Look at a settled turn: pause, go to turn 0, step ten turns.
	b.waitJS(`JSON.parse(window.arenaTest.status()).computed >= 12`, 60*time.Second)
	b.key(" ")
	b.waitJS(`!JSON.parse(window.arenaTest.status()).playing`, time.Minute)
	b.click("first")
	for range 10 {
		b.key(kb.ArrowRight)
	}
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn == 10`, time.Minute)
	b.awaitFrames(2)
	shares := colourShare(t, b.screenshot("playground-match"), render.Dark.Player[0], render.Dark.Player[1])
	if shares[0] < 0.002 || shares[1] < 0.002 {
		b.fatalf("the board does not show both players at turn 10: %.4f of the pixels in P1's colour, %.4f in P2's", shares[0], shares[1])
	}
	b.key(" ")
	b.waitJS(`JSON.parse(window.arenaTest.status()).playing`, time.Minute)

	t.Run("frames while strong thinks", func(t *testing.T) {
		// strong and greedy are still computing the match at this point.
		// Frame rates and draw times are measured and logged, not checked:
		// they are the machine's.
		if s := b.status(); s.Done {
			t.Fatalf("the match was computed before the frames were measured")
		}
		before := b.status()
		eval[any](b, `window.arenaFrames.reset()`)
		start := time.Now()
		b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).computed >= %d`, before.Computed+20), time.Minute)
		n, longest := eval[float64](b, `window.arenaFrames.count`), eval[float64](b, `window.arenaFrames.max`)
		s := b.status()
		t.Logf("while strong and greedy compute turns %d to %d in the worker: %.0f frames in %.1f s (%.1f a second), longest %.0f ms; Go draw %.2f ms a frame, longest %.2f ms",
			before.Computed, s.Computed, n, time.Since(start).Seconds(), n/time.Since(start).Seconds(), longest, s.DrawMs, s.DrawMax)
		if s.Draws <= before.Draws {
			b.fatalf("the page drew no frame while the match was computed")
		}
	})

	t.Run("keys and clicks", func(t *testing.T) {
		before := b.status()
		if !before.Playing {
			b.fatalf("the match does not play by itself: %+v", before)
		}
		b.key("h")
		b.waitJS(`JSON.parse(window.arenaTest.status()).help`, 5*time.Second)
		b.awaitFrames(2)
		b.screenshot("playground-help")
		b.key("h")
		b.waitJS(`!JSON.parse(window.arenaTest.status()).help`, 5*time.Second)
		b.click("play")
		b.waitJS(`!JSON.parse(window.arenaTest.status()).playing`, 5*time.Second)
		paused := b.status().Turn
		b.awaitFrames(30) // thirty frames, which would have moved a playing playhead
		if s := b.status(); s.Turn != paused {
			b.fatalf("paused at %v, the playhead moved to %v", paused, s.Turn)
		}
		b.key(" ")
		b.waitJS(`JSON.parse(window.arenaTest.status()).playing`, 5*time.Second)
		b.key("+")
		b.waitJS(`JSON.parse(window.arenaTest.status()).speed == 2`, 5*time.Second)
	})

	t.Run("same result as arena play", func(t *testing.T) {
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
		got := b.status()
		want := cliRecord(t, "life", "strong", "greedy", 7).Result
		if got.Scores != want.Scores || got.Result != want.String() {
			b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
		}
		t.Logf("both end with %s", got.Result)
	})

	t.Run("GIF button downloads what arena record writes", func(t *testing.T) {
		start := time.Now()
		got := b.downloadGIF("arena-life-strong-vs-greedy-seed7.gif")
		t.Logf("the page recorded the GIF in %.1f s: %d bytes", time.Since(start).Seconds(), len(got))
		var want bytes.Buffer
		if err := render.WriteGIF(&want, cliRecord(t, "life", "strong", "greedy", 7), render.DefaultGIF); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			b.fatalf("the downloaded GIF (%d bytes) differs from arena record's (%d bytes)", len(got), want.Len())
		}
	})
}

// downloadGIF presses the GIF key and returns the file the page
// downloads under that name once it has recorded it.
func (b *browser) downloadGIF(name string) []byte {
	b.t.Helper()
	dir := b.t.TempDir()
	err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
	if err != nil {
		b.fatalf("downloads: %v", err)
	}
	b.key("g")
	b.waitJS(`JSON.parse(window.arenaTest.status()).gif`, 10*time.Second)
	b.waitJS(`!JSON.parse(window.arenaTest.status()).gif`, 3*time.Minute)
	// The browser writes the download once the page hands it over.
	for {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(got) > 0 {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cliRecord plays the match in this process, as `arena play` does.
func cliRecord(t *testing.T, game, p1, p2 string, seed uint64) *play.Record {
	return cliPresetRecord(t, game, "", p1, p2, seed)
}

// cliPresetRecord plays the match of a preset ("": the first).
func cliPresetRecord(t *testing.T, game, preset, p1, p2 string, seed uint64) *play.Record {
	setup, err := play.NewSetup(game, preset, seed, p1, p2)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestPageHighDPI loads the page at a device pixel ratio of 2: the window
// draws in device pixels, so the canvas has twice the page's pixels and
// the controls keep their size in CSS pixels.
func TestPageHighDPI(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1000, 700, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	b.open("?game=life&p1=greedy&p2=random&seed=4")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 2`, 60*time.Second)
	w := eval[float64](b, `document.querySelector("canvas").width`)
	cssW := eval[float64](b, `document.querySelector("canvas").clientWidth`)
	if w < 1.9*cssW {
		b.fatalf("canvas %v device pixels for %v CSS pixels at a ratio of 2", w, cssW)
	}
	if r := b.status().Targets["play"]; r[3] < 20 || r[3] > 40 {
		b.fatalf("the play button is %v CSS pixels tall", r[3])
	}
	b.screenshot("playground-hidpi")
}

// TestPageReportsFailure serves a damaged program: the page must say that
// arena could not start, and why, instead of loading for ever.
func TestPageReportsFailure(t *testing.T) {
	s, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	broken := replaced(s, "arena.wasm", []byte("this is not WebAssembly"))
	b := newBrowser(t)
	ts := httptest.NewServer(broken.handler())
	t.Cleanup(ts.Close)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	b.waitJS(`document.getElementById("loading").classList.contains("failed")`, 30*time.Second)
	msg := eval[string](b, `document.getElementById("msg").textContent`)
	if !strings.Contains(msg, "arena could not start") || !strings.Contains(msg, "WebAssembly") {
		b.fatalf("the page says %q", msg)
	}
	b.screenshot("playground-failure")
}

// phone makes the browser a phone held upright: 390x844 CSS pixels.
func (b *browser) phone() {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile)); err != nil {
		b.t.Fatal(err)
	}
}

// phoneCheck fails the test unless every control of the view is on a
// phone's page and a finger's size, and the board is large.
func (b *browser) phoneCheck(view string) {
	b.t.Helper()
	s := b.status()
	for id, r := range s.Targets {
		if id == "send" || id == "move" || id == "board" || strings.HasPrefix(id, "option:") { // places on the board, not buttons
			continue
		}
		if r[0] < 0 || r[1] < 0 || r[0]+r[2] > 391 || r[1]+r[3] > 845 {
			b.fatalf("%s: %s at %v is off the 390x844 page", view, id, r)
		}
		if r[3] < 40 {
			b.fatalf("%s: %s is %.0f CSS pixels tall, under a finger's 40", view, id, r[3])
		}
	}
	if board, ok := s.Targets["board"]; ok && (board[2] < 300 || board[3] < 250) {
		b.fatalf("%s: the board is %v", view, board)
	}
}

// TestPagePhone: on a phone held upright (390x844) the panel goes below
// the board, every control is on screen and a finger's size (40 CSS
// pixels or more), on the start view and in matches of each game.
func TestPagePhone(t *testing.T) {
	b := newBrowser(t)
	b.phone()
	check := b.phoneCheck
	b.open("")
	check("start view")
	b.screenshot("phone-start")
	b.key("5") // the shortest path, whose seat menus hold the most bots
	b.waitJS(`"p1:babysnakes" in JSON.parse(window.arenaTest.status()).targets`, time.Minute)
	b.screenshot("phone-start-pathgame")
	check("the shortest path's start view")
	b.open("?game=life&p1=greedy&p2=random&seed=4")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 1`, time.Minute)
	check("life")
	b.screenshot("phone-life")
	b.open("?game=mapcolor&p1=course&p2=greedy&preset=usa&seed=2")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 0.5`, time.Minute)
	check("mapcolor")
	b.screenshot("phone-mapcolor")
	b.key("\u001b")
	b.waitJS(`JSON.parse(window.arenaTest.status()).targets.yes`, time.Minute)
	check("the question before leaving")
	b.screenshot("phone-leave")
	b.open("?game=colosseum&p1=greedy&p2=you&preset=8&seed=4")
	b.awaitYourTurn("P2")
	check("colosseum")
	b.screenshot("phone-colosseum")
	b.open("?game=evasion&p1=greedy&p2=you&seed=4")
	b.awaitYourTurn("P2")
	check("evasion")
	b.screenshot("phone-evasion")
}

// replaced returns a copy of s with one file's contents replaced.
func replaced(s *Site, name string, data []byte) *Site {
	c := &Site{}
	for _, f := range s.files {
		if f.name == name {
			f = &file{name: f.name, ctype: f.ctype, data: data, gz: gzipBytes(data)}
		}
		c.files = append(c.files, f)
	}
	return c
}

// TestPageWorkerFails: a worker that cannot load, or that sends a turn
// the rules refuse, stops the match with a message in words; the page
// keeps going, keeps what it had and draws nothing it was not sure of.
func TestPageWorkerFails(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=life&p1=strong&p2=greedy&seed=3&worker=missing.wasm")
	b.waitJS(`JSON.parse(window.arenaTest.status()).failed != ""`, time.Minute)
	s := b.status()
	if s.View != "match" || s.Computed != 0 || !strings.Contains(s.Failed, "could not load") || !strings.Contains(s.Failed, "missing.wasm: 404") {
		b.fatalf("with a missing worker: %+v", s)
	}
	b.awaitFrames(2)
	b.screenshot("playground-worker-missing")
	// The page still works: a key still acts.
	b.key("h")
	b.waitJS(`JSON.parse(window.arenaTest.status()).help`, time.Minute)

	// A worker that lies: two good turns of a real match, then a cell
	// off the board.
	site, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	rec := cliRecord(t, "life", "greedy", "random", 5)
	rp, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for k := range 2 {
		m, _ := json.Marshal(play.Message{Kind: play.MsgTurn, Turn: k, ReplayTurn: rp.Turns[k]})
		msgs = append(msgs, string(m))
	}
	msgs = append(msgs, `{"kind":"turn","turn":2,"actions":[[[99,99]],[]]}`, `{"kind":"end"}`)
	list, _ := json.Marshal(msgs)
	liar := replaced(site, "worker.js", []byte(fmt.Sprintf("onmessage = () => { for (const m of %s) { postMessage(m); } };", list)))
	ts := httptest.NewServer(liar.handler())
	t.Cleanup(ts.Close)
	b.base = ts.URL
	b.open("?game=life&p1=greedy&p2=random&seed=5")
	b.waitJS(`JSON.parse(window.arenaTest.status()).failed != ""`, time.Minute)
	if s := b.status(); s.Computed != 2 || !strings.Contains(s.Failed, "stopped after 2 turns") || !strings.Contains(s.Failed, "not legal") || s.Done {
		b.fatalf("after the refused turn: %+v", s)
	}
	b.waitJS(`!JSON.parse(window.arenaTest.status()).playing`, time.Minute)
	b.screenshot("playground-worker-lies")
}

// TestPageLinks: a link of each game with its default bots plays the
// match `arena play` plays (Life and map colouring in TestPage and
// TestPageMapcolor, Colosseum here); a match whose bot thinks on the clock
// is linked with its moves, and the link shows the same match again.
func TestPageLinks(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=colosseum&p1=strong&p2=greedy&preset=6&seed=3")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	got, want := b.status(), cliPresetRecord(t, "colosseum", "6", "strong", "greedy", 3).Result
	if got.Scores != want.Scores || got.Result != want.String() {
		b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
	}
	t.Logf("colosseum strong vs greedy on 6x6, seed 3: both end with %s", got.Result)

	b.open("?game=colosseum&p1=strong:time=150ms&p2=greedy&preset=7&seed=4")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	first := b.status()
	link := b.copyLinkAndOpen("the link carries", "moves=")
	if again := b.status(); again.Computed != first.Computed || again.Result != first.Result || again.Scores != first.Scores {
		b.fatalf("the link shows %d turns ending %q, the match was %d turns ending %q", again.Computed, again.Result, first.Computed, first.Result)
	}
	t.Logf("a time-budget match and its link: both %d turns, %s (link %d characters)", first.Computed, first.Result, len(link))
}

// copyLinkAndOpen copies the match's link (L), once the toast says
// what it carries, checks that the link has param, opens it and waits for
// its match to end; it returns the link.
func (b *browser) copyLinkAndOpen(toast, param string) string {
	b.t.Helper()
	b.key("l")
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).toast.includes(%q)`, toast), time.Minute)
	link := eval[string](b, `location.href`)
	if !strings.Contains(link, param) {
		b.fatalf("the link %s carries no %s (toast %q)", link, param, b.status().Toast)
	}
	b.open("?" + strings.SplitN(link, "?", 2)[1])
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	return link
}
