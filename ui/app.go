// Package ui is the playground's window, the same in the browser and on
// the desktop: an Ebitengine game with a start view to pick the game, the
// players and the seed, a match view that plays the match back (step,
// scrub, speed, a timeline with its events, what the bots thought), human
// play, GIF export and an overlay listing the keys. It is made by hand:
// a few widgets, each laid out, updated and drawn by its view.
package ui

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/render/ebitencanvas"
)

// Platform is what differs between the browser and the desktop.
type Platform interface {
	// SaveGIF stores a recorded GIF (a download, a file) and returns what
	// to tell the person ("saved to /home/…/arena-life-7.gif").
	SaveGIF(name string, data []byte) (string, error)
	// Share shows the match's settings where a link can be taken (the
	// address bar) and, when copy is set, copies the link; it returns the
	// link.
	Share(q url.Values, copy bool) (string, error)
}

// Options are the settings the window opens with, from the URL or the
// command line: ?game=life&p1=strong&p2=greedy&seed=7&preset=64x64.
type Options struct {
	// Link is the match to open and how to show it: the page's address,
	// the desktop's flags.
	Link
	// File, when set, is a config file to open at once (the desktop's
	// -config): its name and contents.
	File     string
	FileData []byte
	Platform Platform // nil: no link sharing, GIFs are not saved
	// Host computes the matches: nil for a goroutine of this process (the
	// desktop); the page's Web Worker in the browser.
	Host Host
	// Serve is how this process plays the matches it computes (a nil
	// Host): where it logs, and how programs run (-python, -caps).
	Serve play.ServeOptions
	// Yield is called now and then while a GIF is recorded, so that the
	// page keeps drawing (the browser build); nil on the desktop.
	Yield func()
	// Presses, when set, returns the keys pressed and the places clicked
	// (device pixels) since the last frame, in place of Ebitengine's
	// just-pressed state, which in the browser misses a press released
	// before the next frame (hajimehoshi/ebiten#3317).
	Presses func() (keys []ebiten.Key, clicks [][2]float64)
	// Programs are the programs of people's own that this machine
	// offers (the page's server's or the desktop's -player), in the seat
	// menus of their games beside the built-in bots.
	Programs []Program
	// Gauntlets play the programs offered against the built-in bots;
	// nil where none is offered.
	Gauntlets Gauntlets
	// Reports says the host makes games' reports (its program imports
	// analysis/reports: the desktop, the page's worker): the analysis
	// board then asks for a finished match's report.
	Reports bool
	// ProgramsHelp, when no program is offered, says how to offer one:
	// the page's server and the desktop differ.
	ProgramsHelp string
	// Editor opens the page's editor of bots written in Go; nil where
	// there is none (the desktop, which plays go:FILE from -p1 instead).
	// With an editor, every game's seats offer the bot written there.
	Editor Editor
}

// Editor is where a person writes a bot in Go (the page's, see
// index.html): Open shows it on a game's bot.
type Editor interface {
	Open(game string)
	// Source is the bot's source for game as the editor holds it.
	Source(game string) string
}

// PageBot is the spec of the bot written in the page's editor, as its
// seats and links name it.
const PageBot = "go:bot.go"

// Program is a program offered by name for a game's seats: its spec in a
// match is "served:NAME", which only the machine that offers it can play.
type Program struct {
	Game string `json:"game"`
	Name string `json:"name"`
	Spec string `json:"spec"` // served:NAME
	Kind string `json:"kind"` // what it is: cmd, tcp or py
}

// program finds the offered program that spec names for game.
func (o *Options) program(game, spec string) (Program, bool) {
	for _, p := range o.Programs {
		if p.Game == game && p.Spec == spec {
			return p, true
		}
	}
	return Program{}, false
}

// missingProgram says why spec cannot play game here: it names a program
// that this machine does not offer. A link to a match with someone's
// program opened elsewhere says so, instead of playing something else.
func (o *Options) missingProgram(game, spec string) error {
	name, ok := strings.CutPrefix(spec, servedPrefix)
	if !ok {
		return nil
	}
	if _, ok := o.program(game, spec); ok {
		return nil
	}
	return fmt.Errorf("%s is a program of someone's own that this page's server does not offer for %s: run arena serve -player %s/%s=SPEC on the machine that has it", name, game, game, name)
}

// servedPrefix starts the spec of an offered program.
const servedPrefix = "served:"

// Query writes the settings as URL parameters: the link's, with the
// bot written in the page when a seat has it.
func (o Options) Query() url.Values {
	q := o.Link.Query()
	if q == nil {
		return nil
	}
	if bot, err := o.linkBot(); err == nil && bot != "" {
		q.Set("bot", bot)
	}
	return q
}

func randomSeed() uint64 { return rand.Uint64N(1_000_000) }

// App is the playground: an ebiten.Game.
type App struct {
	opts    Options
	host    Host
	canvas  *ebitencanvas.Screen
	confirm *confirm  // a question that must be answered before anything else
	lastNow time.Time // when the last Update ran, for playback on the clock
	in      input
	w, h    int
	scale   float64
	dpr     float64 // device pixels per CSS pixel
	compact bool
	start   *startView
	match   *matchView
	help    bool
	// gauntlet is the gauntlet view, kept with its run while the start
	// view or a game's replay is shown; gauntletShown says it is on top.
	gauntlet      *gauntletView
	gauntletShown bool

	toastMu sync.Mutex // toasts also come from the GIF goroutine
	toast   string
	until   time.Time
	// plays are matches asked for from other goroutines (the page's
	// editor), started by the next Update.
	playMu sync.Mutex
	plays  [][3]string
	// statusRec is the match shown at the last snapshot (MovesJSON).
	statusRec *play.Record

	loaded *loadedFile // the last file opened, offered as a board of its game
	dropMu sync.Mutex  // files come in from the goroutine that reads a drop
	drops  []droppedFile

	gifBusy     atomic.Bool
	gifProgress atomic.Int64 // per mille

	statusMu sync.Mutex
	status   Status
	frames   int
	times    frameTimes
}

// New returns the app; with opts.Start it opens the match at once.
func New(opts Options) *App {
	// The screen keeps its pixels between frames and Draw redraws only
	// what changed (ebitencanvas.Screen): in software WebGL every
	// full-screen pass costs milliseconds.
	ebiten.SetScreenClearedEveryFrame(false)
	// One Update a frame. At Ebitengine's 60 ticks a second, a frame of
	// 60 ms ran Update 3 or 4 times: the match's new turns followed for
	// receiveBudget each time and the view laid out each time, for one
	// frame drawn. Playback moves by the wall clock (elapsed), not ticks.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	a := &App{opts: opts, host: opts.Host, canvas: ebitencanvas.NewScreen(ebitencanvas.New()), scale: 1}
	if a.host == nil {
		a.host = defaultHost(opts.Serve)
	}
	a.start = newStartView(a)
	switch {
	case opts.FileData != nil:
		a.open(opts.File, opts.FileData)
	case opts.Start:
		a.startMatch(opts.Link)
	}
	if opts.Err != nil {
		a.toastf("%v: the bots play the match anew", opts.Err)
	} else if a.match != nil && opts.Moves != nil && opts.Platform != nil {
		q := a.opts.Query() // the address bar keeps the link's moves
		q.Set("moves", opts.moves)
		opts.Platform.Share(q, false)
	}
	return a
}

// Layout sizes the screen in device pixels, so that text is sharp on
// high-DPI screens; everything is laid out again each frame.
func (a *App) Layout(outsideW, outsideH int) (int, int) {
	s := ebiten.Monitor().DeviceScaleFactor()
	a.w, a.h = int(float64(outsideW)*s), int(float64(outsideH)*s)
	a.dpr = s
	// A phone held upright gets the compact layout at full size; other
	// small windows zoom out a little so that the controls fit.
	a.compact = outsideW < compactWidth
	zoom := math.Max(0.7, math.Min(1, math.Min(float64(outsideW)/1000, float64(outsideH)/640)))
	if a.compact {
		zoom = 1
	}
	a.scale = s * zoom
	a.canvas.Canvas().MinText = minText * s
	return a.w, a.h
}

// compactWidth is the window width, in CSS pixels, below which the
// layout is a phone's.
const compactWidth = 600

func (a *App) style() style { return newStyle(a.scale, a.dpr, a.compact, render.Dark) }

// zoom is the part of the scale that is not the device's pixel ratio.
// It reads the device's scale as Layout last did: asking the monitor is a
// round trip to the X server in the window, too slow to repeat each time.
func (a *App) zoom() float64 {
	if a.dpr == 0 {
		return a.scale
	}
	return a.scale / a.dpr
}

// Update reads input, runs the views and keeps the test status fresh.
// The frame's click goes to the view under it; then every key pressed
// since the last frame acts, in the order pressed.
func (a *App) Update() error {
	start := time.Now()
	dt := a.elapsed()
	readInput(&a.in, a.opts.Presses)
	a.readDrops()
	a.startPlays()
	in := &a.in
	st := a.style()
	w, h := float64(a.w), float64(a.h)
	if a.gauntlet != nil {
		a.gauntlet.poll()
	}
	laid := time.Now()
	switch {
	case a.match != nil:
		a.match.layout(a.canvas, st, w, h)
	case a.gauntletShown:
		a.gauntlet.layout(a.canvas, st, w, h)
	default:
		a.start.layout(a.canvas, st, w, h)
	}
	times := updateTimes{layout: time.Since(laid)}
	switch {
	case a.help:
		if in.clicked {
			a.help, in.clicked = false, false
		}
	case a.confirm != nil:
		a.confirm.layout(a.canvas, st, w, h)
		a.confirm.click(a, in)
	case a.match != nil:
		a.match.click(in)
	case a.gauntletShown:
		a.gauntlet.click(in)
	default:
		a.start.click(in)
	}
	for _, k := range in.takeKeys() {
		a.key(k)
	}
	for _, r := range in.takeChars() {
		a.char(r)
	}
	if a.match != nil {
		times.follow = a.match.update(in, dt)
	}
	if a.confirm != nil { // asked by a key this frame
		a.confirm.layout(a.canvas, st, w, h)
	}
	a.frames++
	times.total = time.Since(start)
	a.times.addUpdate(times)
	a.updateStatus()
	return nil
}

// elapsed returns the wall-clock time since the last Update, in seconds.
// Playback moves by it, so a slow frame drops frames, never time; a gap
// of over a second (a hidden tab, a paused process) counts as a second.
func (a *App) elapsed() float64 {
	now := time.Now()
	dt := 0.0
	if !a.lastNow.IsZero() {
		dt = min(now.Sub(a.lastNow).Seconds(), 1)
	}
	a.lastNow = now
	return dt
}

// key acts on one key: the overlay or question on screen takes it first,
// then a person's move, then the view.
func (a *App) key(k ebiten.Key) {
	switch {
	case a.help:
		if k == ebiten.KeyEscape || k == ebiten.KeyH {
			a.help = false
		}
	case a.confirm != nil:
		a.confirm.key(a, k)
	case a.match != nil && a.match.humanKey(k):
	case k == ebiten.KeyH && !(a.match == nil && a.start.seed.focused):
		a.help = true
	case a.match != nil:
		a.match.key(k)
	case a.gauntletShown:
		a.gauntlet.key(k)
	default:
		a.start.key(k)
	}
}

// char acts on a typed character whose key differs between keyboard
// layouts ('?', '+', '-').
func (a *App) char(r rune) {
	switch {
	case a.match == nil && a.start.seed.focused:
		a.start.seed.typed(r)
	case a.help || a.confirm != nil:
	case r == '?':
		a.help = true
	case a.match != nil:
		a.match.char(r)
	}
}

// ask shows a question that must be answered before anything else; the
// yes button (or Enter) runs do.
func (a *App) ask(question, yes string, do func()) {
	a.confirm = &confirm{question: question, yes: newButton("yes", yes), no: newButton("no", "Stay"), do: do}
	a.confirm.yes.accent = true
}

// gameKey returns the game whose number key k is, if any.
func gameKey(k ebiten.Key) (string, bool) {
	for _, g := range match.Games() {
		if n := g.Info().Key; n >= 1 && n <= 9 && k == ebiten.Key1+ebiten.Key(n-1) {
			return g.Info().Name, true
		}
	}
	return "", false
}

// Draw draws the current view and the overlays.
func (a *App) Draw(screen *ebiten.Image) {
	start := time.Now()
	defer func() { a.times.add(time.Since(start), a.canvas.Drawn()) }()
	st := a.style()
	c := a.canvas
	b := screen.Bounds()
	c.Begin(b.Dx(), b.Dy())
	defer c.Present(screen)
	w, h := float64(a.w), float64(a.h)
	c.Fill(rect{W: float64(b.Dx()), H: float64(b.Dy())}, st.th.Background)
	switch {
	case a.match != nil:
		a.match.layout(c, st, w, h)
		a.match.draw(c, st, &a.in)
	case a.gauntletShown:
		a.gauntlet.layout(c, st, w, h)
		a.gauntlet.draw(c, st, &a.in)
	default:
		a.start.layout(c, st, w, h)
		a.start.draw(c, st, &a.in)
	}
	if a.gifBusy.Load() {
		a.toastf("recording GIF… %d%%", a.gifProgress.Load()/10)
	}
	if msg := a.currentToast(); msg != "" {
		tw := c.TextWidth(msg, st.text) + 2*st.pad
		r := rect{X: (w - tw) / 2, Y: h - 110*st.u, W: tw, H: st.rowH}
		roundRect(c, r, st.radius, render.Mix(st.th.Panel, st.th.Accent, 0.3))
		c.Text(msg, w/2, r.Y+(r.H-c.LineHeight(st.text))/2, st.text, render.Center, st.th.Text)
	}
	if a.confirm != nil {
		a.confirm.layout(c, st, w, h)
		a.confirm.draw(c, st, &a.in)
	}
	if a.help {
		drawHelp(c, st, w, h)
	}
}

// Redraw draws the whole screen at the next frame, not only what changed
// since the last: for a screen that lost its pixels, and for tests that
// compare the two.
func (a *App) Redraw() { a.canvas.Forget() }

// Play starts a match of game between the players p1 and p2 (specs), on
// the start view's board and seed when it shows game, as its Start button
// would: the page's editor runs the bot written there with it. It may be
// called from any goroutine; the next Update starts the match.
func (a *App) Play(game, p1, p2 string) {
	a.playMu.Lock()
	defer a.playMu.Unlock()
	a.plays = append(a.plays, [3]string{game, p1, p2})
}

// startPlays starts the last match asked for with Play.
func (a *App) startPlays() {
	a.playMu.Lock()
	plays := a.plays
	a.plays = nil
	a.playMu.Unlock()
	if len(plays) == 0 {
		return
	}
	p := plays[len(plays)-1]
	if a.start.games.id() != p[0] {
		a.start.selectGame(p[0])
	}
	a.start.players[0].choose(p[1])
	a.start.players[1].choose(p[2])
	a.startMatch(a.start.settings())
}

// Toast shows a message for a few seconds, from any goroutine.
func (a *App) Toast(msg string) { a.toastf("%s", msg) }

func (a *App) toastf(format string, args ...any) {
	a.toastMu.Lock()
	defer a.toastMu.Unlock()
	a.toast, a.until = fmt.Sprintf(format, args...), time.Now().Add(4*time.Second)
}

// currentToast returns the message to show now, if any.
func (a *App) currentToast() string {
	a.toastMu.Lock()
	defer a.toastMu.Unlock()
	if time.Now().After(a.until) {
		return ""
	}
	return a.toast
}

// startMatch opens the match view on the link's match, first playing
// the moves it carries. Its players are checked, none started: the match
// starts each once.
func (a *App) startMatch(l Link) {
	game, p1, p2, preset, seed := l.Game, l.P1, l.P2, l.Preset, l.Seed
	for _, p := range []string{p1, p2} {
		if err := a.opts.missingProgram(game, p); err != nil {
			a.toastf("%v", err)
			a.showStart()
			return
		}
	}
	setup, err := l.Setup(a.loaded, a.opts.Serve.Hosting)
	if err != nil {
		a.toastf("%v", err)
		a.showStart()
		return
	}
	v, err := newMatchView(a, setup, l.Moves)
	if err != nil {
		a.toastf("%v", err)
		return
	}
	if a.match != nil {
		a.match.close()
	}
	a.match = v
	a.canvas.Forget()
	if l.Turn > 0 {
		// A link's turn: playing stops there, once (0, the zero value,
		// plays from the start as -1 does).
		v.pb.hold = l.Turn
	}
	// The link now names this match: its moves were played, its turn
	// reached, and what the view shows is kept.
	l.Moves, l.moves, l.Turn, l.Err, l.Start, l.Replay = nil, "", -1, nil, true, ""
	a.setLink(func(cur *Link) {
		l.Bot, l.Thinking, l.Analyse = cur.Bot, cur.Thinking, cur.Analyse
		*cur = l
	})
	a.start.selectGame(game)
	a.start.players[0].choose(p1)
	a.start.players[1].choose(p2)
	a.start.presets.choose(preset)
	a.start.seed.value = strconv.FormatUint(seed, 10)
}

// setLink changes the link (the match it names, the view's toggles) and
// puts it in the address bar: the one way the link changes once the app
// runs, so that what a person copies from the address bar is what they
// see. Views read the link (a.opts.Link) and keep no copy of it.
func (a *App) setLink(change func(l *Link)) {
	change(&a.opts.Link)
	if q := a.opts.Query(); q != nil && a.opts.Platform != nil {
		a.opts.Platform.Share(q, false)
	}
}

// newSeed starts the same match with a new random seed.
func (a *App) newSeed() {
	l := a.opts.Link
	l.Seed = randomSeed()
	a.startMatch(l)
}

// showStart goes back to the start view, stopping the match.
func (a *App) showStart() {
	if a.match != nil {
		a.match.close()
		a.match = nil
		a.canvas.Forget()
	}
}

// showGauntlet shows the gauntlet view of game, with the run it has when
// it is that game's.
func (a *App) showGauntlet(game string) {
	if a.gauntlet == nil || a.gauntlet.game != game {
		if a.gauntlet != nil {
			a.gauntlet.stop()
		}
		a.gauntlet = newGauntletView(a, game)
	} else if !a.gauntlet.running {
		a.gauntlet.loadHistory() // the bot may have been edited, or run elsewhere
	}
	a.gauntletShown = true
	a.canvas.Forget()
}

// copyLink copies the link to this match, with its moves when its bots
// think on the clock, and says what the link will show.
func (a *App) copyLink() {
	if a.opts.Platform == nil {
		return
	}
	q := a.opts.Query()
	if q == nil {
		a.toastf("a link cannot carry %s: share the file", strings.TrimPrefix(a.opts.Replay, filePrefix))
		return
	}
	var note string
	if v := a.match; v != nil {
		var moves string
		if moves, note = linkMoves(v.pb.setup, v.pb.rec); moves != "" {
			q.Set("moves", moves)
		}
	}
	_, botErr := a.opts.linkBot()
	link, err := a.opts.Platform.Share(q, true)
	switch {
	case err != nil:
		a.toastf("cannot copy the link: %v", err)
	case botErr != nil:
		a.toastf("copied %s without your bot: %v", link, botErr)
	case isFile(a.opts.Preset):
		a.toastf("copied %s: a link cannot carry %s, share the file", link, strings.TrimPrefix(a.opts.Preset, filePrefix))
	case note != "":
		a.toastf("copied the link: %s", note)
	default:
		a.toastf("copied %s", link)
	}
}

// gifName names a recording after its match.
func gifName(rec *play.Record) string {
	return fmt.Sprintf("arena-%s-%s-vs-%s-seed%d.gif", rec.Game.Info().Name, rec.Players[0], rec.Players[1], rec.Seed)
}

// exportGIF records the match from its start as `arena record` does, on
// a goroutine, and hands the file to the platform.
func (a *App) exportGIF(rec *play.Record) {
	if a.opts.Platform == nil || !a.gifBusy.CompareAndSwap(false, true) {
		return
	}
	a.gifProgress.Store(0)
	opts := render.DefaultGIF
	opts.Thinking = a.opts.Thinking
	opts.Yield = a.opts.Yield
	opts.Progress = func(done, total int) { a.gifProgress.Store(int64(1000 * done / total)) }
	go func() {
		defer a.gifBusy.Store(false)
		var buf bytes.Buffer
		if err := render.WriteGIF(&buf, rec, opts); err != nil {
			a.toastf("GIF: %v", err)
			return
		}
		msg, err := a.opts.Platform.SaveGIF(gifName(rec), buf.Bytes())
		if err != nil {
			a.toastf("GIF: %v", err)
			return
		}
		a.toastf("%s", msg)
	}()
}

// frameTimes keeps the Go-side times of the last frames' draws and
// updates, for the figures the status reports: a slow frame's Go is one
// or the other.
type frameTimes struct {
	n       int
	last    [120]time.Duration
	drawn   [120]float64 // share of the screen each frame drew
	nu      int
	updates [120]updateTimes
}

// updateTimes are an Update's time and the parts of it a slow one is
// told by: the view's layout, and following the match's new turns.
type updateTimes struct{ total, layout, follow time.Duration }

// addUpdate records an Update's times.
func (d *frameTimes) addUpdate(u updateTimes) {
	d.updates[d.nu%len(d.updates)] = u
	d.nu++
}

// updateMax is the longest of the recent Updates and its parts, in
// milliseconds.
func (d *frameTimes) updateMax() (total, layout, follow float64) {
	var longest updateTimes
	for _, u := range d.updates[:min(d.nu, len(d.updates))] {
		if u.total > longest.total {
			longest = u
		}
	}
	return ms(longest.total), ms(longest.layout), ms(longest.follow)
}

// ms is a duration in milliseconds, to the microsecond.
func ms(t time.Duration) float64 { return float64(t.Microseconds()) / 1000 }

func (d *frameTimes) add(t time.Duration, drawn float64) {
	d.last[d.n%len(d.last)] = t
	d.drawn[d.n%len(d.drawn)] = drawn
	d.n++
}

// meanDrawn is the mean share of the screen the recent frames drew.
func (d *frameTimes) meanDrawn() float64 {
	k := min(d.n, len(d.drawn))
	sum := 0.0
	for _, v := range d.drawn[:k] {
		sum += v
	}
	return sum / float64(max(k, 1))
}

// stats returns the count of frames drawn, and the mean and the longest
// Go-side draw time of the recent ones, in milliseconds.
func (d *frameTimes) stats() (n int, mean, longest float64) {
	k := min(d.n, len(d.last))
	if k == 0 {
		return d.n, 0, 0
	}
	var sum time.Duration
	for _, t := range d.last[:k] {
		sum += t
		longest = max(longest, ms(t))
	}
	return d.n, ms(sum) / float64(k), longest
}
