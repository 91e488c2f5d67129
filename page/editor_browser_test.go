package page

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// setSource puts a source in the page's editor as typing would.
func (b *browser) setSource(src string) {
	b.t.Helper()
	js, _ := json.Marshal(src)
	eval[bool](b, fmt.Sprintf(`(() => { const e = document.getElementById("ed-source"); e.value = %s; e.dispatchEvent(new Event("input")); return true })()`, js))
}

// chooseOpponent chooses the editor's opponent for Run: a bot's name, or
// "you".
func (b *browser) chooseOpponent(name string) {
	b.t.Helper()
	js, _ := json.Marshal(name)
	eval[bool](b, fmt.Sprintf(`(document.getElementById("ed-opp").value = %s, true)`, js))
}

// clickID clicks a control of the page's HTML (the editor's) as a person
// does.
func (b *browser) clickID(id string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#"+id))); err != nil {
		b.fatalf("click #%s: %v", id, err)
	}
}

// openEditor opens the editor on a game from the start view, as a person
// does.
func (b *browser) openEditor(game string) {
	b.t.Helper()
	b.chooseGame(game)
	b.click("write") // clicks are taken one a frame, in order
	b.waitJS(`document.getElementById("editor").classList.contains("open") && document.getElementById("ed-source").value.includes("package bot")`, time.Minute)
	// The interpreter loaded: the status is empty, or says how the last
	// Run's bot ran.
	b.waitJS(`/^(|last match: .*)$/.test(document.getElementById("ed-status").textContent)`, 5*time.Minute)
}

// playNative plays a bot's source as arena play -p1 go:FILE does, and
// returns the match's moves as a replay writes them.
func playNative(t testing.TB, game, src string, seat int, other string, seed uint64) string {
	t.Helper()
	return playNativeOn(t, game, nil, src, seat, other, seed)
}

// playNativeOn is playNative on a config file's match (nil: the game's
// default config), as arena play -config FILE plays it.
func playNativeOn(t testing.TB, game string, config []byte, src string, seat int, other string, seed uint64) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "bot.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := match.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var s play.Setup
	s.Game, s.Seed = g, seed
	if config != nil {
		if s.Config, err = g.LoadConfig("config.json", config); err != nil {
			t.Fatal(err)
		}
	}
	s.Players[seat], _ = play.ParseSpec("go:" + file)
	s.Players[1-seat], _ = play.ParseSpec(other)
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rp.Moves())
	return string(b)
}

// TestPageEditorPlaysABot opens the editor on Colosseum's template, makes
// a one-line edit that changes its moves, runs it against strong and
// reads the moves through the page's test hook: they are arena play's
// with the same file, and not the template's. The match's link carries
// the source: opened again, the editor shows it and the match is the same.
func TestPageEditorPlaysABot(t *testing.T) {
	b := newBrowser(t)
	b.open("")
	const fetched = `performance.getEntriesByType("resource").some(e => e.name.endsWith("/gobot.wasm"))`
	if eval[bool](b, fetched) {
		b.fatalf("the first load fetched the interpreter (gobot.wasm)")
	}
	b.openEditor("colosseum")
	if !eval[bool](b, fetched) {
		b.fatalf("the editor opened without fetching the interpreter")
	}
	template, _ := gobot.Template("colosseum")
	if got := eval[string](b, `document.getElementById("ed-source").value`); got != template {
		b.fatalf("the editor opens on %.200q, not the template", got)
	}
	if api := eval[string](b, `document.querySelector("#editor aside").textContent`); !strings.Contains(api, "t.Note.Mark(place, value, label)") || !strings.Contains(api, "t.Note.Expect(place)") {
		b.fatalf("the editor's API pane does not list Mark and Expect:\n%s", api)
	}
	b.screenshot("playground-editor")
	// Ties go to the last move listed instead of the first, and it prints.
	edited := printingTemplate(t)
	b.setSource(edited)
	b.clickID("ed-run")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match" && JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	st := b.status()
	if st.Players != [2]string{"go:bot.go", "strong"} || st.Failed != "" {
		b.fatalf("the editor's Run played %v (failed: %q)", st.Players, st.Failed)
	}
	// Served by the page's server on a machine with Go, the bot was built
	// with Go and its worker ran the built program (TestPageGauntletOfItsBot
	// runs it on a static host: interpreted); what it printed reached its
	// notes.
	if run := b.editorRun(); !strings.HasPrefix(run, "compiled with go1.") {
		b.fatalf("the editor says the bot ran %q; want compiled", run)
	}
	if !eval[bool](b, `performance.getEntriesByType("resource").some(e => e.name.includes("/api/bots/"))`) {
		b.fatalf("the page did not fetch the built bot")
	}
	if ms := eval[float64](b, `arenaEditorHost.speed()`); ms <= 0 {
		b.fatalf("the editor has no time a move for the bot of the match shown: %v", ms)
	}
	var notes [][2]*struct{ Said []string }
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.notes()`)), &notes); err != nil || len(notes) == 0 || notes[0][0] == nil || len(notes[0][0].Said) == 0 || notes[0][0].Said[0] != "turn 0" {
		b.fatalf("the bot's first note does not hold what it printed (turn 0): %.300s", eval[string](b, `window.arenaTest.notes()`))
	}
	page := eval[string](b, `window.arenaTest.moves()`)
	native := playNative(t, "colosseum", edited, 0, "strong", st.Seed)
	if page != native {
		b.fatalf("the page's moves differ from arena play's with the same file, seed %d:\n page %.400s\n play %.400s", st.Seed, page, native)
	}
	if unedited := playNative(t, "colosseum", template, 0, "strong", st.Seed); unedited == page {
		b.fatalf("the edit changed no move (seed %d): the test shows nothing", st.Seed)
	}
	b.click("first")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn == 0 && !JSON.parse(window.arenaTest.status()).playing`, time.Minute)
	b.awaitFrames(2)
	b.screenshot("playground-editor-match")
	t.Logf("colosseum, the edited template against strong, seed %d: %s; %d turns as arena play plays them", st.Seed, st.Result, st.Computed)

	// The link carries the source.
	link := b.copyLinkAndOpen("copied", "bot=")
	if again := eval[string](b, `window.arenaTest.moves()`); again != page {
		b.fatalf("the link plays other moves:\n %.300s\n %.300s", again, page)
	}
	if src := eval[string](b, `arenaBotSource("colosseum")`); src != edited {
		b.fatalf("the link's editor holds another source: %.300q", src)
	}
	t.Logf("its link: %d characters, the same %d turns and the same source", len(link), st.Computed)

	// You against it: it moves first, then asks you. Opened again, the
	// editor says how the bot ran (the link's match replayed its moves: no
	// time a move to say).
	b.click("back")
	b.openEditor("colosseum")
	b.waitJS(`document.getElementById("ed-status").textContent.startsWith("last match: compiled with go1.")`, time.Minute)
	b.screenshot("playground-editor-compiled")
	t.Logf("the editor: %s", eval[string](b, `document.getElementById("ed-status").textContent`))
	b.chooseOpponent("you")
	b.clickID("ed-run")
	b.awaitYourTurn("P2")
	b.playSuggested() // a square, then its side: the move goes
	// and the bot answered it, or the move ended the game (a suggested
	// move may wall you in: the seed is the page's own, drawn at random)
	b.waitJS(`(s => s.computed >= 3 || s.done && s.computed >= 2)(JSON.parse(window.arenaTest.status()))`, 30*time.Second)
	if st := b.status(); st.Players != [2]string{"go:bot.go", "you"} || st.Failed != "" {
		b.fatalf("you against the bot: %v (failed %q)", st.Players, st.Failed)
	}

	// Its gauntlet, served: the games play the bot the server built (the
	// page, loaded again, fetches it for them), with arena tournament's
	// standings (TestPageGauntletOfItsBot plays one on a static host,
	// interpreted).
	b.open("")
	mapcolor, _ := gobot.Template("mapcolor")
	gst := b.gauntletOf("mapcolor", "", 1, mapcolor)
	if gst.Error != "" || !gst.Done {
		b.fatalf("the gauntlet ended with %d of %d games: %q", gst.Played, gst.Total, gst.Error)
	}
	if !eval[bool](b, `performance.getEntriesByType("resource").some(e => e.name.includes("/api/bots/"))`) {
		b.fatalf("the gauntlet's games did not fetch the built bot")
	}
	if notes := b.status().Notes; !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "Your bot plays these games compiled with go1.") }) {
		b.fatalf("the gauntlet does not say its games play the bot built: %q", notes)
	}
	cli, results := cliGauntlet(t, "mapcolor", mapcolor, 1)
	sameStandings(b, gst, cli, results)
}

// runFrames clicks the editor's Run and waits for the match to end,
// returning the match's state and the intervals between the page's
// animation frames from the click to the end (index.html's arenaFrames).
func (b *browser) runFrames() (status, []float64) {
	b.t.Helper()
	eval[bool](b, `(window.arenaFrames.reset(), true)`)
	b.clickID("ed-run")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match" && JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	return b.status(), eval[[]float64](b, `window.arenaFrames.gaps`)
}

// longest is the longest of some frame intervals.
func longest(gaps []float64) float64 {
	m := 0.0
	for _, g := range gaps {
		m = max(m, g)
	}
	return m
}

// backToEditor leaves a match of the editor's bot for the editor again.
func (b *browser) backToEditor() {
	b.t.Helper()
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "start"`, time.Minute)
	b.click("write")
	b.waitJS(`document.getElementById("editor").classList.contains("open")`, time.Minute)
}

// frameBound is how many times the longest frame interval of a bot that
// behaves (its match started, played and ended in the same page, in the
// same run) a bot that misbehaves may hold the page for. A bot
// interpreted on the page's own thread would hold it for the whole of
// its move: the 10 s clock for one that loops, until the tab's memory
// ran out for one that allocates.
const frameBound = 4

// TestPageEditorBadBots: a bot with a syntax error is shown at its line
// and not played; one that loops for ever loses as a bot over its clock
// does, one that allocates without bound loses by its memory, and the page
// goes on drawing while either runs: no interval between two frames is
// longer than frameBound times the longest of the template's own match,
// played first in the same page. Frames are not counted: how many a
// bot's move spans is how long it takes, which is the machine's.
func TestPageEditorBadBots(t *testing.T) {
	b := newBrowser(t)
	b.open("")
	b.openEditor("mapcolor")
	template, _ := gobot.Template("mapcolor")

	// The reference: the template, which behaves, from Run to the end.
	st, gaps := b.runFrames()
	if strings.Contains(st.Result, "forfeits") || st.Failed != "" {
		b.fatalf("the template does not play: %q (failed %q)", st.Result, st.Failed)
	}
	bound := frameBound * longest(gaps)
	t.Logf("the template: %s; %d frames, the longest %.0f ms: a bad bot may hold the page %.0f ms", st.Result, len(gaps), longest(gaps), bound)
	b.backToEditor()

	broken := strings.Replace(template, "return best, nil", "return best nil", 1)
	line := strings.Count(broken[:strings.Index(broken, "return best nil")], "\n") + 1
	b.setSource(broken)
	b.clickID("ed-run")
	b.waitJS(fmt.Sprintf(`document.getElementById("problems").textContent.includes("bot.go:%d:")`, line), 5*time.Minute)
	if bad := eval[string](b, `[...document.querySelectorAll("#ed-gutter .bad")].map(e => e.textContent).join(",")`); bad != fmt.Sprint(line) {
		b.fatalf("the gutter marks lines %q; the error is at %d", bad, line)
	}
	if st := b.status(); st.View != "start" {
		b.fatalf("a bot that does not compile was played: view %q", st.View)
	}
	// The hook says what the person sees: the editor open on the source,
	// the error at its line, not compiling any more.
	var ed struct {
		Open, Compiling bool
		Game, Source    string
		Errors          []string
	}
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.editor()`)), &ed); err != nil {
		b.fatalf("arenaTest.editor(): %v", err)
	}
	if !ed.Open || ed.Compiling || ed.Game != "mapcolor" || ed.Source != broken || len(ed.Errors) == 0 || !strings.HasPrefix(ed.Errors[0], fmt.Sprintf("bot.go:%d:", line)) {
		b.fatalf("the hook's editor: open %v, compiling %v, game %q, errors %q", ed.Open, ed.Compiling, ed.Game, ed.Errors)
	}
	b.screenshot("playground-editor-error")
	t.Logf("syntax error: %s", eval[string](b, `document.getElementById("problems").textContent.trim()`))

	for _, c := range []struct{ name, body, why string }{
		{"loops", "for {\n\t}", "did not answer within 10s"},
		{"allocates", "var keep [][]byte\n\tfor {\n\t\tkeep = append(keep, make([]byte, 1<<20))\n\t}", "ran out of memory"},
	} {
		src := strings.Replace(template, "\tp := s.Problem()", "\t"+c.body+"\n\tp := s.Problem()", 1)
		b.setSource(src)
		st, gaps := b.runFrames()
		if !strings.Contains(st.Result, "forfeits") || !strings.Contains(st.Result, c.why) {
			b.fatalf("%s: the match ends %q; want a forfeit that says %q", c.name, st.Result, c.why)
		}
		if l := longest(gaps); l > bound {
			b.fatalf("%s: the page drew no frame for %.0f ms while the bot ran (the template's match: at most %.0f ms; bound %.0f ms)", c.name, l, bound/frameBound, bound)
		}
		b.screenshot("playground-editor-" + c.name)
		t.Logf("%s: %s; %d frames drawn meanwhile, the longest %.0f ms", c.name, st.Result, len(gaps), longest(gaps))
		b.backToEditor()
	}
}

// TestPageEditorPhone opens the editor on a phone's 390x844 page: its
// controls fit the width, and what it runs plays.
func TestPageEditorPhone(t *testing.T) {
	b := newBrowser(t)
	b.phone()
	b.open("")
	b.phoneCheck("start")
	b.openEditor("life")
	if off := eval[string](b, `[...document.querySelectorAll("#editor header *, #editor textarea")].filter(e => { const r = e.getBoundingClientRect(); return r.right > 391 || r.left < 0 }).map(e => e.id || e.tagName).join(",")`); off != "" {
		b.fatalf("the editor's %s lie off the 390-pixel page", off)
	}
	b.screenshot("phone-editor")
	// What the bot prints shows beside its moves.
	life, _ := gobot.Template("life")
	printing := strings.Replace(life, "\tt.Note.SetEval(float64(cur))", "\tfmt.Println(\"placing\", len(act), \"cells\")\n\tt.Note.SetEval(float64(cur))", 1)
	if printing == life {
		t.Fatal("the Life template has no t.Note.SetEval(float64(cur)) to print before")
	}
	b.setSource(printing)
	b.chooseOpponent("greedy")
	b.clickID("ed-run")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match" && JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
	st := b.status()
	if st.Players != [2]string{"go:bot.go", "greedy"} || st.Failed != "" {
		b.fatalf("the phone's Run played %v (failed %q)", st.Players, st.Failed)
	}
	b.phoneCheck("match")
	if notes := eval[string](b, `window.arenaTest.notes()`); !strings.Contains(notes, `"said":["placing 3 cells"]`) {
		b.fatalf("the notes hold no line the bot printed: %.400s", notes)
	}
	b.screenshot("phone-editor-match")
	t.Logf("life on a phone, the template against greedy: %s", st.Result)
}
