package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament/progress"
)

// Gauntlets play a student's program against every built-in bot of its
// game where the program is: the page's server, or the desktop's own
// process. Nil where no program is offered (the static site).
type Gauntlets interface {
	// Run plays (or resumes) the gauntlet of an offered program on the
	// game's board (a preset's name), pairs pairs of games against each
	// bot.
	Run(game, program, board string, pairs int) GauntletFeed
	// Open fetches a game's replay, as a status names it, and hands it to
	// got (from any goroutine).
	Open(ref string, got func(name string, data []byte, err error))
	// Report keeps the report a status names (a download, a file) and
	// says what became of it.
	Report(ref string) (string, error)
}

// GauntletHistory is a Gauntlets that keeps a program's earlier runs
// (the page keeps those of the bot written in it): the view lists them
// side by side. History returns nil for a program it keeps none of; its
// feed gives one status, with Runs and Change.
type GauntletHistory interface {
	History(game, program string) GauntletFeed
}

// GauntletFeed is one gauntlet being played.
type GauntletFeed interface {
	// Poll returns the statuses that arrived since the last call, in
	// order, without waiting.
	Poll() []progress.Status
	// Stop ends the run: the games recorded stay for the next.
	Stop()
}

// gauntletPairs are the pair counts offered: pairs of games (both seats)
// against each bot.
var gauntletPairs = []int{1, 2, 5, 10, 20, 50, 100}

// gauntletView shows a gauntlet: which program, on which board and how
// many pairs, its
// progress, the standings as they come (points, Elo with its interval,
// forfeits and why) and its games, each opening in the match view at a
// click.
type gauntletView struct {
	app      *App
	game     string
	programs *chips
	boards   *chips
	pairs    *chips
	run      *button
	report   *button
	back     *button
	card     rect
	bar      rect
	tableY   float64
	runsY    float64   // where the kept runs are listed
	games    []*button // the latest games, as rows
	feed     GauntletFeed
	status   *progress.Status
	running  bool
	refs     map[string]string // game button id: its replay's ref
	// history is the kept runs of the program chosen, while they load;
	// runs and change are what came (see progress.Status.Runs).
	history GauntletFeed
	runs    []progress.Run
	change  string
	source  string // the page bot's source the run playing started with
}

func newGauntletView(app *App, game string) *gauntletView {
	v := &gauntletView{app: app, game: game, run: newButton("gauntlet:run", "Run"), report: newButton("gauntlet:report", "Report"),
		back: newButton("gauntlet:back", "Back"), refs: map[string]string{}}
	v.run.accent = true
	var ids, labels []string
	for _, p := range app.opts.Programs {
		if p.Game == game {
			ids, labels = append(ids, p.Name), append(labels, p.Name)
		}
	}
	if app.opts.Editor != nil {
		ids, labels = append(ids, PageBot), append(labels, "your bot (Go)")
	}
	v.programs = newChips(ids, labels)
	v.boards = gauntletBoards(app, game)
	ids, labels = nil, nil
	for _, n := range gauntletPairs {
		ids, labels = append(ids, strconv.Itoa(n)), append(labels, strconv.Itoa(n))
	}
	v.pairs = newChips(ids, labels)
	v.pairs.choose("2")
	v.loadHistory()
	return v
}

// gauntletBoards are the game's preset boards, the one the start view
// shows chosen where it is this game's: a gauntlet on Australia, where
// the first mover wins, says less of a map-colouring bot than one on the
// USA.
func gauntletBoards(app *App, game string) *chips {
	var ids []string
	if g, err := match.Lookup(game); err == nil {
		for _, p := range g.Presets() {
			ids = append(ids, p.Name)
		}
	}
	ch := newChips(ids, ids)
	if s := app.start; s != nil && s.games.id() == game && s.presets != nil && len(s.presets.items) > 0 {
		ch.choose(s.presets.id())
	}
	return ch
}

// loadHistory asks for the kept runs of the program chosen.
func (v *gauntletView) loadHistory() {
	if v.history != nil {
		v.history.Stop()
		v.history = nil
	}
	v.runs, v.change = nil, ""
	if h, ok := v.app.opts.Gauntlets.(GauntletHistory); ok && len(v.programs.items) > 0 {
		v.history = h.History(v.game, v.programs.id())
	}
}

// pageBot reports whether the program chosen is the bot written in the
// page.
func (v *gauntletView) pageBot() bool {
	return len(v.programs.items) > 0 && v.programs.id() == PageBot
}

// start runs the gauntlet chosen, stopping one that runs.
func (v *gauntletView) start() {
	if v.feed != nil {
		v.feed.Stop()
	}
	pairs, _ := strconv.Atoi(v.pairs.id())
	if v.pageBot() {
		v.source = v.app.opts.Editor.Source(v.game)
	}
	v.feed, v.status, v.running = v.app.opts.Gauntlets.Run(v.game, v.programs.id(), v.boards.id(), pairs), nil, true
}

// stop ends the run; what was played is kept.
func (v *gauntletView) stop() {
	if v.feed != nil {
		v.feed.Stop()
		v.feed = nil
	}
	v.running = false
}

// poll takes the statuses that came.
func (v *gauntletView) poll() {
	if v.history != nil {
		for _, st := range v.history.Poll() {
			if v.status == nil || v.status.Runs == nil {
				v.runs, v.change = st.Runs, st.Change
			}
			v.history.Stop()
			v.history = nil
			break
		}
	}
	if v.feed == nil {
		return
	}
	for _, st := range v.feed.Poll() {
		st := st
		if st.Runs == nil && v.status != nil && st.Total == 0 { // a failure: keep the standings shown
			v.status.Error = st.Error
		} else {
			v.status = &st
		}
		if st.Runs != nil {
			v.runs, v.change = st.Runs, st.Change
		}
		if st.Done || st.Error != "" {
			v.running = false
		}
	}
}

// notes are the lines the view says of the page bot's runs: how the
// run shown plays it (built or interpreted), a source edited since the
// run playing started, and how the latest version compares with the one
// before.
func (v *gauntletView) notes() []string {
	var out []string
	if v.status != nil && v.status.BotRun != "" && v.pageBot() {
		out = append(out, "Your bot plays these games "+v.status.BotRun+".")
	}
	if v.running && v.pageBot() && v.app.opts.Editor.Source(v.game) != v.source {
		out = append(out, "You edited the bot after this gauntlet started: it plays the source it started with. Run again when it ends to rate the edited one.")
	}
	if v.change != "" {
		out = append(out, v.change)
	}
	return out
}

func (v *gauntletView) layout(c render.Canvas, st style, w, h float64) {
	cw := math.Min(w-2*st.pad, 920*st.u)
	v.card = rect{X: (w - cw) / 2, Y: math.Max(st.pad, h*0.04), W: cw, H: h - 2*math.Max(st.pad, h*0.04)}
	x, maxX := v.card.X+st.pad, v.card.X+cw-st.pad
	labelW := 90 * st.u
	if st.compact {
		labelW = c.TextWidth("Program", st.bold) + st.pad
	}
	y := v.card.Y + st.pad + c.LineHeight(st.big)
	y = render.Wrap(nullCanvas{c}, v.intro(), x, y, cw-2*st.pad, st.small, st.th.TextDim) + st.pad
	y = v.programs.layout(c, st, x+labelW, y, maxX) + st.gap
	y = v.boards.layout(c, st, x+labelW, y, maxX) + st.gap
	y = v.pairs.layout(c, st, x+labelW, y, maxX) + st.pad
	bx := x + labelW
	for _, b := range []*button{v.run, v.report, v.back} {
		b.r = rect{X: bx, Y: y, W: c.TextWidth(b.label, st.bold) + 4*st.pad, H: st.rowH}
		bx += b.r.W + st.gap
	}
	y += st.rowH + st.pad
	v.bar = rect{X: x, Y: y, W: cw - 2*st.pad, H: 8 * st.u}
	v.tableY = y + v.bar.H + st.gap
	v.layoutGames(c, st)
}

// layoutGames places the kept runs below the standings, and a row for
// each of the latest games that fits below them.
func (v *gauntletView) layoutGames(c render.Canvas, st style) {
	v.games = v.games[:0]
	y := v.tableY + c.LineHeight(st.small) + st.gap
	if v.status != nil {
		y += float64(len(v.status.Entrants)+1)*c.LineHeight(st.mono) + st.pad + v.reasonsHeight(c, st)
	}
	v.runsY = y
	if v.status == nil {
		return
	}
	y += v.runsHeight(c, st) + c.LineHeight(st.small) + st.gap
	rowH := c.LineHeight(st.mono) + st.gap
	if st.compact {
		rowH = st.rowH // a finger's size
	}
	for _, g := range v.status.Games {
		if y+rowH > v.card.Y+v.card.H-st.pad {
			break
		}
		id := "gauntlet:game:" + g.ID
		b := newButton(id, fmt.Sprintf("%-9s %s vs %s: %s", g.ID, g.Seats[0], g.Seats[1], g.Result))
		b.r = rect{X: v.card.X + st.pad, Y: y, W: v.card.W - 2*st.pad, H: rowH}
		v.refs[id] = g.Replay
		v.games = append(v.games, b)
		y += rowH
	}
}

// runsHeight is the height of the kept runs' list and the notes.
func (v *gauntletView) runsHeight(c render.Canvas, st style) float64 {
	h := 0.0
	if len(v.runs) > 0 {
		h += c.LineHeight(st.small) + float64(len(v.runs)+1)*c.LineHeight(st.mono)
		for _, r := range v.runs {
			if r.Note != "" {
				h += c.LineHeight(st.small)
			}
		}
	}
	for _, n := range v.notes() {
		h += render.Wrap(nullCanvas{c}, n, 0, 0, v.card.W-2*st.pad, st.small, st.th.Text)
	}
	if h > 0 {
		h += st.pad
	}
	return h
}

// drawRuns lists the kept runs of the page's bot, the latest first, each
// with its source's size and fingerprint and how the bot stood, then the
// notes (an edit mid-run, the change between the last two versions).
func (v *gauntletView) drawRuns(c render.Canvas, st style) {
	th := st.th
	x, y, w := v.card.X+st.pad, v.runsY, v.card.W-2*st.pad
	row := func(when, board, pairs, games, source, wdl, elo string) string {
		if st.compact {
			return fmt.Sprintf("%-11s %-8.8s %-8s %s", when, board, wdl, elo)
		}
		return fmt.Sprintf("%-12s %-10.10s %5s %7s %-16s %-9s %s", when, board, pairs, games, source, wdl, elo)
	}
	if len(v.runs) > 0 {
		c.Text(fit(c, "Your bot's runs, kept in this browser (the latest first)", st.small, w), x, y, st.small, render.Left, th.TextDim)
		y += c.LineHeight(st.small)
		c.Text(fit(c, row("started", "board", "pairs", "games", "source", "W-D-L", "Elo [95%]"), st.mono, w), x, y, st.mono, render.Left, th.TextDim)
		y += c.LineHeight(st.mono)
	}
	for i, r := range v.runs {
		when := "now"
		if r.Started > 0 {
			when = time.UnixMilli(r.Started).Format("Jan 2 15:04")
		}
		col := th.Text
		if i == 0 {
			col = th.Accent
		}
		line := row(when, runBoard(v.game, r.Board), strconv.Itoa(r.Pairs), fmt.Sprintf("%d/%d", r.Played, r.Total), fmt.Sprintf("%d lines %s", r.Lines, r.Digest),
			fmt.Sprintf("%d-%d-%d", r.Wins, r.Draws, r.Losses), fmt.Sprintf("%s [%s, %s]", r.Elo, r.EloLow, r.EloHigh))
		c.Text(fit(c, line, st.mono, w), x, y, st.mono, render.Left, col)
		y += c.LineHeight(st.mono)
		if r.Note != "" {
			c.Text(fit(c, "  "+r.Note, st.small, w), x, y, st.small, render.Left, th.TextDim)
			y += c.LineHeight(st.small)
		}
	}
	for _, n := range v.notes() {
		y = render.Wrap(c, n, x, y, w, st.small, th.Text)
	}
}

// runBoard is a kept run's board: a run kept before the board was asked
// played the game's default.
func runBoard(game, board string) string {
	if board == "" {
		if g, err := match.Lookup(game); err == nil {
			return g.Presets()[0].Name
		}
	}
	return board
}

// reasonsHeight is the height of the lines saying why entrants lost
// games by the rules.
func (v *gauntletView) reasonsHeight(c render.Canvas, st style) float64 {
	n := 0
	for _, e := range v.status.Entrants {
		n += min(len(e.Reasons), 3)
	}
	return float64(n) * c.LineHeight(st.small)
}

func (v *gauntletView) intro() string {
	g, _ := match.Lookup(v.game)
	name := v.game
	if g != nil {
		name = g.Info().Label()
	}
	if v.pageBot() {
		return fmt.Sprintf("Your bot against every built-in bot of %s, in both seats, on the board chosen: played in this browser's workers as arena tournament plays it, kept in this browser, and resumed when run again with the same source.", name)
	}
	return fmt.Sprintf("Your program against every built-in bot of %s, in both seats, on the board chosen: played on this machine as arena tournament plays it, kept, and resumed when started again.", name)
}

func (v *gauntletView) click(in *input) {
	was := ""
	if len(v.programs.items) > 0 {
		was = v.programs.id()
	}
	v.programs.update(in)
	if len(v.programs.items) > 0 && v.programs.id() != was && !v.running {
		v.status = nil
		v.loadHistory()
	}
	board := v.boards.id()
	v.boards.update(in)
	if v.boards.id() != board && !v.running {
		v.status = nil
	}
	v.pairs.update(in)
	switch {
	case v.run.hit(in):
		if v.running {
			v.stop()
		} else {
			v.start()
		}
	case v.report.hit(in):
		if v.status != nil && v.status.Report != "" {
			msg, err := v.app.opts.Gauntlets.Report(v.status.Report)
			if err != nil {
				msg = err.Error()
			}
			v.app.toastf("%s", msg)
		}
	case v.back.hit(in):
		v.app.gauntletShown = false
		v.app.canvas.Forget()
	}
	for _, b := range v.games {
		if b.hit(in) {
			v.open(v.refs[b.id])
		}
	}
}

// open opens a game's replay in the match view; Back there comes back
// here.
func (v *gauntletView) open(ref string) {
	v.app.toastf("opening %s…", ref)
	v.app.opts.Gauntlets.Open(ref, func(name string, data []byte, err error) {
		if err != nil {
			v.app.toastf("%v", err)
			return
		}
		v.app.Load(name, data)
	})
}

func (v *gauntletView) key(k ebiten.Key) {
	if k == ebiten.KeyEscape {
		v.app.gauntletShown = false
		v.app.canvas.Forget()
	}
}

func (v *gauntletView) draw(c render.Canvas, st style, in *input) {
	th := st.th
	roundRect(c, v.card, st.radius*2, th.Panel)
	x, y := v.card.X+st.pad, v.card.Y+st.pad
	c.Text("Gauntlet", x, y, st.big, render.Left, th.Text)
	render.Wrap(c, v.intro(), x, y+c.LineHeight(st.big), v.card.W-2*st.pad, st.small, th.TextDim)
	for _, row := range []struct {
		label string
		ch    *chips
	}{{"Program", v.programs}, {"Board", v.boards}, {"Pairs", v.pairs}} {
		r := row.ch.items[0].r
		c.Text(row.label, x, r.Y+(st.rowH-c.LineHeight(st.bold))/2, st.bold, render.Left, th.TextDim)
		row.ch.draw(c, st, in)
	}
	v.run.label = "Run"
	if v.running {
		v.run.label = "Stop"
	}
	v.report.enabled = v.status != nil && v.status.Played > 0
	for _, b := range []*button{v.run, v.report, v.back} {
		b.draw(c, st, in)
	}
	roundRect(c, v.bar, v.bar.H/2, th.Board)
	if s := v.status; s != nil && s.Total > 0 {
		done := v.bar
		done.W = v.bar.W * float64(s.Played) / float64(s.Total)
		roundRect(c, done, v.bar.H/2, th.Accent)
	}
	c.Text(fit(c, v.progressText(), st.small, v.card.W-2*st.pad), x, v.tableY, st.small, render.Left, th.TextDim)
	if v.status == nil {
		v.drawRuns(c, st)
		return
	}
	y = v.tableY + c.LineHeight(st.small) + st.gap
	row := func(name, games, wdl, points, elo, forfeits, ms string) string {
		if st.compact { // a phone: what the student looks for
			return fmt.Sprintf("%-10.10s %-8s %5s %s", name, wdl, points, elo)
		}
		return fmt.Sprintf("%-14s %5s %-11s %6s %-20s %8s %8s", name, games, wdl, points, elo, forfeits, ms)
	}
	c.Text(fit(c, row("entrant", "games", "W-D-L", "points", "Elo [95%]", "forfeits", "ms/move"), st.mono, v.card.W-2*st.pad), x, y, st.mono, render.Left, th.TextDim)
	y += c.LineHeight(st.mono)
	for _, e := range v.status.Entrants {
		col := th.Text
		if strings.HasPrefix(e.Spec, servedPrefix) || e.Spec == PageBot { // the student's
			col = th.Accent
		}
		line := row(e.Name, strconv.Itoa(e.Games), fmt.Sprintf("%d-%d-%d", e.Wins, e.Draws, e.Losses), strconv.FormatFloat(e.Points, 'f', 1, 64),
			fmt.Sprintf("%s [%s, %s]", e.Elo, e.EloLow, e.EloHigh), strconv.Itoa(e.Forfeits), strconv.FormatFloat(e.MeanMs, 'f', 2, 64))
		c.Text(fit(c, line, st.mono, v.card.W-2*st.pad), x, y, st.mono, render.Left, col)
		y += c.LineHeight(st.mono)
	}
	y += st.pad
	for _, e := range v.status.Entrants {
		for _, r := range e.Reasons[:min(len(e.Reasons), 3)] {
			c.Text(fit(c, e.Name+": "+r, st.small, v.card.W-2*st.pad), x, y, st.small, render.Left, th.Collision)
			y += c.LineHeight(st.small)
		}
	}
	v.drawRuns(c, st)
	y = v.runsY + v.runsHeight(c, st)
	if len(v.games) > 0 {
		c.Text("The latest games: click one to watch it", x, y, st.small, render.Left, th.TextDim)
	}
	for _, b := range v.games {
		if b.r.Contains(in.x, in.y) {
			roundRect(c, b.r, st.radius, render.Mix(th.Panel, th.TextDim, 0.25))
		}
		c.Text(fit(c, b.label, st.mono, b.r.W-st.gap), b.r.X+st.gap/2, b.r.Y+(b.r.H-c.LineHeight(st.mono))/2, st.mono, render.Left, th.Text)
	}
}

// progressText says how far the gauntlet is.
func (v *gauntletView) progressText() string {
	s := v.status
	switch {
	case s == nil && v.running:
		return "starting…"
	case s == nil:
		return "Pick your program and the pairs of games against each bot, then Run."
	case s.Error != "":
		return "stopped: " + s.Error
	}
	t := fmt.Sprintf("%d of %d games", s.Played, s.Total)
	if s.Resumed > 0 {
		t += fmt.Sprintf(" (%d from an earlier run)", s.Resumed)
	}
	switch {
	case s.Done:
		t += " · done"
	case !v.running:
		t += " · stopped: Run resumes it"
	}
	return t
}
