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
			pageBotBuild(bm, string(src), c.opponent)
		})
	}
}

func pageBotBuild(bm *testing.B, src, opponent string) {
	b := newBrowser(bm)
	b.open("")
	b.openEditor("colosseum")
	js, _ := json.Marshal(opponent)
	toFirstMove := func(source string) float64 {
		b.setSource(source)
		eval[bool](b, fmt.Sprintf(`(document.getElementById("ed-opp").value = %s, true)`, js))
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
