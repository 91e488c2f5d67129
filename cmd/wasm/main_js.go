//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	_ "github.com/arena-playground/arena/analysis/reports" // the match worker's reports of finished games

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/cmd/wasm/matchworker"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/jsbytes"
	"github.com/arena-playground/arena/internal/safefile"
	_ "github.com/arena-playground/arena/players" // the kinds of player that are programs
	"github.com/arena-playground/arena/tournament/progress"
	"github.com/arena-playground/arena/ui"
)

// memoryLimit is the heap size past which the garbage collector works
// harder rather than letting the heap double: the page keeps a match's
// states up to play.StateBudget (256 MB) and its images, and a
// WebAssembly program never gives memory back to the browser. Twice the
// states' budget: with 768 MB (the arena command's limit) the browser's
// renderer process (page, worker and Chromium's own 270 MB) peaked at
// 1.08 GB on a live 4096x4096 Life match, over the 1 GB it is promised.
const memoryLimit = 512 << 20

// gcPercent lets the page's heap grow to five times what it keeps
// between collections, not twice (memoryLimit still holds it): a
// collection runs on the thread that draws, and a stream's 4,600 turns a
// second allocate as they are followed.
const gcPercent = 400

// main runs the playground in the page, with the settings of the URL; in
// a match's worker, it computes the match (matchworker.Serve).
func main() {
	if inWorker() {
		matchworker.Serve()
	}
	debug.SetMemoryLimit(memoryLimit)
	debug.SetGCPercent(gcPercent)
	search := js.Global().Get("location").Get("search").String()
	q, _ := url.ParseQuery(strings.TrimPrefix(search, "?"))
	opts := ui.Options{Link: ui.ParseLink(q)}
	opts.Platform, opts.Host, opts.Yield, opts.Presses = browser{}, pageHost{}, yield, listenPresses()
	opts.Programs, opts.ProgramsHelp = offeredPrograms()
	opts.Editor = pageEditor{}
	opts.Reports = true // the match worker, this same program, makes them
	gauntlets := pageGauntlets{}
	if len(opts.Programs) > 0 {
		gauntlets.server = serverGauntlets{}
	}
	opts.Gauntlets = gauntlets
	// The editor's host first: a link's match starts in New, and its bot
	// written in the page (the link's source, else the kept one, else the
	// template) must be there to be read.
	var app *ui.App
	editorHost(func(game, p1, p2 string) { app.Play(game, p1, p2) }, func() float64 { return app.MeanThink(ui.PageBot) }, opts)
	app = ui.New(opts)
	if r := opts.Replay; r != "" {
		fetchReplay(app, r)
	}
	// The test hook: tests read the window's state through it.
	js.Global().Set("arenaTest", js.ValueOf(map[string]any{
		"status": js.FuncOf(func(js.Value, []js.Value) any { return app.StatusJSON() }),
		// Whether the match has ended, without the status's JSON: what a
		// benchmark polls while it counts the frames of a stream.
		"done":  js.FuncOf(func(js.Value, []js.Value) any { return app.Status().Done }),
		"moves": js.FuncOf(func(js.Value, []js.Value) any { return app.MovesJSON() }),
		"notes": js.FuncOf(func(js.Value, []js.Value) any { return app.NotesJSON() }),
		"think": js.FuncOf(func(js.Value, []js.Value) any { return app.ThinkJSON() }),
		// The editor lives in the page's HTML: its state from there.
		"editor": js.FuncOf(func(js.Value, []js.Value) any {
			if f := js.Global().Get("arenaEditorState"); f.Type() == js.TypeFunction {
				return f.Invoke()
			}
			return "{}"
		}),
	}))
	if err := ebiten.RunGame(&page{App: app}); err != nil {
		panic(err)
	}
}

// page tells the host page when the first frame is drawn, and counts
// frames for yield.
type page struct {
	*ui.App
	shown bool
}

// frames counts the frames drawn.
var frames atomic.Int64

func (p *page) Draw(screen *ebiten.Image) {
	p.App.Draw(screen)
	frames.Add(1)
	if !p.shown {
		p.shown = true
		if f := js.Global().Get("arenaLoaded"); f.Type() == js.TypeFunction {
			f.Invoke()
		}
	}
}

// yield gives the browser its event loop back: Go's WebAssembly runs on
// the page's only thread, and a goroutine that computes never lets the
// page draw unless it sleeps. Bots think in the worker; what still
// computes here is a GIF being recorded, which after 8 ms of work sleeps
// until the next frame is drawn (at most 50 ms), so that the page keeps
// its frame rate.
var lastYield time.Time

func yield() {
	if time.Since(lastYield) < 8*time.Millisecond {
		return
	}
	f, until := frames.Load(), time.Now().Add(50*time.Millisecond)
	for frames.Load() == f && time.Now().Before(until) {
		time.Sleep(time.Millisecond)
	}
	lastYield = time.Now()
}

// offeredPrograms reads the programs the page's server offers (see
// index.html: it asked /api/programs while the page loaded).
func offeredPrograms() ([]ui.Program, string) {
	v := js.Global().Get("arenaProgramList")
	if v.Type() != js.TypeString || v.String() == "" {
		return nil, "This page is static: it runs no program. Your own program here: download arena and run arena serve -player GAME/NAME=SPEC (see docs/playground.md)."
	}
	var list struct {
		Programs []ui.Program `json:"programs"`
		Command  string       `json:"command"`
	}
	if err := json.Unmarshal([]byte(v.String()), &list); err != nil {
		return nil, "The server's list of programs could not be read: " + err.Error()
	}
	if list.Command == "" {
		list.Command = "arena serve"
	}
	return list.Programs, "Your own program here: " + list.Command + " -player GAME/NAME=SPEC (see docs/playground.md)."
}

// pageHost computes a match in a Web Worker of its own (see worker_js.go
// and index.html's arenaStartWorker), so that no bot thinks on the page's
// thread; a match with a program the server offers, on the server (see
// index.html's arenaStartServerMatch), which alone can run it.
type pageHost struct{}

func (pageHost) Compute(st play.Start) ui.Feed {
	start := "arenaStartWorker"
	var sources map[string]string
	for _, p := range st.Players {
		if strings.HasPrefix(p, "served:") {
			start = "arenaStartServerMatch"
		}
		if p == ui.PageBot {
			name := strings.TrimPrefix(p, "go:")
			sources = map[string]string{name: pageEditor{}.Source(st.Game)}
		}
	}
	return startFeed(start, st, sources)
}

// startFeed starts the match with the page's function of that name; the
// sources are those of its go: players, which the worker's bot workers
// interpret (a matchworker.Request).
func startFeed(start string, st play.Start, sources map[string]string) ui.Feed {
	f := &workerFeed{}
	req, err := json.Marshal(matchworker.Request{Request: play.Request{Start: &st}, Sources: sources})
	if err != nil {
		f.PushError(err.Error())
		return f
	}
	f.worker = js.Global().Call(start, string(req))
	return f
}

// workerFeed is one match's worker: the page keeps its messages (see
// index.html's inbox) until Poll takes them, once a frame, in one call
// and one copy.
type workerFeed struct {
	ui.Inbox
	worker js.Value
}

// Poll takes the messages the page kept since the last frame: its
// lines, each message's bytes a part of the frame's one copy.
func (f *workerFeed) Poll() [][]byte {
	if !f.worker.IsUndefined() {
		if lines, _ := jsbytes.Bytes(f.worker.Call("take")); len(lines) > 0 {
			for line := range bytes.SplitSeq(lines, []byte{'\n'}) {
				if len(line) > 0 {
					f.Push(line)
				}
			}
		}
	}
	return f.Inbox.Poll()
}

func (f *workerFeed) Act(a play.Act) {
	if data, err := json.Marshal(play.Request{Act: &a}); err == nil && !f.worker.IsUndefined() {
		f.worker.Call("postMessage", string(data))
	}
}

// Stop ends the worker at once: a bot in the middle of a search does not
// read its messages, but it is ended all the same.
func (f *workerFeed) Stop() {
	f.Close()
	if !f.worker.IsUndefined() {
		f.worker.Call("terminate")
	}
}

// serverGauntlets are the gauntlets of the page's server (see
// index.html's arenaStartGauntlet).
type serverGauntlets struct{}

func (serverGauntlets) Run(game, program, board string, pairs int) ui.GauntletFeed {
	req, _ := json.Marshal(map[string]any{"game": game, "program": program, "board": board, "pairs": pairs})
	return startGauntlet("arenaStartGauntlet", string(req))
}

// startGauntlet starts a gauntlet with the page's function of that name
// (the server's, or the browser's own): each status it sends comes to
// the feed.
func startGauntlet(start, req string) *gauntletFeed {
	f := &gauntletFeed{}
	f.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
		var st progress.Status
		if len(args) == 0 || args[0].Type() != js.TypeString {
			st.Error = "the gauntlet sent something that is not a status"
		} else if err := json.Unmarshal([]byte(args[0].String()), &st); err != nil {
			st.Error = "the gauntlet sent a status that cannot be read: " + err.Error()
		}
		f.mu.Lock()
		f.got = append(f.got, st)
		f.mu.Unlock()
		return nil
	})
	f.run = js.Global().Call(start, req, f.onMessage)
	return f
}

func (serverGauntlets) Open(ref string, got func(string, []byte, error)) {
	fetchBytes(ref, func(data []byte, err error) { got(ref, data, err) })
}

func (serverGauntlets) Report(ref string) (string, error) {
	a := js.Global().Get("document").Call("createElement", "a")
	a.Set("href", ref)
	a.Set("download", "")
	js.Global().Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	return "downloading the gauntlet's report", nil
}

// gauntletFeed is one gauntlet's stream from the server.
type gauntletFeed struct {
	mu        sync.Mutex
	got       []progress.Status
	run       js.Value
	onMessage js.Func
}

func (f *gauntletFeed) Poll() []progress.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.got
	f.got = nil
	return out
}

func (f *gauntletFeed) Stop() {
	if !f.run.IsUndefined() {
		f.run.Call("terminate")
	}
	f.onMessage.Release()
}

// browser is the page's platform: downloads and the address bar.
type browser struct{}

func (browser) SaveGIF(name string, data []byte) (string, error) {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{arr}), js.ValueOf(map[string]any{"type": "image/gif"}))
	href := js.Global().Get("URL").Call("createObjectURL", blob)
	a := js.Global().Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	js.Global().Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	js.Global().Get("setTimeout").Invoke(js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", href)
		return nil
	}), 60000)
	return "downloaded " + name, nil
}

func (browser) Share(q url.Values, copy bool) (string, error) {
	loc := js.Global().Get("location")
	link := loc.Get("origin").String() + loc.Get("pathname").String() + "?" + q.Encode()
	js.Global().Get("history").Call("replaceState", nil, "", link)
	if copy {
		clip := js.Global().Get("navigator").Get("clipboard")
		if clip.IsUndefined() {
			return link + " (copy it from the address bar)", nil
		}
		clip.Call("writeText", link)
	}
	return link, nil
}

// listenPresses queues the page's key presses and clicks as DOM events
// report them, and returns the function that hands them to the app once
// per frame.
func listenPresses() func() ([]ebiten.Key, [][2]float64) {
	var mu sync.Mutex
	var keys []ebiten.Key
	var clicks [][2]float64
	doc := js.Global().Get("document")
	doc.Call("addEventListener", "keydown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		if e.Get("repeat").Bool() || inEditor(e) {
			return nil
		}
		if k, ok := keyOf(e.Get("code").String()); ok {
			mu.Lock()
			keys = append(keys, k)
			mu.Unlock()
		}
		return nil
	}), true)
	doc.Call("addEventListener", "pointerdown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		if e.Get("button").Int() != 0 || inEditor(e) {
			return nil
		}
		dpr := js.Global().Get("devicePixelRatio").Float()
		mu.Lock()
		clicks = append(clicks, [2]float64{e.Get("clientX").Float() * dpr, e.Get("clientY").Float() * dpr})
		mu.Unlock()
		return nil
	}), true)
	// Keys all go at once; clicks one a frame, since each may change what
	// the next one lands on.
	return func() ([]ebiten.Key, [][2]float64) {
		mu.Lock()
		defer mu.Unlock()
		k := keys
		keys = nil
		if len(clicks) == 0 {
			return k, nil
		}
		c := clicks[:1:1]
		clicks = clicks[1:]
		return k, c
	}
}

// inEditor reports whether a DOM event is for the page's editor of bots,
// which lies over the canvas: its keys and clicks are not the game's.
func inEditor(e js.Value) bool {
	t := e.Get("target")
	return t.Truthy() && t.Get("closest").Type() == js.TypeFunction && t.Call("closest", "#editor").Truthy()
}

// keyOf maps a DOM KeyboardEvent.code to Ebitengine's key: the names are
// the same but for letters ("KeyH" is H).
func keyOf(code string) (ebiten.Key, bool) {
	var k ebiten.Key
	name := code
	if strings.HasPrefix(code, "Key") && len(code) == 4 {
		name = code[3:]
	}
	if err := k.UnmarshalText([]byte(name)); err != nil {
		return 0, false
	}
	return k, true
}

// fetchReplay opens the replay at url (?replay=/replays/r0-p1-a.json, as
// a tournament's report links it), once the page has it.
func fetchReplay(app *ui.App, url string) {
	get := fetchBytes
	if strings.HasPrefix(url, keptPrefix) { // a game of a gauntlet this browser keeps
		get = keptReplay
	}
	get(url, func(data []byte, err error) {
		if err != nil {
			app.Toast(err.Error())
			return
		}
		app.Load(url, data)
	})
}

// fetchBytes fetches url and hands its body to got. The response is read
// as a stream and given up past safefile.MaxFileSize, as a dropped file is:
// a link can point the page at any URL, and a response without end must
// not take the tab's memory.
func fetchBytes(url string, got func([]byte, error)) {
	var then, fail, pump js.Func
	release := func() { then.Release(); fail.Release(); pump.Release() }
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := url + " could not be fetched"
		if len(args) > 0 {
			msg += ": " + args[0].Call("toString").String()
		}
		got(nil, errors.New(msg))
		release()
		return nil
	})
	var body []byte
	var reader js.Value
	pump = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if r.Get("done").Bool() {
			got(body, nil)
			release()
			return nil
		}
		chunk := r.Get("value")
		n := chunk.Get("length").Int()
		if len(body)+n > safefile.MaxFileSize {
			reader.Call("cancel")
			got(nil, fmt.Errorf("%s is larger than the %d MB arena reads", url, safefile.MaxFileSize>>20))
			release()
			return nil
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		js.CopyBytesToGo(body[start:], chunk)
		reader.Call("read").Call("then", pump).Call("catch", fail)
		return nil
	})
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resp := args[0]
		if !resp.Get("ok").Bool() {
			got(nil, fmt.Errorf("%s: %s %s", url, resp.Get("status").String(), resp.Get("statusText").String()))
			release()
			return nil
		}
		reader = resp.Get("body").Call("getReader")
		reader.Call("read").Call("then", pump).Call("catch", fail)
		return nil
	})
	js.Global().Call("fetch", url).Call("then", then).Call("catch", fail)
}

// pageEditor is the page's editor of bots written in Go (index.html's
// arenaOpenEditor), which keeps each game's source in the browser.
type pageEditor struct{}

func (pageEditor) Open(game string) { js.Global().Call("arenaOpenEditor", game) }

func (pageEditor) Source(game string) string {
	v := js.Global().Call("arenaBotSource", game)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// editorHost gives the page's editor what it needs from the program: each
// game's template and bots, a way to start a match (play), and the
// source a link carried.
func editorHost(play func(game, p1, p2 string), speed func() float64, opts ui.Options) {
	js.Global().Set("arenaEditorHost", js.ValueOf(map[string]any{
		"template": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 0 {
				return ""
			}
			src, err := gobot.Template(args[0].String())
			if err != nil {
				return ""
			}
			return src
		}),
		"label": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if g, err := match.Lookup(args[0].String()); err == nil {
				return g.Info().Label()
			}
			return args[0].String()
		}),
		"bots": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var names []any
			if g, err := match.Lookup(args[0].String()); err == nil {
				for _, b := range g.Bots() {
					names = append(names, b.Name)
				}
			}
			return js.ValueOf(names)
		}),
		"play": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 3 {
				play(args[0].String(), args[1].String(), args[2].String())
			}
			return nil
		}),
		// The page's bot's mean time a move in the match shown (ms).
		"speed":   js.FuncOf(func(js.Value, []js.Value) any { return speed() }),
		"pageBot": ui.PageBot,
	}))
	if opts.Bot != "" {
		js.Global().Call("arenaLinkBot", opts.Game, opts.Bot)
	}
}
