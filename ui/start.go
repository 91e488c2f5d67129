package ui

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/ui/startcard"
)

// startView is where a match is set up: the game, each side's player
// (every bot of the game, or you), the board preset and the seed.
type startView struct {
	app     *App
	games   *chips
	players [2]*chips
	presets *chips
	seed    field
	dice    *button
	start   *button
	// gauntlet opens the gauntlet view, where a program is offered.
	gauntlet *button
	// write opens the page's editor on the game's bot.
	write  *button
	card   rect
	introY float64
	rows   []labelRow
	// stills are each game's still under the intro (startcard), where
	// the page's HTML drew them before the program started.
	stills []still
}

// still is a game's still on the start card: where, and the record of
// the match whose start it shows.
type still struct {
	game string
	r    rect
	rec  *play.Record
}

// intro is the start view's line under the title.
const intro = startcard.Intro

// nullCanvas measures as its canvas does and draws nothing: layout uses
// it to find where wrapped text ends.
type nullCanvas struct{ render.Canvas }

func (nullCanvas) Text(string, float64, float64, render.Face, render.Align, color.RGBA) {}

type labelRow struct {
	label string
	y     float64
}

func newStartView(app *App) *startView {
	v := &startView{app: app, dice: newButton("dice", "Random"), start: newButton("start", "Start"), gauntlet: newButton("gauntlet", "Gauntlet…"), write: newButton("write", "Write a bot…")}
	v.start.accent = true
	v.seed.max = 19
	var ids, labels []string
	for _, g := range match.Games() {
		info := g.Info()
		ids = append(ids, info.Name)
		labels = append(labels, fmt.Sprintf("%d  %s", info.Key, gameLabel(info)))
	}
	v.games = newChips(ids, labels)
	for _, g := range match.Games() {
		if rec, err := startcard.Record(g); err == nil {
			v.stills = append(v.stills, still{game: g.Info().Name, rec: rec})
		}
	}
	v.selectGame(app.opts.Game)
	v.players[0].choose(app.opts.P1)
	v.players[1].choose(app.opts.P2)
	v.presets.choose(app.opts.Preset)
	v.seed.value = strconv.FormatUint(app.opts.Seed, 10)
	return v
}

// hasGauntlet reports whether a gauntlet can be run here: the page's
// editor has a bot to rate, or a program is offered for the game chosen,
// on a machine that runs gauntlets.
func (v *startView) hasGauntlet() bool {
	if v.app.opts.Gauntlets == nil {
		return false
	}
	if v.app.opts.Editor != nil {
		return true
	}
	for _, p := range v.app.opts.Programs {
		if p.Game == v.games.id() {
			return true
		}
	}
	return false
}

// programsHelp says how to get a program of one's own into g's seats,
// when none is offered for it.
func (v *startView) programsHelp(g match.Game) string {
	for _, p := range v.app.opts.Programs {
		if p.Game == g.Info().Name {
			return ""
		}
	}
	return v.app.opts.ProgramsHelp
}

// gameLabel is the name of a game for its chip.
func gameLabel(info match.Info) string { return info.Label() }

// selectGame chooses a game and fills its players and presets, keeping
// the players chosen before where the new game has them.
func (v *startView) selectGame(name string) {
	if !v.games.choose(name) {
		v.games.chosen = 0
	}
	g, _ := match.Lookup(v.games.id())
	keep := [2]string{"strong", "greedy"}
	for i, p := range v.players {
		if p != nil {
			keep[i] = p.id()
		}
	}
	ids, labels := []string{You}, []string{"You"}
	for _, b := range g.Bots() {
		ids, labels = append(ids, b.Name), append(labels, b.Name)
	}
	for _, p := range v.app.opts.Programs {
		if p.Game == g.Info().Name {
			ids, labels = append(ids, p.Spec), append(labels, p.Name+" (program)")
		}
	}
	if v.app.opts.Editor != nil {
		ids, labels = append(ids, PageBot), append(labels, "your bot (Go)")
	}
	for i := range v.players {
		v.players[i] = newChips(ids, labels)
		if !v.players[i].choose(keep[i]) {
			v.players[i].choose("random")
		}
	}
	ids, labels = nil, nil
	for _, p := range g.Presets() {
		ids, labels = append(ids, p.Name), append(labels, p.Name)
	}
	if f := v.app.loaded; f != nil && f.game == v.games.id() {
		ids, labels = append(ids, f.preset()), append(labels, f.name)
	}
	v.presets = newChips(ids, labels)
}

// settings returns what the view has chosen.
func (v *startView) settings() Link {
	seed, err := strconv.ParseUint(v.seed.value, 10, 64)
	if err != nil {
		seed = randomSeed()
	}
	return Link{Game: v.games.id(), P1: v.players[0].id(), P2: v.players[1].id(), Preset: v.presets.id(), Seed: seed, Start: true, Turn: -1}
}

func (v *startView) layout(c render.Canvas, st style, w, h float64) {
	// The card's top is startcard's, which the page's HTML drew first.
	card := startcard.Layout(c, startcard.Style{Pad: st.pad, Gap: st.gap, Title: st.big, Text: st.text, Compact: st.compact}, w, h, st.u, len(v.stills))
	v.card = card.Box
	v.introY = card.IntroY
	for i := range v.stills {
		v.stills[i].r = card.Stills[i]
	}
	cw := v.card.W
	labelW := startcard.LabelWidth * st.u
	if st.compact {
		labelW = c.TextWidth("Board", st.bold) + st.pad
	}
	x := v.card.X + st.pad + labelW
	maxX := v.card.X + cw - st.pad
	y := card.Rows
	v.rows = v.rows[:0]
	row := func(label string, ch *chips) {
		v.rows = append(v.rows, labelRow{label, y})
		y = ch.layout(c, st, x, y, maxX) + st.pad
	}
	row("Game", v.games)
	row("P1", v.players[0])
	row("P2", v.players[1])
	row("Board", v.presets)
	v.rows = append(v.rows, labelRow{"Seed", y})
	diceW := c.TextWidth("Random", st.bold) + 2*st.pad
	seedW := math.Min(200*st.u, maxX-x-diceW-st.gap)
	v.seed.r = rect{X: x, Y: y, W: seedW, H: st.rowH}
	v.dice.r = rect{X: x + seedW + st.gap, Y: y, W: diceW, H: st.rowH}
	y += st.rowH + 2*st.pad
	v.gauntlet.enabled = v.hasGauntlet()
	v.write.enabled = v.app.opts.Editor != nil
	v.layoutActions(c, st, x, y, maxX)
	for _, b := range []*button{v.write, v.gauntlet} {
		if b.enabled && b.r.Y > y { // a phone: a row of their own
			y = b.r.Y
		}
	}
	y += v.start.r.H + st.pad
	v.card.H = y + 4*c.LineHeight(st.small) + st.pad - v.card.Y
}

// layoutActions places Start and the buttons beside it in one row at y:
// Write a bot… (there whenever the page has its editor), then Gauntlet…
// (there only for a game a program is offered in), so that choosing a
// game never moves a button under the person's pointer. With their usual
// padding when they fit, else with less (a phone), else the buttons that
// do not fit on a row of their own below.
func (v *startView) layoutActions(c render.Canvas, st style, x, y, maxX float64) {
	h := st.rowH * 1.2
	row := []*button{v.start, v.write, v.gauntlet}
	place := func(pads float64) float64 {
		at := x
		for i, b := range row {
			p := pads
			if i == 0 {
				p += 2 // Start stands out
			}
			b.r = rect{X: at, Y: y, W: c.TextWidth(b.label, st.bold) + p*st.pad, H: h}
			if b.enabled || i == 0 {
				at += b.r.W + st.gap
			}
		}
		return at - st.gap
	}
	if place(4) <= maxX || place(2) <= maxX {
		return
	}
	// A second row, from the first button that does not fit.
	at, second := x, false
	for _, b := range row[1:] {
		if !b.enabled {
			continue
		}
		if !second && b.r.X+b.r.W > maxX {
			second, at = true, x
		}
		if second {
			b.r.X, b.r.Y = at, y+h+st.pad
			at += b.r.W + st.gap
		}
	}
}

// click handles the frame's click.
func (v *startView) click(in *input) {
	if v.games.update(in) {
		v.selectGame(v.games.id())
	}
	for _, s := range v.stills {
		if in.clicked && !v.app.compact && s.r.Contains(in.x, in.y) { // on a phone, too small to press
			in.clicked = false
			v.selectGame(s.game)
		}
	}
	for _, p := range v.players {
		p.update(in)
	}
	v.presets.update(in)
	v.seed.click(in)
	if v.dice.hit(in) {
		v.seed.value = strconv.FormatUint(randomSeed(), 10)
	}
	if v.start.hit(in) {
		v.app.startMatch(v.settings())
	}
	if v.gauntlet.hit(in) {
		v.app.showGauntlet(v.games.id())
	}
	if v.write.hit(in) {
		v.app.opts.Editor.Open(v.games.id())
	}
}

// key handles a key: the seed field's while it has the focus, a game's
// number, Enter to start.
func (v *startView) key(k ebiten.Key) {
	if v.seed.focused && v.seed.key(k) {
		return
	}
	if game, ok := gameKey(k); ok {
		v.selectGame(game)
		return
	}
	if k == ebiten.KeyEnter || k == ebiten.KeyNumpadEnter {
		v.seed.focused = false
		v.app.startMatch(v.settings())
	}
}

func (v *startView) draw(c render.Canvas, st style, in *input) {
	th := st.th
	roundRect(c, v.card, st.radius*2, th.Panel)
	x := v.card.X + st.pad
	y := v.card.Y + st.pad
	c.Text("arena", x, y, st.big, render.Left, th.Text)
	y += c.LineHeight(st.big)
	render.Wrap(c, intro, x, v.introY, v.card.W-2*st.pad, st.text, th.TextDim)
	for _, r := range v.rows {
		c.Text(r.label, x, r.y+(st.rowH-c.LineHeight(st.bold))/2, st.bold, render.Left, th.TextDim)
	}
	for _, s := range v.stills {
		render.Layer(c, "still:"+s.game, s.r, s.r, func() { startcard.Draw(c, s.r, s.rec, th) })
		if s.game == v.games.id() {
			c.Stroke(rect{X: s.r.X - 2*st.lw, Y: s.r.Y - 2*st.lw, W: s.r.W + 4*st.lw, H: s.r.H + 4*st.lw}, 2*st.lw, th.Accent)
		}
	}
	v.games.draw(c, st, in)
	for side, p := range v.players {
		col := th.Player[side]
		for _, b := range p.items {
			b.colour = &col
		}
		p.draw(c, st, in)
	}
	v.presets.draw(c, st, in)
	v.seed.draw(c, st)
	v.dice.draw(c, st, in)
	v.start.draw(c, st, in)
	if v.gauntlet.enabled {
		v.gauntlet.draw(c, st, in)
	}
	if v.write.enabled {
		v.write.draw(c, st, in)
	}
	// What the chosen players are.
	g, _ := match.Lookup(v.games.id())
	y = max(v.start.r.Y, v.write.r.Y, v.gauntlet.r.Y) + v.start.r.H + st.pad
	for side, p := range v.players {
		desc := "you play this side: click the board, Enter sends"
		if info, err := match.LookupBot(g, p.id()); err == nil {
			desc = info.Description
		} else if pr, ok := v.app.opts.program(g.Info().Name, p.id()); ok {
			desc = fmt.Sprintf("your program (%s:), run by this machine as the command line runs it", pr.Kind)
		} else if p.id() == PageBot {
			desc = "the bot you write in Go with Write a bot…, interpreted in a worker of its own"
		}
		c.Text(fit(c, fmt.Sprintf("%s %s: %s", match.Side(side), p.id(), desc), st.small, v.card.W-2*st.pad), x, y, st.small, render.Left, th.TextDim)
		y += c.LineHeight(st.small)
	}
	if help := v.programsHelp(g); help != "" {
		c.Text(fit(c, help, st.small, v.card.W-2*st.pad), x, y, st.small, render.Left, th.TextDim)
		y += c.LineHeight(st.small)
	}
	c.Text("Press H or ? for the keys.", x, y, st.small, render.Left, th.TextDim)
}
