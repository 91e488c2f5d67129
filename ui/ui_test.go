package ui

import (
	"bytes"
	"fmt"
	"math"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/analysis"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// The package imports ebiten, so these tests need a display (make test
// runs them under Xvfb); none of them opens a window.

func TestBuildSetupRefuses(t *testing.T) {
	cases := []struct{ game, p1, p2, preset, want string }{
		{"chess", "strong", "greedy", "", `unknown game "chess"`},
		{"life", "strnog", "greedy", "", `unknown bot "strnog"`},
		{"life", "strong:depth=3", "greedy", "", `unknown option "depth"`},
		{"life", "strong", "greedy", "huge", `unknown preset "huge"`},
	}
	for _, c := range cases {
		l := Link{Game: c.game, P1: c.p1, P2: c.p2, Preset: c.preset, Seed: 1}
		if _, err := l.Setup(nil, play.Hosting{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v.Setup() = %v, want %q", l, err, c.want)
		}
	}
	s, err := Link{Game: "life", P1: You, P2: "random", Preset: "64x64", Seed: 3}.Setup(nil, play.Hosting{})
	if err != nil || s.Players[0].Name != You || s.Config.(*life.Config).Rows != 64 {
		t.Errorf("a link with a person: %+v, %v", s, err)
	}
}

// TestPlaybackAsksAPerson: the match waits for the person's side; the
// move sent goes to the match, which goes on with it, and the turn is
// not asked twice.
func TestPlaybackAsksAPerson(t *testing.T) {
	g, _ := match.Lookup("mapcolor")
	pb, err := newPlayback(play.Setup{Game: g, Config: &mapcolor.Config{Map: "australia"}, Seed: 1,
		Players: [2]play.Spec{{Name: You}, {Name: "greedy"}}}, nil, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer pb.stop()
	req := awaitPending(t, pb)
	if req.side != match.P1 || req.state.Turn() != 0 {
		t.Fatalf("asked %s at turn %d", req.side, req.state.Turn())
	}
	h := humans["mapcolor"]()
	h.Start(req.state, req.side)
	r, ok := h.Suggest(rect{W: 600, H: 600})
	if !ok {
		t.Fatal("no legal move suggested")
	}
	h.Click(r.X+r.W/2, r.Y+r.H/2, rect{W: 600, H: 600})
	r, _ = h.Suggest(rect{W: 600, H: 600})
	h.Click(r.X+r.W/2, r.Y+r.H/2, rect{W: 600, H: 600})
	a, err := h.Action()
	if err != nil {
		t.Fatal(err)
	}
	if err := pb.play(req, a); err != nil {
		t.Fatal(err)
	}
	if _, again := pb.pending(); again {
		t.Error("the turn is still asked after the move was sent")
	}
	next := awaitPending(t, pb)
	if next.state.Turn() != 2 || len(pb.rec.Turns) != 2 {
		t.Fatalf("after the move: asked at turn %d with %d turns played", next.state.Turn(), len(pb.rec.Turns))
	}
	if played := pb.rec.Turns[0].Actions[match.P1]; played == nil || fmt.Sprint(played) != fmt.Sprint(a) {
		t.Errorf("played %v, sent %v", played, a)
	}
}

// awaitPending receives the match's messages until it waits for a person.
func awaitPending(t *testing.T, pb *playback) request {
	t.Helper()
	for {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
		if req, ok := pb.pending(); ok {
			return req
		}
		if pb.rec.Result != nil {
			t.Fatal("the match ended without asking")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLifeHumanClicks(t *testing.T) {
	h := humans["life"]()
	s := life.NewState(life.Competition(), 1)
	h.Start(s, match.P1)
	board := rect{X: 0, Y: 0, W: 480, H: 480}
	grid := render.CoordinateGrid(board, 24, 24) // the board as drawn, coordinates at its edges
	at := func(c life.Cell) (float64, float64) {
		b := grid.Box(c.Row, c.Col)
		return b.X + b.W/2, b.Y + b.H/2
	}
	click := func(c life.Cell) { x, y := at(c); h.Click(x, y, board) }

	click(life.Cell{Row: 11, Col: 5}) // P1's own live cell
	if !strings.Contains(h.Prompt(), "alive") {
		t.Errorf("clicking a live cell: %q", h.Prompt())
	}
	click(life.Cell{Row: 0, Col: 0}) // far from P1's block
	if !strings.Contains(h.Prompt(), "farther than 2") {
		t.Errorf("clicking a far cell: %q", h.Prompt())
	}
	for _, c := range []life.Cell{{Row: 10, Col: 5}, {Row: 10, Col: 6}, {Row: 13, Col: 5}, {Row: 13, Col: 6}} {
		click(c)
	}
	if !strings.Contains(h.Prompt(), "bank holds 3") {
		t.Errorf("a fourth cell with 3 in the bank: %q", h.Prompt())
	}
	click(life.Cell{Row: 10, Col: 6}) // take one back
	a, err := h.Action()
	if err != nil || len(a.(life.Action)) != 2 || s.Check(match.P1, a) != nil {
		t.Errorf("Action = %v, %v", a, err)
	}
	if r, ok := h.Suggest(board); !ok || r.W < 10 {
		t.Errorf("Suggest = %v, %v", r, ok)
	}
	if !h.Key(ebiten.KeyBackspace) {
		t.Error("Backspace takes back the last cell")
	}
	if a, _ := h.Action(); len(a.(life.Action)) != 1 {
		t.Errorf("after Backspace: %v", a)
	}
}

// computed starts a playback and waits until its match is computed.
func computed(t *testing.T, game string, cfg match.Config, seed uint64, p1, p2 string) *playback {
	t.Helper()
	g, _ := match.Lookup(game)
	var players [2]play.Spec
	for i, p := range []string{p1, p2} {
		sp, err := play.ParseSpec(p)
		if err != nil {
			t.Fatal(err)
		}
		players[i] = sp
	}
	pb, err := newPlayback(play.Setup{Game: g, Config: cfg, Seed: seed, Players: players}, nil, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pb.stop)
	for pb.rec.Result == nil {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	return pb
}

// TestPlaybackSteps plays a short match and moves the playhead over it.
func TestPlaybackSteps(t *testing.T) {
	cfg := *life.Competition()
	cfg.Iterations = 12
	pb := computed(t, "life", &cfg, 2, "random", "greedy")
	if pb.span() != 12 || pb.length() != 12 {
		t.Fatalf("span %v, length %v", pb.span(), pb.length())
	}
	pb.tick(1) // one second at 1x: five turns
	if pb.t != 5 || !pb.playing {
		t.Errorf("after one second: t=%v playing=%v", pb.t, pb.playing)
	}
	pb.step(+1)
	if pb.t != 6 || pb.playing {
		t.Errorf("step forward: t=%v playing=%v", pb.t, pb.playing)
	}
	pb.seek(5.5)
	pb.step(-1)
	if pb.t != 5 {
		t.Errorf("step back from 5.5: t=%v", pb.t)
	}
	pb.seek(99)
	if !pb.atEnd() || pb.t != 12 {
		t.Errorf("seek past the end: t=%v", pb.t)
	}
	pb.toggle()
	if pb.t != 0 || !pb.playing {
		t.Errorf("play at the end starts again: t=%v playing=%v", pb.t, pb.playing)
	}
	pb.faster(+10)
	if speeds[pb.speed] != 64 { // Evasion: thousands of ticks at 60 a second
		t.Errorf("fastest speed %v", speeds[pb.speed])
	}
	var lead bool
	for _, e := range pb.events {
		lead = lead || e.Kind == render.EventLead
	}
	if len(pb.events) == 0 || !lead {
		t.Errorf("events %v", pb.events)
	}
}

// TestMapcolorHumanClicks: on Australia (WA red by P1, SA green by P2),
// P1 clicks a coloured state, then Q, then one of Q's swatches.
func TestMapcolorHumanClicks(t *testing.T) {
	g, _ := match.Lookup("mapcolor")
	st, err := g.Start(&mapcolor.Config{Map: "australia"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(mapcolor.State)
	h := humans["mapcolor"]()
	h.Start(s, match.P1)
	board := rect{X: 0, Y: 0, W: 960, H: 540}
	l := render.LayoutMap(s, board, false) // a human without players set: no pane
	click := func(name string) {
		c := l.Centre(slices.Index(s.Problem().States, name))
		h.Click(c.X, c.Y, board)
	}
	click("WA")
	if !strings.Contains(h.Prompt(), "WA is coloured already") || h.Done() {
		t.Errorf("clicking WA: %q", h.Prompt())
	}
	if r, ok := h.Suggest(board); !ok || !r.Contains(l.Centre(0).X, l.Centre(0).Y) {
		t.Errorf("Suggest = %v, %v; want the first playable state, NSW", r, ok)
	}
	click("Q")
	sw := h.(*mapcolorHuman).swatches(board)
	if len(sw) != 2 || h.Done() { // B and R: Q's neighbour SA is G
		t.Fatalf("Q's swatches: %v", sw)
	}
	h.Click(sw[1].X+sw[1].W/2, sw[1].Y+sw[1].H/2, board)
	a, err := h.Action()
	if !h.Done() || err != nil || a != (mapcolor.Move{State: "Q", Colour: "R"}) {
		t.Errorf("after the second swatch: %v, %v", a, err)
	}
	h.Start(s, match.P1)
	click("Q")
	if !h.Key(ebiten.Key1) {
		t.Fatal("key 1 picks the first colour")
	}
	if a, _ := h.Action(); a != (mapcolor.Move{State: "Q", Colour: "B"}) {
		t.Errorf("key 1 on Q: %v", a)
	}
}

// TestPlaybackStepsLines: in map colouring the step keys go through the
// lines of each decision's trace, then to the next move.
func TestPlaybackStepsLines(t *testing.T) {
	pb := computed(t, "mapcolor", &mapcolor.Config{Map: "australia"}, 1, "course", "course")
	n, part := render.Steps(pb.rec, 0)
	if n != 85 { // the handout's trace of the Australia example
		t.Fatalf("the first decision has %d steps, want 85", n)
	}
	pb.seek(0)
	for i := 1; i <= n; i++ {
		pb.stepLine(+1)
		if want := float64(i) / float64(n) * part; math.Abs(pb.t-want) > 1e-9 {
			t.Fatalf("step %d: t=%v, want %v", i, pb.t, want)
		}
	}
	if pb.stepLine(+1); pb.t != 1 || pb.playing {
		t.Fatalf("past the last line: t=%v playing=%v, want the next move, paused", pb.t, pb.playing)
	}
	pb.stepLine(-1)
	if want := float64(n-1) / float64(n) * part; math.Abs(pb.t-want) > 1e-9 {
		t.Errorf("back from the next move: t=%v, want %v (the last line but one)", pb.t, want)
	}
	pb.playing = true
	pb.seek(0)
	pb.tick(0.5) // half a second at 1x: a turn a second, slowed by the trace's length
	if want := 0.5 / render.Pace(pb.rec, 0); math.Abs(pb.t-want) > 1e-9 {
		t.Errorf("after half a second: t=%v, want %v", pb.t, want)
	}
	// A long frame carries the playhead through the turns it covers, each
	// at its own pace: the playhead follows the clock, not the frames.
	pb.seek(0)
	p0, p1 := render.Pace(pb.rec, 0), render.Pace(pb.rec, 1)
	pb.tick(p0 + p1/2)
	if math.Abs(pb.t-1.5) > 1e-9 {
		t.Errorf("after %.2f s (all of turn 0, half of turn 1): t=%v, want 1.5", p0+p1/2, pb.t)
	}
	pb.seek(0)
	for range 20 {
		pb.tick((p0 + p1/2) / 20)
	}
	if math.Abs(pb.t-1.5) > 1e-9 {
		t.Errorf("the same time in 20 frames: t=%v, want 1.5", pb.t)
	}
}

// TestLoadFile: a file opens as a config of the game preferred when it
// takes it, else of the game that does; when none does, the error names
// the line of the format the file is most likely in.
func TestLoadFile(t *testing.T) {
	input, err := os.ReadFile("../engine/mapcolor/testdata/t5.txt")
	if err != nil {
		t.Fatal(err)
	}
	game, cfg, err := LoadFile("life", "t5.txt", input)
	if err != nil || game != "mapcolor" || cfg.(*mapcolor.Config).Name != "t5.txt" {
		t.Fatalf("t5.txt from life: %v %v %v", game, cfg, err)
	}
	life, _ := os.ReadFile("../assets/life/competition.json")
	if game, _, err := LoadFile("mapcolor", "configFinal.json", life); err != nil || game != "life" {
		t.Errorf("the Life competition's config from map colouring: %v %v", game, err)
	}
	broken := bytes.Replace(input, []byte("R: 10, G: 5, B: 0"), []byte("R: 10, G: five, B: 0"), 1)
	if _, _, err := LoadFile("life", "broken.txt", broken); err == nil || !strings.Contains(err.Error(), `broken.txt:4: weight of G is "five"`) {
		t.Errorf("a broken course input dropped on Life: %v", err)
	}
}

// TestAppOpensAFile: the desktop's -config opens the file's game at once,
// and the file is one more board of that game in the start view.
func TestAppOpensAFile(t *testing.T) {
	input, _ := os.ReadFile("../engine/mapcolor/testdata/t5.txt")
	a := New(Options{Link: Link{Game: "life", P1: "strong", P2: You, Seed: 4}, File: "t5.txt", FileData: input})
	defer a.showStart()
	if a.match == nil || a.opts.Game != "mapcolor" || a.opts.Preset != "file:t5.txt" || a.opts.P2 != You {
		t.Fatalf("opened %+v, match %v", a.opts, a.match != nil)
	}
	if a.start.presets.id() != "file:t5.txt" {
		t.Errorf("the start view's board is %q", a.start.presets.id())
	}
	if q := a.opts.Query(); q.Has("preset") {
		t.Errorf("the link names the file: %v", q)
	}
	a.start.selectGame("life")
	a.start.selectGame("mapcolor")
	if a.start.presets.choose("file:t5.txt"); a.start.presets.id() != "file:t5.txt" {
		t.Error("the file is no longer offered after switching games")
	}
}

// TestKeysNeverLoseAMatch: number keys choose the game on the start view
// only (in map colouring they pick colours); in a match Esc and N ask
// before leaving; several keys pressed within one frame all act, in the
// order pressed; Esc leaves the seed field.
func TestKeysNeverLoseAMatch(t *testing.T) {
	var pending []ebiten.Key
	a := New(Options{Link: Link{Game: "mapcolor", P1: "strong", P2: "greedy", Preset: "usa", Seed: 2, Start: true}, Presses: func() ([]ebiten.Key, [][2]float64) {
		k := pending
		pending = nil
		return k, nil
	}})
	defer a.showStart()
	a.Layout(1280, 800)
	press := func(k ...ebiten.Key) {
		pending = k
		a.Update()
	}
	first := a.match
	press(ebiten.Key1, ebiten.Key2)
	if a.match != first || a.opts.Game != "mapcolor" {
		t.Fatalf("number keys in a match changed it to %s", a.opts.Game)
	}
	press(ebiten.KeyEscape)
	if a.confirm == nil || a.match != first {
		t.Fatal("Esc in a match did not ask first")
	}
	press(ebiten.KeyEscape)
	if a.confirm != nil || a.match != first {
		t.Fatal("answering no to Esc's question left the match")
	}
	press(ebiten.KeyN, ebiten.KeyN)
	if a.confirm != nil || a.match != first {
		t.Fatal("N, then N for no, left the match")
	}
	speed := first.pb.speed
	press(ebiten.KeySpace, ebiten.KeyEqual, ebiten.KeyEqual, ebiten.KeyMinus)
	if first.pb.playing || first.pb.speed != speed+1 {
		t.Errorf("four keys in one frame: playing %v, speed %d (was %d), want paused at one step faster", first.pb.playing, first.pb.speed, speed)
	}
	press(ebiten.KeyEscape, ebiten.KeyEnter)
	if a.match != nil || a.confirm != nil {
		t.Fatal("Esc then Enter in one frame did not leave the match")
	}
	press(ebiten.Key2)
	if a.start.games.id() != "colosseum" {
		t.Errorf("2 on the start view chose %s", a.start.games.id())
	}
	a.start.seed.focused, a.start.seed.value = true, ""
	press(ebiten.Key1, ebiten.KeyBackspace, ebiten.KeyH)
	if a.start.games.id() != "colosseum" || a.help {
		t.Errorf("keys typed in the seed field acted: game %s, help %v", a.start.games.id(), a.help)
	}
	press(ebiten.KeyEscape, ebiten.Key1)
	if a.start.seed.focused || a.start.games.id() != "life" || a.match != nil {
		t.Errorf("Esc then 1: seed focused %v, game %s, match %v", a.start.seed.focused, a.start.games.id(), a.match != nil)
	}
}

// TestHelpListsTheGames: the help names the number keys of the games
// there are.
func TestHelpListsTheGames(t *testing.T) {
	games := match.Games()
	want := fmt.Sprintf("%d – %d", games[0].Info().Key, games[len(games)-1].Info().Key)
	if !slices.ContainsFunc(helpKeys(), func(k [2]string) bool { return k[0] == want }) {
		t.Errorf("help keys %v lack %q", helpKeys(), want)
	}
}

func mustGame(t *testing.T, name string) match.Game {
	t.Helper()
	g, err := match.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// replayOf writes a record's replay without the notes, which a link does
// not carry.
func replayOf(t *testing.T, rec *play.Record) string {
	t.Helper()
	c := *rec
	c.Turns = slices.Clone(rec.Turns)
	for i := range c.Turns {
		c.Turns[i].Notes = [2]*play.KeptNote{}
	}
	var b bytes.Buffer
	if err := play.SaveReplay(&b, &c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestThinkingLayer: the link's thinking=1 turns the layer on and stays
// in the link; T and the Thinking button toggle it; a link's turn holds
// playing there; the panel lists the candidates of the turn at the
// playhead, as the status tells tests.
func TestThinkingLayer(t *testing.T) {
	q, _ := url.ParseQuery("game=colosseum&p1=strong:nodes=5000&p2=greedy&seed=3&preset=8&thinking=1&turn=2")
	o := Options{Link: ParseLink(q)}
	if !o.Thinking || o.Turn != 2 || o.Query().Get("thinking") != "1" {
		t.Fatalf("ParseLink = %+v, link %v", o, o.Query())
	}
	if off := ParseLink(url.Values{}); off.Thinking || off.Query().Has("thinking") {
		t.Fatalf("the layer is on by default: %v", off.Query())
	}
	var in presses
	o.Presses = in.take
	a := computedMatch(t, o)
	pb := a.match.pb
	pb.tick(60)
	if pb.t != 2 || pb.playing {
		t.Fatalf("the link's turn 2: t=%v playing=%v", pb.t, pb.playing)
	}
	a.Update()
	s := a.Status()
	if !s.Thinking || s.ThoughtTurn != 2 || s.Placed == 0 || len(s.Thought) == 0 || !strings.Contains(s.Thought[0], "weighed") {
		t.Fatalf("status at turn 2: thinking %v, turn %d, %d placed, %q", s.Thinking, s.ThoughtTurn, s.Placed, s.Thought)
	}
	// The button shows the link's toggle as the next frame draws it.
	screen := ebiten.NewImage(1280, 800)
	a.Layout(1280, 800)
	in.keys = []ebiten.Key{ebiten.KeyT}
	a.Update()
	a.Draw(screen)
	if s := a.Status(); s.Thinking || s.Placed != 0 || a.opts.Query().Has("thinking") || a.match.buttons["think"].active {
		t.Fatalf("T left the layer on: %+v", s)
	}
	in.keys = []ebiten.Key{ebiten.KeyT}
	a.Update()
	a.Draw(screen)
	if !a.opts.Thinking || !a.match.buttons["think"].active {
		t.Fatal("T again did not show the layer")
	}
}

// TestAnalysisBoard: A turns the analysis board on at the playhead's
// position; the analysis arrives from the host a depth at a time, each
// the very analysis arena analyse -depth D makes; a click on a refuted
// option says the reply that refutes it; moving to another turn
// analyses that one; A again turns it off.
func TestAnalysisBoard(t *testing.T) {
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "colosseum", P1: "strong:nodes=5000", P2: "greedy", Seed: 3, Preset: "6", Start: true, Turn: 4}, Presses: in.take})
	pb := a.match.pb
	pb.tick(60)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, nil, what, ok, func() string { return fmt.Sprintf("the analysis %+v", a.Status().Analysis) })
	}
	s := await("depth 3", func(s Status) bool { return s.Analysis != nil && s.Analysis.Depth >= 3 })
	if !s.Analysing || s.Analysis.Turn != 4 || len(s.Analysis.Best) != analysis.BoardK {
		t.Fatalf("the analysis: %+v", s.Analysis)
	}
	state := pb.rec.State(4)
	want, err := match.Analyse(mustGame(t, "colosseum"), match.NewTurn(state, state.ToMove().Side(), nil, match.Budget{}), match.Query{K: analysis.BoardK, Depth: s.Analysis.Depth})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range s.Analysis.Best {
		if b.Move != want.Best[i].Move || b.Value != want.Best[i].Value {
			t.Errorf("best %d: the board says %s %v, arena analyse %s %v", i, b.Move, b.Value, want.Best[i].Move, want.Best[i].Value)
		}
	}
	other := reordered(t, s.Analysis, state)
	at, ok := s.Targets["option:"+other.Move]
	if !ok || other.Reply == nil {
		t.Fatalf("no point to click for %s (reply %v)", other.Move, other.Reply)
	}
	in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
	a.Update()
	// The panel speaks of the option clicked, in the analysis it shows,
	// and goes on doing so as deeper ones reorder the options.
	refuted := func(s Status) {
		t.Helper()
		for _, o := range s.Analysis.Others {
			if o.Move != other.Move {
				continue
			}
			want := fmt.Sprintf("%s is worth at most %s", o.Move, render.ValueText(o.Bound))
			if !strings.HasPrefix(s.Picked, want) || o.Reply == nil || !strings.Contains(s.Picked, o.Reply.Side.String()+" answers ") {
				t.Errorf("at depth %d, after clicking %s the panel says %q; want %q and its refutation", s.Analysis.Depth, other.Move, s.Picked, want)
			}
			return
		}
		t.Errorf("the analysis at depth %d no longer lists the option clicked, %s", s.Analysis.Depth, other.Move)
	}
	refuted(a.Status())
	d := s.Analysis.Depth
	refuted(await("a deeper analysis", func(s Status) bool { return s.Analysis.Depth > d }))
	in.keys = []ebiten.Key{ebiten.KeyArrowRight}
	s = await("turn 5", func(s Status) bool { return s.Analysis != nil && s.Analysis.Turn == 5 })
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	if s := a.Status(); s.Analysing || s.Analysis != nil || a.match.analysis.feed != nil {
		t.Errorf("A again left the analysis on: %+v", s.Analysis)
	}
}

// reordered is an option an analysis refutes that the next depth's
// analysis refutes too, at another rank: a click on it tells whether the
// board keeps what was clicked or only where it stood in the list.
func reordered(t *testing.T, an *match.Analysis, state match.State) match.Refutation {
	t.Helper()
	deeper := an.Depth + 2 // the next depth kept: whole move pairs, after a first odd one
	if an.Depth%2 == 1 {
		deeper = an.Depth + 1
	}
	next, err := match.Analyse(mustGame(t, "colosseum"), match.NewTurn(state, an.Side, nil, match.Budget{}), match.Query{K: analysis.BoardK, Depth: deeper})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range an.Others {
		for j, n := range next.Others {
			if n.Move == o.Move && i != j && o.Reply != nil && n.Reply != nil {
				return o
			}
		}
	}
	t.Fatalf("no option refuted at depth %d changes its rank at depth %d: the test needs another position", an.Depth, deeper)
	return match.Refutation{}
}

// presses are the keys and clicks a test gives the window's next frame
// (Options.Presses is take).
type presses struct {
	keys   []ebiten.Key
	clicks [][2]float64
}

func (p *presses) take() ([]ebiten.Key, [][2]float64) {
	k, c := p.keys, p.clicks
	p.keys, p.clicks = nil, nil
	return k, c
}

// computedMatch opens the match o describes in a 1280x800 window and
// waits until it is computed to its end; the window leaves it when the
// test ends.
// awaitStatus runs a's frames (drawn on screen, when there is one) until
// ok holds of its status, and returns it: it waits for progress, not
// for time, each frame taking what the host sent. It fails the test
// saying what never came and, from why, what the window showed instead.
func awaitStatus(t *testing.T, a *App, screen *ebiten.Image, what string, ok func(Status) bool, why func() string) Status {
	t.Helper()
	for range 100000 {
		a.Update()
		if screen != nil {
			a.Draw(screen)
		}
		if s := a.Status(); ok(s) {
			return s
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the window never showed %s: %s", what, why())
	return Status{}
}

func computedMatch(t *testing.T, o Options) *App {
	t.Helper()
	a := New(o)
	t.Cleanup(a.showStart)
	a.Layout(1280, 800)
	pb := a.match.pb
	for pb.rec.Result == nil {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	return a
}
