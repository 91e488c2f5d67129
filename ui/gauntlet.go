package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament/progress"
)

// Gauntlets play a student's program against every built-in bot of its
// game where the program is: the page's server, or the desktop's own
// process. Nil where no program is offered (the static site).
type Gauntlets interface {
	// Run plays (or resumes) the gauntlet of an offered program, pairs
	// pairs of games against each bot.
	Run(game, program string, pairs int) GauntletFeed
	// Open fetches a game's replay, as a status names it, and hands it to
	// got (from any goroutine).
	Open(ref string, got func(name string, data []byte, err error))
	// Report keeps the report a status names (a download, a file) and
	// says what became of it.
	Report(ref string) (string, error)
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

// gauntletView shows a gauntlet: which program and how many pairs, its
// progress, the standings as they come (points, Elo with its interval,
// forfeits and why) and its games, each opening in the match view at a
// click.
type gauntletView struct {
	app      *App
	game     string
	programs *chips
	pairs    *chips
	run      *button
	report   *button
	back     *button
	card     rect
	bar      rect
	tableY   float64
	games    []*button // the latest games, as rows
	feed     GauntletFeed
	status   *progress.Status
	running  bool
	refs     map[string]string // game button id: its replay's ref
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
	v.programs = newChips(ids, labels)
	ids, labels = nil, nil
	for _, n := range gauntletPairs {
		ids, labels = append(ids, strconv.Itoa(n)), append(labels, strconv.Itoa(n))
	}
	v.pairs = newChips(ids, labels)
	v.pairs.choose("2")
	return v
}

// start runs the gauntlet chosen, stopping one that runs.
func (v *gauntletView) start() {
	if v.feed != nil {
		v.feed.Stop()
	}
	pairs, _ := strconv.Atoi(v.pairs.id())
	v.feed, v.status, v.running = v.app.opts.Gauntlets.Run(v.game, v.programs.id(), pairs), nil, true
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
	if v.feed == nil {
		return
	}
	for _, st := range v.feed.Poll() {
		st := st
		v.status = &st
		if st.Done || st.Error != "" {
			v.running = false
		}
	}
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

// layoutGames places a row for each of the latest games that fits below
// the standings.
func (v *gauntletView) layoutGames(c render.Canvas, st style) {
	v.games = v.games[:0]
	if v.status == nil {
		return
	}
	y := v.tableY + c.LineHeight(st.small) + st.gap + float64(len(v.status.Entrants)+1)*c.LineHeight(st.mono) + st.pad
	y += v.reasonsHeight(c, st) + c.LineHeight(st.small) + st.gap
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
	return fmt.Sprintf("Your program against every built-in bot of %s, in both seats, on the default board: played on this machine as arena tournament plays it, kept, and resumed when started again.", name)
}

func (v *gauntletView) click(in *input) {
	v.programs.update(in)
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
	}{{"Program", v.programs}, {"Pairs", v.pairs}} {
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
		if strings.HasPrefix(e.Spec, servedPrefix) { // the student's
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
