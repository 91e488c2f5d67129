package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament"

	"github.com/chromedp/cdproto/cdp"
	cdpinput "github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

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
