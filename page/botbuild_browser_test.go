package page

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/gobot"
)

// editorRun is how the editor says its last Run's bot runs.
func (b *browser) editorRun() string {
	b.t.Helper()
	var ed struct{ Run string }
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.editor()`)), &ed); err != nil {
		b.fatalf("arenaTest.editor(): %v", err)
	}
	return ed.Run
}

// printingTemplate is Colosseum's template, edited so that its moves
// change (ties go to the last move listed) and it prints each turn: the
// editor's tests play it built with Go (TestPageEditorPlaysABot) and
// interpreted (TestPageGauntletOfItsBot).
func printingTemplate(t *testing.T) string {
	template, _ := gobot.Template("colosseum")
	edited := strings.Replace(template, "if score > bestScore {", "if score >= bestScore {", 1)
	edited = strings.Replace(edited, "import (", "import (\n\t\"fmt\"", 1)
	edited = strings.Replace(edited, "func Act(t *match.Turn) (match.Action, error) {", "func Act(t *match.Turn) (match.Action, error) {\n\tfmt.Println(\"turn\", t.State.Turn())", 1)
	if strings.Count(edited, "fmt.Println") != 1 || !strings.Contains(edited, "score >= bestScore") {
		t.Fatal("the template changed: the edits no longer apply")
	}
	return edited
}

// BenchmarkPageBotBuild times a bot written in the page, served by the
// page's server with Go: from Run to its match's first move, cold (a
// source never built: the build, the fetch and WebAssembly's compile)
// and warm (the same source again: kept by the server and the page), and
// its nodes a second built to js/wasm against strong's, both in the
// page's workers, in the same match: x-strong. Each plays strong (the
// editor's opponents are the bots by name, at their default budgets),
// and its moves are checked against arena play's with the same file:
// gobot/internal/makeunmake is strong's search written as a go: file,
// with a budget of 20,000 nodes a move to strong's 437,000 on 8x8;
// gobot/internal/alphabeta is a first alpha-beta.
//
// Then the same source plays strong on a static host, interpreted, and
// served, built, on the course's boards with a clock of ten minutes a
// move (a config dropped on the page: interpreted, a move of the search
// takes far longer than Colosseum's 2 s): the two pages must play the
// same moves, arena play's; interpreted-nodes/s and x-built say how fast
// the interpreter searched.
func BenchmarkPageBotBuild(bm *testing.B) {
	for _, c := range []struct{ name, opponent string }{
		{"makeunmake", "strong"},
		{"alphabeta", "strong"},
	} {
		bm.Run(c.name, func(bm *testing.B) {
			src, err := os.ReadFile(filepath.Join("..", "gobot", "internal", c.name, "bot.go"))
			if err != nil {
				bm.Fatal(err)
			}
			fresh := pageBotBuild(bm, string(src), c.opponent)
			config := []byte(`{"sizes": [6, 11], "first_move_ms": 600000, "move_ms": 600000}`)
			static, st, interpreted := staticBrowser(bm).playOnConfig(config, fresh, c.opponent, "interpreted")
			served, sst, built := newBrowser(bm).playOnConfig(config, fresh, c.opponent, "compiled with go1.")
			if st.Seed != sst.Seed || static != served {
				bm.Fatalf("the static page's match (seed %d) differs from the served page's (seed %d)", st.Seed, sst.Seed)
			}
			bm.ReportMetric(interpreted, "interpreted-nodes/s")
			bm.ReportMetric(interpreted/built, "x-built")
		})
	}
}

// pageBotBuild times src in the editor, served (see BenchmarkPageBotBuild),
// and returns the source it played, src with a comment of the run's own.
func pageBotBuild(bm *testing.B, src, opponent string) (played string) {
	b := newBrowser(bm)
	b.open("")
	b.openEditor("colosseum")
	toFirstMove := func(source string) float64 {
		b.setSource(source)
		b.chooseOpponent(opponent)
		start := eval[float64](b, `performance.now()`)
		eval[bool](b, `(window.arenaFirstMove = 0, window.arenaWatch = setInterval(() => { if (JSON.parse(window.arenaTest.status()).computed >= 1 && !window.arenaFirstMove) { window.arenaFirstMove = performance.now(); clearInterval(window.arenaWatch); } }, 5), true)`)
		b.clickID("ed-run")
		b.waitJS(`window.arenaFirstMove > 0`, 10*time.Minute)
		return eval[float64](b, `window.arenaFirstMove`) - start
	}
	var cold, warm, built, strong float64
	for round := 0; bm.Loop(); round++ {
		// A source no build has seen: a comment of this run's own.
		fresh := fmt.Sprintf("%s\n// run %d\n", src, time.Now().UnixNano())
		played = fresh
		cold = toFirstMove(fresh)
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
		b.backToEditor()
		warm = toFirstMove(fresh)
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
		if st := b.status(); st.Players != [2]string{"go:bot.go", opponent} || !strings.HasPrefix(b.editorRun(), "compiled with go1.") {
			b.fatalf("the editor played %v, %q; want the bot built with Go against %s", st.Players, b.editorRun(), opponent)
		}
		if page, native := eval[string](b, `window.arenaTest.moves()`), playNative(bm, "colosseum", fresh, 0, opponent, b.status().Seed); page != native {
			b.fatalf("the page's moves differ from arena play's with the same file:\n page %.300s\n play %.300s", page, native)
		}
		built, strong = pageNodesPerSecond(b, 0), pageNodesPerSecond(b, 1)
		b.backToEditor()
	}
	bm.ReportMetric(cold, "cold-ms-to-first-move")
	bm.ReportMetric(warm, "warm-ms-to-first-move")
	bm.ReportMetric(built, "built-nodes/s")
	bm.ReportMetric(strong, "strong-nodes/s")
	bm.ReportMetric(built/strong, "x-strong")
	return played
}

// pageNodesPerSecond is the nodes a second side searched in the match the
// page shows: its notes' nodes over its thinking time.
func pageNodesPerSecond(b *browser, side int) float64 {
	b.t.Helper()
	var notes [][2]*struct{ Nodes int64 }
	var think [][2]float64
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.notes()`)), &notes); err != nil {
		b.fatalf("notes: %v", err)
	}
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.think()`)), &think); err != nil {
		b.fatalf("think: %v", err)
	}
	var nodes int64
	var ms float64
	for i := range min(len(notes), len(think)) {
		if n := notes[i][side]; n != nil && n.Nodes > 0 {
			nodes += n.Nodes
			ms += think[i][side]
		}
	}
	return float64(nodes) / (ms / 1000)
}

// TestPageSearchBuiltAndInterpreted plays strong's search written as a
// go: file (gobot/internal/makeunmake, the source BenchmarkPageBotBuild
// sets beside strong) from the editor, on a static host, where the page
// interprets it, and served, where the page's server builds it with Go:
// the same source plays the same moves both ways, arena play's with the
// same file. Interpreted, the search runs at a few thousandths of its
// built speed (BenchmarkPageBotBuild plays the source unedited both ways),
// so the match is on a config dropped on the page whose clock gives a
// move ten minutes (Colosseum's 2 s a move would replace late moves by
// the random walk), and the budget is cut from 20,000 nodes a move to
// 1,000 to keep the test short.
func TestPageSearchBuiltAndInterpreted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "gobot", "internal", "makeunmake", "bot.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "const budget = 20000", "const budget = 1000", 1)
	if src == string(data) {
		t.Fatal("makeunmake has no 'const budget = 20000' to edit")
	}
	config := []byte(`{"size": 8, "first_move_ms": 600000, "move_ms": 600000}`)
	static, staticSt, _ := staticBrowser(t).playOnConfig(config, src, "greedy", "interpreted")
	served, servedSt, _ := newBrowser(t).playOnConfig(config, src, "greedy", "compiled with go1.")
	if staticSt.Seed != servedSt.Seed || static != served {
		t.Fatalf("the static page's match (seed %d) differs from the served page's (seed %d):\n static %.400s\n served %.400s", staticSt.Seed, servedSt.Seed, static, served)
	}
}

// playOnConfig drops a Colosseum config file on the page, and plays src
// from the editor on it against opponent, from seed 11 (kept from the
// link the page is opened on): the editor must say the bot ran as run
// says, and the page's moves must be arena play's with the same file
// and config. It returns the moves, the match's state and the bot's nodes
// a second.
func (b *browser) playOnConfig(config []byte, src, opponent, run string) (moves string, st status, nodes float64) {
	b.t.Helper()
	file := filepath.Join(b.t.TempDir(), "long-clock.json")
	if err := os.WriteFile(file, config, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.open("?game=colosseum&p1=greedy&p2=greedy&seed=11")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match"`, time.Minute)
	b.drop(file)
	b.waitJS(`JSON.parse(window.arenaTest.status()).preset == "file:long-clock.json"`, time.Minute)
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "start"`, time.Minute)
	b.click("board:file:long-clock.json")
	b.click("write")
	b.waitJS(`document.getElementById("editor").classList.contains("open")`, time.Minute)
	b.waitJS(`/^(|last match: .*)$/.test(document.getElementById("ed-status").textContent)`, 5*time.Minute)
	b.setSource(src)
	b.chooseOpponent(opponent)
	st, _ = b.runFrames()
	if st.Players != [2]string{"go:bot.go", opponent} || st.Preset != "file:long-clock.json" || st.Failed != "" {
		b.fatalf("the editor played %v on %q (failed %q)", st.Players, st.Preset, st.Failed)
	}
	if got := b.editorRun(); !strings.HasPrefix(got, run) {
		b.fatalf("the editor says the bot ran %q; want %q", got, run)
	}
	moves = eval[string](b, `window.arenaTest.moves()`)
	if native := playNativeOn(b.t, "colosseum", config, src, 0, opponent, st.Seed); moves != native {
		b.fatalf("the page's moves (%s) differ from arena play's with the same file, seed %d:\n page %.400s\n play %.400s", run, st.Seed, moves, native)
	}
	nodes = pageNodesPerSecond(b, 0)
	b.t.Logf("%s: seed %d, %d turns, %s; the bot's mean time a move %.0f ms, %.0f nodes a second", run, st.Seed, st.Computed, st.Result,
		eval[float64](b, `arenaEditorHost.speed()`), nodes)
	return moves, st, nodes
}
