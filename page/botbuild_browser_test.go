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
