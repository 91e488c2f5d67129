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
// change (ties go to the last move listed) and it prints each turn.
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

// TestPageBuildsItsBot: served by the page's server on a machine with Go,
// Run builds the editor's bot with Go and the bot's worker runs the
// built program: the editor says it was compiled, what the bot prints
// reaches its notes, and its moves are arena play's with the same file.
// On a static host the same source is interpreted, the editor says why,
// and it plays the same moves.
func TestPageBuildsItsBot(t *testing.T) {
	src := printingTemplate(t)
	for _, c := range []struct {
		name, want string
		static     bool
	}{
		{"served", "compiled with go1.", false},
		{"static", "interpreted: this page's host builds no Go (a static site)", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b *browser
			if c.static {
				b = staticBrowser(t)
			} else {
				b = newBrowser(t)
			}
			b.open("")
			b.openEditor("colosseum")
			b.setSource(src)
			st, _ := b.runFrames()
			if st.Failed != "" || st.Players != [2]string{"go:bot.go", "strong"} {
				b.fatalf("the Run played %v (failed %q)", st.Players, st.Failed)
			}
			if run := b.editorRun(); !strings.HasPrefix(run, c.want) {
				b.fatalf("the editor says the bot ran %q; want %q", run, c.want)
			}
			fetched := eval[bool](b, `performance.getEntriesByType("resource").some(e => e.name.includes("/api/bots/"))`)
			if fetched == c.static {
				b.fatalf("the page fetched a built bot: %v", fetched)
			}
			var notes [][2]*struct{ Said []string }
			if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.notes()`)), &notes); err != nil || len(notes) == 0 || notes[0][0] == nil || len(notes[0][0].Said) == 0 || notes[0][0].Said[0] != "turn 0" {
				b.fatalf("the bot's first note does not hold what it printed (turn 0): %v", eval[string](b, `window.arenaTest.notes()`)[:min(300, len(eval[string](b, `window.arenaTest.notes()`)))])
			}
			page := eval[string](b, `window.arenaTest.moves()`)
			if native := playNative(t, "colosseum", src, 0, "strong", st.Seed); page != native {
				b.fatalf("the page's moves differ from arena play's with the same file, seed %d:\n page %.400s\n play %.400s", st.Seed, page, native)
			}
			b.backToEditor()
			// Opened again, the editor says how the bot ran and how fast.
			b.waitJS(`(s => s.startsWith("last Run: ") && s.endsWith(" ms a move"))(document.getElementById("ed-status").textContent)`, time.Minute)
			b.screenshot("playground-editor-" + c.name)
			t.Logf("%s: %s; %d turns, arena play's", c.name, eval[string](b, `document.getElementById("ed-status").textContent`), st.Computed)
		})
	}
}

// BenchmarkPageBotBuild times a bot written in the page, served by the
// page's server with Go: from Run to its match's first move, cold (a
// source never built: the build, the fetch and WebAssembly's compile)
// and warm (the same source again: kept by the server and the page), and
// the nodes a second of an alpha-beta built to js/wasm (gobot/internal/
// alphabeta) against strong's, both in the page's workers, in the same
// match: x-strong.
func BenchmarkPageBotBuild(bm *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "gobot", "internal", "alphabeta", "bot.go"))
	if err != nil {
		bm.Fatal(err)
	}
	b := newBrowser(bm)
	b.open("")
	b.openEditor("colosseum")
	toFirstMove := func(source string) float64 {
		b.setSource(source)
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
		cold = toFirstMove(fresh)
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
		b.backToEditor()
		warm = toFirstMove(fresh)
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 10*time.Minute)
		built, strong = pageNodesPerSecond(b, 0), pageNodesPerSecond(b, 1)
		b.backToEditor()
	}
	bm.ReportMetric(cold, "cold-ms-to-first-move")
	bm.ReportMetric(warm, "warm-ms-to-first-move")
	bm.ReportMetric(built, "built-nodes/s")
	bm.ReportMetric(strong, "strong-nodes/s")
	bm.ReportMetric(built/strong, "x-strong")
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
