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
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdpinput "github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament"
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
	Gauntlet *progress.Status      `json:"gauntlet"`
	Notes    []string              `json:"notes"` // the gauntlet view's
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
	g, err := match.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	cfg := match.DefaultConfig(g)
	if preset != "" {
		p, err := match.LookupPreset(g, preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg = p.Config
	}
	setup := play.Setup{Game: g, Config: cfg, Seed: seed}
	for side, spec := range []string{p1, p2} {
		if setup.Players[side], err = play.ParseSpec(spec); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// awaitYourTurn waits until the page asks side, a person, for a move and
// shows where to click.
func (b *browser) awaitYourTurn(side string) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).asking == %q`, side), 30*time.Second)
	b.waitJS(`JSON.parse(window.arenaTest.status()).targets.move`, 10*time.Second)
}

// awaitComputed waits until at least n turns of the match are computed.
func (b *browser) awaitComputed(n int) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).computed >= %d`, n), 30*time.Second)
}

// awaitFrames waits until the page has drawn n more frames, for as long
// as it keeps drawing: it fails only when 30 s pass without a frame (a
// busy machine draws a few a second).
func (b *browser) awaitFrames(n int) {
	b.t.Helper()
	target := b.status().Draws + n
	for drawn := b.status().Draws; drawn < target; drawn = b.status().Draws {
		b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).draws > %d`, drawn), 30*time.Second)
	}
}

// clickAndAwaitPrompt clicks a target and waits until the window has
// taken the click: the person's prompt changes.
func (b *browser) clickAndAwaitPrompt(target string) {
	b.t.Helper()
	before := b.status().Prompt
	b.click(target)
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).prompt != %q`, before), 30*time.Second)
}

// playSuggested plays, click by click, the move the window suggests to
// the person whose turn it is (target "move": a square, then its side; a
// state, then a colour), until the match has taken it. A click the
// window does not take, one that lands as the board moves under it (the
// panel making room for the prompt on a busy machine), is made again:
// each round waits for the frames in which the window takes a queued
// click, not for a time.
func (b *browser) playSuggested() {
	b.t.Helper()
	before := b.status()
	for range 10 {
		b.click("move")
		b.awaitFrames(3)
		if s := b.status(); s.Computed > before.Computed || s.Asking != before.Asking {
			return
		}
	}
	b.fatalf("ten clicks on the suggested move and the window did not take the move: %+v", b.status())
}

// TestPageHumanPlay plays a person's turns through the page. In Life a
// click on a legal cell and Enter send the move; in Colosseum a click on
// a reachable square and one on its side. Each time the match must go on.
func TestPageHumanPlay(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=life&p1=you&p2=random&seed=3")
	for turn := range 3 {
		b.awaitYourTurn("P1")
		b.click("move")
		b.key("\r")
		b.awaitComputed(turn + 1)
	}
	if s := b.status(); s.Computed < 3 || s.Done {
		b.fatalf("after three Life moves: %+v", s)
	}

	b.open("?game=colosseum&p1=greedy&p2=you&preset=10&seed=4")
	for turn := range 2 {
		b.awaitYourTurn("P2")
		b.playSuggested() // a square, then its side: the move goes
		b.awaitComputed(2*turn + 2)
	}

	// Map colouring: a click on a state you may colour, one on a swatch.
	b.open("?game=mapcolor&p1=course&p2=you&preset=usa&seed=2")
	for turn := range 2 {
		b.awaitYourTurn("P2")
		b.clickAndAwaitPrompt("move") // the state
		if turn == 1 {
			b.screenshot("playground-mapcolor-you")
		}
		b.playSuggested() // its first colour: the move goes
		b.awaitComputed(2*turn + 2)
	}
}

// drop drags a file from outside the page and drops it on the middle of
// the window, as a person does from their file manager.
func (b *browser) drop(path string) {
	b.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		b.fatalf("%v", err)
	}
	w, h := eval[float64](b, `window.innerWidth`), eval[float64](b, `window.innerHeight`)
	data := &cdpinput.DragData{Items: []*cdpinput.DragDataItem{}, Files: []string{abs}, DragOperationsMask: 1}
	err = chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []cdpinput.DispatchDragEventType{cdpinput.DispatchDragEventTypeDragEnter,
			cdpinput.DispatchDragEventTypeDragOver, cdpinput.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(ctx, tg, cdpinput.DispatchDragEvent, cdpinput.DispatchDragEventParams{Type: typ, X: w / 2, Y: h / 2, Data: data}); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		b.fatalf("drop %s: %v", path, err)
	}
}

// TestPageOpensADroppedFile drops a course's input.txt on a Life match:
// the page opens it as a map-colouring game, drawn as a graph, and offers
// it as a board; a damaged file is refused with its line.
func TestPageOpensADroppedFile(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=life&p1=strong&p2=greedy&seed=3")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match"`, 30*time.Second)
	b.drop("../engine/mapcolor/testdata/case1100.txt")
	b.waitJS(`JSON.parse(window.arenaTest.status()).game == "mapcolor"`, 30*time.Second)
	if s := b.status(); s.Preset != "file:case1100.txt" || s.View != "match" || !strings.Contains(s.Toast, "playing case1100.txt") {
		b.fatalf("after the drop: %+v", s)
	}
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 60*time.Second)
	b.awaitFrames(2)
	b.screenshot("playground-file")

	bad := filepath.Join(t.TempDir(), "broken.txt")
	data, _ := os.ReadFile("../engine/mapcolor/testdata/t5.txt")
	os.WriteFile(bad, bytes.Replace(data, []byte("R: 10, G: 5, B: 0"), []byte("R: 10, G: five, B: 0"), 1), 0o644)
	b.drop(bad)
	b.waitJS(`JSON.parse(window.arenaTest.status()).toast.includes("broken.txt:4")`, 30*time.Second)
	if s := b.status(); s.Game != "mapcolor" || s.Preset != "file:case1100.txt" {
		b.fatalf("a broken file replaced the match: %+v", s)
	}
}

// TestPageMapcolor watches a map-colouring game on a random Voronoi map
// to its end: the page and arena play (natively compiled) make the same
// map and the same game, and the page shows the map's colours.
func TestPageMapcolor(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 3`, 60*time.Second)
	shot := b.screenshot("playground-mapcolor")
	red, green := render.ColourOf("R", 0), render.ColourOf("G", 0)
	if shares := colourShare(t, shot, red, green); shares[0] < 0.005 || shares[1] < 0.005 {
		b.fatalf("the map shows %.4f red and %.4f green pixels", shares[0], shares[1])
	}
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 3*time.Minute)
	got := b.status()
	want := cliPresetRecord(t, "mapcolor", "voronoi", "course", "greedy", 5).Result
	if got.Scores != want.Scores || got.Result != want.String() {
		b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
	}
	t.Logf("both end with %s", got.Result)
}

// TestPageEvasion watches a whole Evasion session on the page: the field
// shows both players' colours (the prey's region is tinted), and the page
// ends with the result arena play gives.
func TestPageEvasion(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=evasion&p1=strong&p2=greedy&seed=7")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 200`, 2*time.Minute)
	shot := b.screenshot("playground-evasion")
	if shares := colourShare(t, shot, render.Dark.Player[0], render.Dark.Player[1]); shares[0] < 0.0002 || shares[1] < 0.0002 {
		b.fatalf("the field shows %.5f and %.5f of the players' colours", shares[0], shares[1])
	}
	b.key("=") // faster: a session is hundreds of ticks
	b.key("=")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 3*time.Minute)
	got := b.status()
	want := cliPresetRecord(t, "evasion", "", "strong", "greedy", 7).Result
	if got.Scores != want.Scores || got.Result != want.String() {
		b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
	}
	t.Logf("both end with %s", got.Result)
}

// TestPagePathgame opens the shortest path's start view (its seat menus
// list every reference bot) and watches a pairing on a generated 300-node
// graph: the page ends with the result arena play gives.
func TestPagePathgame(t *testing.T) {
	b := newBrowser(t)
	b.open("")
	b.key("5")
	b.waitJS(`"p1:babysnakes" in JSON.parse(window.arenaTest.status()).targets`, time.Minute)
	b.screenshot("playground-pathgame-start")
	b.open("?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn >= 5`, 2*time.Minute)
	b.screenshot("playground-pathgame")
	b.key("=")
	b.key("=")
	b.key("=")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 3*time.Minute)
	got := b.status()
	want := cliPresetRecord(t, "pathgame", "gen-300", "strong", "greedy", 5).Result
	if got.Scores != want.Scores || got.Result != want.String() {
		b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
	}
	t.Logf("both end with %s", got.Result)
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

// spin keeps one core busy until the function it returns is called: the
// load a match's computing puts beside the page.
func spin() (stop func()) { return spinShare(1) }

// spinShare keeps a share of one core busy (of every 10 ms, that share
// spinning and the rest asleep) until the function it returns is called.
func spinShare(share float64) (stop func()) {
	var done atomic.Bool
	busy := time.Duration(share * float64(10*time.Millisecond))
	go func() {
		goruntime.LockOSThread()
		for !done.Load() {
			start := time.Now()
			for time.Since(start) < busy {
			}
			if busy < 10*time.Millisecond {
				time.Sleep(10*time.Millisecond - busy)
			}
		}
	}()
	return func() { done.Store(true) }
}

// BenchmarkBlankUnderLoad measures what any computing beside the page
// costs its frames on this machine: the blank Ebitengine page's rate
// while a share of one core is kept busy, as a ratio to its rate idle
// just before (medians of 3 rounds), and the cores Chromium's processes
// take while it draws idle (Linux: /proc). In software WebGL the blank
// page takes nearly every core it can: a match's worker computing on one
// of two cores takes its frames whatever the page draws.
func BenchmarkBlankUnderLoad(bm *testing.B) {
	s, err := builtSite()
	if err != nil {
		bm.Fatal(err)
	}
	blank, err := blankSite(s)
	if err != nil {
		bm.Fatal(err)
	}
	b := newBrowserOn(bm, blank)
	rate := func() (fps, cores float64) {
		b.open("")
		b.awaitFrames(30)
		cpu0, t0 := chromiumCPU(), time.Now()
		fr, _ := measureRate(b, false, "", "", bm)
		return fr.fps, (chromiumCPU() - cpu0).Seconds() / time.Since(t0).Seconds()
	}
	for bm.Loop() {
		shares := []float64{0.1, 0.25, 0.5, 1}
		ratios := make([][]float64, len(shares))
		var idleCores []float64
		for range 3 {
			for i, share := range shares {
				idle, cores := rate()
				stop := spinShare(share)
				busy, _ := rate()
				stop()
				ratios[i] = append(ratios[i], busy/idle)
				idleCores = append(idleCores, cores)
			}
		}
		for i, share := range shares {
			bm.ReportMetric(median(ratios[i]), fmt.Sprintf("x-idle-at-%.0f%%-of-a-core", 100*share))
		}
		bm.ReportMetric(median(idleCores), "chromium-cores-idle")
		bm.ReportMetric(float64(goruntime.NumCPU()), "cores")
	}
}

// chromiumCPU is the CPU time Chromium's processes (any process named
// chrom…) have taken so far, from /proc; 0 where there is none.
func chromiumCPU() time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: utime and stime are the 14th and
		// 15th fields, the comm may hold spaces.
		open, shut := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
		if open < 0 || shut < open || !bytes.HasPrefix(data[open+1:shut], []byte("chrom")) {
			continue
		}
		f := strings.Fields(string(data[shut+1:]))
		if len(f) < 13 {
			continue
		}
		var u, s int64
		fmt.Sscan(f[11], &u)
		fmt.Sscan(f[12], &s)
		ticks += u + s
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// BenchmarkPageFrames measures the page's frame rate on each view at
// 1280x800, three times, each right after that of a blank Ebitengine program
// (internal/blank, built here with the same Ebitengine) on the same
// index.html in the same browser: each view reports its rate as a ratio
// to the blank page's just before (x-blank), so that a machine that gets
// busier or quieter during the run moves both, beside the longest frame,
// the frames over 250 ms (slow), the Go side of a frame and the share of
// the screen a frame drew.
//
// With ARENA_TRACE set to a directory, each round is also traced from its
// 31st frame, a stream from its navigation (the rates are then not
// comparable with untraced ones): the traces are written there for
// Perfetto's UI, and the log (go test -v) says where each slow frame's
// time went (slowFrames). With ARENA_PROFILE
// set to a directory, the main thread's CPU is profiled while each stream
// comes in (views measured during their match): the profiles are written
// there, and the log names the functions that took the time (build the
// page with ARENA_WASM_NAMES=1 for Go's names). With ARENA_BEFORE set to
// a revision, each stream is also measured on the page built at that
// revision, in the same rounds (the -before metrics): a change's before
// and after from one run.
func BenchmarkPageFrames(bm *testing.B) {
	// The site offers the tests' programs: the last view plays one.
	s := programSite(bm)
	blank, err := blankSite(s)
	if err != nil {
		bm.Fatal(err)
	}
	b := newBrowserOn(bm, s)
	onBlank := b.on(blank)
	var before *browser
	if rev := os.Getenv("ARENA_BEFORE"); rev != "" {
		old, err := siteAt(bm, rev)
		if err != nil {
			bm.Fatal(err)
		}
		// The page of then, served by the server of now.
		before = b.on(&Site{files: old.files, programs: s.programs, gauntletDir: s.gauntletDir, serve: s.serve})
	}
	traceDir := os.Getenv("ARENA_TRACE")
	profileDir := os.Getenv("ARENA_PROFILE")
	for _, dir := range []string{traceDir, profileDir} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			bm.Fatal(err)
		}
	}
	// rate plays a view for 240 frames after its first 30, once its match
	// is computed (a bot computing in the worker shares the CPU with the
	// drawing); the longest and the slow frames count those while it
	// computes too.
	rate := func(b *browser, query string, match bool, name string) (fr frames, st status) {
		b.open(query)
		b.awaitFrames(30)
		return measureRate(b, match, name, traceDir, bm)
	}
	// Life at 4096x4096, as a person opens it: the config dropped on a
	// Life match (a link cannot carry a file), 16 generations.
	life4096 := filepath.Join(bm.TempDir(), "life-4096.json")
	if err := os.WriteFile(life4096, []byte(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": 4096, "cols": 4096, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": 16, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`), 0o644); err != nil {
		bm.Fatal(err)
	}
	// during counts the frames drawn while a match is computed, from the
	// page's first frame to the match's end, as its turns stream in; a
	// query with a file to drop counts from the drop's match instead.
	during := func(b *browser, query, drop string) (fr frames, st status) {
		var start time.Time
		wait := func() { b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute) }
		run := func() {
			b.open(query)
			if drop != "" {
				b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match"`, time.Minute)
				b.drop(drop)
				b.waitJS(`JSON.parse(window.arenaTest.status()).preset == "file:`+filepath.Base(drop)+`"`, time.Minute)
			}
			eval[any](b, `window.arenaFrames.reset()`)
			start = time.Now()
			if profileDir == "" {
				wait()
				return
			}
			p := b.profile(wait)
			if err := os.WriteFile(filepath.Join(profileDir, fileName(query)+".cpuprofile"), profileJSON(p), 0o644); err != nil {
				bm.Fatal(err)
			}
			for _, line := range topFunctions(p, 60) {
				bm.Logf("%s: %s", query, line)
			}
		}
		if traceDir == "" {
			run()
		} else {
			// From the navigation: a trace started after the first
			// frame misses the frames right after it.
			b.saveTrace(bm, traceDir, fileName(query), run)
		}
		fr.n = eval[int](b, `window.arenaFrames.count`)
		fr.fps = float64(fr.n) / time.Since(start).Seconds()
		fr.longest, fr.slow = eval[float64](b, `window.arenaFrames.max`), eval[int](b, `window.arenaFrames.slow`)
		if fr.slow > 0 {
			bm.Logf("%s: the frames over 250 ms: %s", query, slowGaps(eval[[]float64](b, `window.arenaFrames.gaps`)))
		}
		return fr, b.status()
	}
	for _, c := range []struct {
		name, query string
		during      bool   // measured while the match is computed, not after
		drop        string // a config file dropped on the query's match
	}{
		{"start", "", false, ""},
		{"life", "?game=life&p1=strong&p2=greedy&seed=7", false, ""},
		{"colosseum", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7", false, ""},
		{"mapcolor", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5", false, ""},
		{"evasion", "?game=evasion&p1=strong&p2=greedy&seed=7", false, ""},
		{"pathgame", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5", false, ""},
		// The thinking layer on, the playhead held at a turn whose notes
		// mark the board: the marks are drawn every frame.
		{"life-thinking", "?game=life&p1=strong&p2=greedy&seed=7&thinking=1&turn=20", false, ""},
		{"colosseum-thinking", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7&thinking=1&turn=6", false, ""},
		{"mapcolor-thinking", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5&thinking=1&turn=3", false, ""},
		{"evasion-thinking", "?game=evasion&p1=strong&p2=greedy&seed=7&thinking=1&turn=41", false, ""},
		{"pathgame-thinking", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5&thinking=1&turn=6", false, ""},
		// The layer on while the match plays: each turn's marks drawn as
		// the playhead reaches it.
		{"life-thinking-playing", "?game=life&p1=strong&p2=greedy&seed=7&thinking=1", false, ""},
		{"colosseum-thinking-playing", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7&thinking=1", false, ""},
		{"mapcolor-thinking-playing", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5&thinking=1", false, ""},
		{"evasion-thinking-playing", "?game=evasion&p1=strong&p2=greedy&seed=7&thinking=1", false, ""},
		{"pathgame-thinking-playing", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5&thinking=1", false, ""},
		// A student's Evasion client plays on the server while the page
		// draws what streams in (30,000 turns, several seconds): its
		// frames are counted from the page's first to the match's end.
		{"program", "?game=evasion&p1=served:client&p2=strong&seed=7", true, ""},
		// Its peer: a session of built-in bots counted the same way, from
		// the first frame to the end of the worker's computing.
		{"computing", "?game=evasion&p1=greedy&p2=strong&seed=7", true, ""},
		// The long streams of Step 29: an Evasion session of 30,269
		// ticks (walls every tick, two at most), the shortest path on
		// 1,000 nodes, each counted from the first frame to the end of
		// the worker's computing.
		{"stream-evasion", "?game=evasion&preset=2-1&p1=strong&p2=greedy&seed=3", true, ""},
		{"stream-pathgame", "?game=pathgame&preset=gen-1000&p1=strong&p2=greedy&seed=5", true, ""},
		{"stream-life-4096", "?game=life&p1=random&p2=random&seed=1", true, life4096},
	} {
		bm.Run(c.name, func(bm *testing.B) {
			for bm.Loop() {
				// Three rounds, the median reported: one round's rate in
				// software WebGL varies by a tenth or more.
				var views, blanks, busyBlanks, befores []frames
				var st status
				for round := range 3 {
					bl, _ := rate(onBlank, "", false, fmt.Sprintf("%s-%d-blank", c.name, round))
					if c.during {
						// The blank page again with one core taken, as
						// the match's computing takes one: on two cores
						// the page then has the other, and so has the
						// blank page here.
						stop := spin()
						bb, _ := rate(onBlank, "", false, fmt.Sprintf("%s-%d-blank-busy", c.name, round))
						stop()
						busyBlanks = append(busyBlanks, bb)
					}
					var v frames
					var s status
					if c.during {
						v, s = during(b, c.query, c.drop)
						bm.Logf("%s round %d: %d frames while %d turns were computed", c.name, round, v.n, s.Computed)
						if before != nil {
							w, _ := during(before, c.query, c.drop)
							bm.Logf("%s round %d, before: %d frames", c.name, round, w.n)
							befores = append(befores, w)
						}
					} else {
						v, s = rate(b, c.query, c.query != "", fmt.Sprintf("%s-%d", c.name, round))
					}
					views, blanks, st = append(views, v), append(blanks, bl), s
				}
				var ratios []float64
				for i := range views {
					ratios = append(ratios, views[i].fps/blanks[i].fps)
				}
				bm.ReportMetric(median(fpsOf(views)), "frames/s")
				bm.ReportMetric(median(fpsOf(blanks)), "blank-frames/s")
				bm.ReportMetric(median(ratios), "x-blank")
				bm.ReportMetric(slices.Min(ratios), "x-blank-min")
				if busyBlanks != nil {
					var busy []float64
					for i := range views {
						busy = append(busy, views[i].fps/busyBlanks[i].fps)
					}
					bm.ReportMetric(median(fpsOf(busyBlanks)), "busy-blank-frames/s")
					bm.ReportMetric(median(busy), "x-busy-blank")
					bm.ReportMetric(longestOf(busyBlanks), "busy-blank-longest-frame-ms")
				}
				if befores != nil {
					var was, wasBusy []float64
					for i := range befores {
						was = append(was, befores[i].fps/blanks[i].fps)
						wasBusy = append(wasBusy, befores[i].fps/busyBlanks[i].fps)
					}
					bm.ReportMetric(median(fpsOf(befores)), "before-frames/s")
					bm.ReportMetric(median(was), "x-blank-before")
					bm.ReportMetric(median(wasBusy), "x-busy-blank-before")
					bm.ReportMetric(longestOf(befores), "before-longest-frame-ms")
					slow, _ := slowOf(befores)
					bm.ReportMetric(float64(slow), "before-slow-frames")
				}
				bm.ReportMetric(longestOf(views), "longest-frame-ms")
				bm.ReportMetric(longestOf(blanks), "blank-longest-frame-ms")
				vs, vn := slowOf(views)
				bs, bn := slowOf(blanks)
				bm.ReportMetric(float64(vs), "slow-frames")
				bm.ReportMetric(float64(vn), "frames")
				bm.ReportMetric(float64(bs), "blank-slow-frames")
				bm.ReportMetric(float64(bn), "blank-frames")
				bm.ReportMetric(st.DrawMs, "go-draw-ms")
				bm.ReportMetric(st.DrawMax, "go-draw-max-ms")
				bm.ReportMetric(100*st.Drawn, "%-drawn")
			}
		})
	}
}

// measureRate counts a view's frames: with match, once its match is
// computed; with traceDir, traced (see BenchmarkPageFrames).
func measureRate(b *browser, match bool, name, traceDir string, bm *testing.B) (fr frames, st status) {
	measure := func() {
		eval[any](b, `window.arenaFrames.reset()`)
		if match {
			b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
		}
		fr.longest, fr.slow = eval[float64](b, `window.arenaFrames.max`), eval[int](b, `window.arenaFrames.slow`)
		fr.n = eval[int](b, `window.arenaFrames.count`)
		eval[any](b, `window.arenaFrames.reset()`)
		start := time.Now()
		b.awaitFrames(240)
		n := eval[int](b, `window.arenaFrames.count`)
		fr.fps = float64(n) / time.Since(start).Seconds()
		fr.longest = max(fr.longest, eval[float64](b, `window.arenaFrames.max`))
		fr.slow += eval[int](b, `window.arenaFrames.slow`)
		fr.n += n
		st = b.status()
	}
	if traceDir == "" {
		measure()
		return fr, st
	}
	b.saveTrace(bm, traceDir, name, measure)
	return fr, st
}

// saveTrace traces do (see trace) into dir/name.json, for Perfetto's UI,
// and logs where each slow frame's time went (slowFrames).
func (b *browser) saveTrace(bm *testing.B, dir, name string, do func()) {
	data, events := b.trace(do)
	if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
		bm.Fatal(err)
	}
	for _, line := range slowFrames(events) {
		bm.Logf("%s: %s", name, line)
	}
}

// fileName is a page's query as a file's name.
func fileName(query string) string {
	return strings.NewReplacer("?", "", "&", "-", "=", "-").Replace(query)
}

// slowGaps says which of a page's frames (the intervals it measured)
// took over 250 ms, and how long: "frame 3 of 40, 331 ms".
func slowGaps(gaps []float64) string {
	var out []string
	for i, ms := range gaps {
		if ms > 250 {
			out = append(out, fmt.Sprintf("frame %d of %d, %.0f ms", i+1, len(gaps), ms))
		}
	}
	return strings.Join(out, "; ")
}

// frames is what one round saw of a page: its rate once the match was
// computed, its longest frame, and how many of its n frames took over
// 250 ms (slow), computing included.
type frames struct {
	fps, longest float64
	slow, n      int
}

func fpsOf(fs []frames) []float64 {
	var out []float64
	for _, f := range fs {
		out = append(out, f.fps)
	}
	return out
}

func longestOf(fs []frames) float64 {
	var m float64
	for _, f := range fs {
		m = max(m, f.longest)
	}
	return m
}

func slowOf(fs []frames) (slow, n int) {
	for _, f := range fs {
		slow, n = slow+f.slow, n+f.n
	}
	return slow, n
}

// median returns the middle of vs (the mean of the two middle ones for
// an even count).
func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// siteAt builds the page as it was at a revision of the repository: its
// files (git archive) unpacked in a temporary directory and built there.
func siteAt(t testing.TB, rev string) (*Site, error) {
	dir := t.TempDir()
	tarball := filepath.Join(dir, "rev.tar")
	for _, c := range []*exec.Cmd{
		exec.Command("git", "-C", "..", "archive", "-o", tarball, rev),
		exec.Command("tar", "-xf", tarball, "-C", dir),
	} {
		if out, err := c.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: %v: %s", strings.Join(c.Args, " "), err, out)
		}
	}
	return buildAt(dir)
}

// blankSite is s with the blank Ebitengine program in arena.wasm's place.
func blankSite(s *Site) (*Site, error) {
	dir, err := os.MkdirTemp("", "arena-blank")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	data, err := buildWasm(root, "./internal/blank", filepath.Join(dir, "blank.wasm"), "") // as Ebitengine is
	if err != nil {
		return nil, err
	}
	out := &Site{}
	for _, f := range s.files {
		if f.name == "arena.wasm" {
			f = &file{name: f.name, ctype: f.ctype, data: data, gz: gzipBytes(data)}
		}
		out.files = append(out.files, f)
	}
	return out, nil
}

// A tournament's report links each game as ?replay=/replays/ID.json: the
// page served with -tournament fetches it and shows the game already
// played, stopped at the turn asked, with the tournament's result; a
// replay file dropped on the page opens the same way.
func TestPageOpensATournamentReplay(t *testing.T) {
	dir := t.TempDir()
	g, _ := match.Lookup("colosseum")
	p, _ := match.LookupPreset(g, "7")
	cfg, _ := json.Marshal(p.Config)
	plan := &tournament.Plan{Game: "colosseum", Config: cfg, Seed: 4, Format: tournament.RoundRobin, Rounds: 1,
		Entrants: []tournament.Entrant{{Name: "deep", Spec: "strong:nodes=3000"}, {Name: "quick", Spec: "greedy"}}}
	if _, err := tournament.Run(t.Context(), plan, tournament.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	var game tournament.Entry
	tournament.Entries(dir, func(e tournament.Entry) error {
		if e.ID == "r0-p0-b" {
			game = e
		}
		return nil
	})
	built, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	s := *built
	if s.replays, err = tournamentReplays(dir); err != nil {
		t.Fatal(err)
	}
	b := newBrowserOn(t, &s)
	at := min(5, game.Result.Turns)
	b.open(fmt.Sprintf("?replay=/replays/%s.json&turn=%d", game.ID, at))
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).computed == %d`, game.Result.Turns), 60*time.Second)
	st := b.status()
	if st.Game != "colosseum" || st.View != "match" || st.Turn != float64(at) || st.Playing || st.Result != game.Result.String() ||
		st.Players != [2]string{"greedy", "strong:nodes=3000"} {
		b.fatalf("the replay opened as %+v; want %s at turn %d, paused, %q", st, game.ID, at, game.Result)
	}
	b.awaitFrames(2)
	b.screenshot("playground-replay")

	other := filepath.Join(dir, "replays", "r0-p0-a.json")
	b.drop(other)
	b.waitJS(`JSON.parse(window.arenaTest.status()).players[0] == "strong:nodes=3000"`, 30*time.Second)
	if st := b.status(); st.View != "match" || !strings.Contains(st.Toast, "replay r0-p0-a.json") {
		b.fatalf("the dropped replay opened as %+v", st)
	}
	b.open("?replay=/replays/nothing.json")
	b.waitJS(`JSON.parse(window.arenaTest.status()).toast.includes("404")`, 30*time.Second)
}

// A ?replay= link whose response runs past 64 MB is given up as a dropped
// file of that size is, with the reason, and the page goes on.
func TestPageRefusesAnEndlessReplay(t *testing.T) {
	built, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	s := *built
	big := bytes.Repeat([]byte(" "), safefile.MaxFileSize+1)
	s.files = append(append([]*file(nil), s.files...), &file{name: "big.json", ctype: "application/json", data: big, gz: gzipBytes(big)})
	b := newBrowserOn(t, &s)
	b.open("?replay=/big.json")
	b.waitJS(`JSON.parse(window.arenaTest.status()).toast.includes("larger than the 64 MB arena reads")`, 60*time.Second)
	b.awaitFrames(2)
}
