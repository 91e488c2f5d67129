package page

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet/kept"
	"github.com/arena-playground/arena/tournament/progress"
)

// staticBrowser opens a browser on the site as a static host serves it:
// its files written to a directory, served by a plain file server, no
// arena server behind it.
func staticBrowser(t testing.TB) *browser {
	t.Helper()
	s, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := s.write(dir); err != nil {
		t.Fatal(err)
	}
	files := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(files.Close)
	b := newBrowserOn(t, s)
	b.base = files.URL
	return b
}

// gauntletOf opens the gauntlet view of a game for the bot written in
// the page and runs it with the pairs given, on the board given ("" for
// the one the view offers), as a person does; it waits for the run of
// src to end (or to fail) and returns its last status.
func (b *browser) gauntletOf(game, board string, pairs int, src string) *progress.Status {
	b.t.Helper()
	b.openGauntlet(game)
	if board != "" {
		b.click("board:" + board)
	}
	b.click(fmt.Sprintf("pairs:%d", pairs))
	b.click("gauntlet:run")
	b.waitJS(fmt.Sprintf(`(g => g && (g.done || g.error) && g.runs && g.runs[0].digest == %q && g.runs[0].pairs == %d)(JSON.parse(window.arenaTest.status()).gauntlet)`,
		kept.Digest(src), pairs), 20*time.Minute)
	return b.status().Gauntlet
}

// watchPlayed starts counting, at each of the page's animation frames,
// how many of the gauntlet's games have ended (window.arenaPlayed), until
// drewDuringEachGame reads them.
func (b *browser) watchPlayed() {
	b.t.Helper()
	eval[bool](b, `(() => {
		const w = window.arenaPlayed = { seen: [], stop: false };
		(function count() {
			const g = JSON.parse(window.arenaTest.status()).gauntlet;
			w.seen.push(g ? g.played : 0);
			if (!w.stop) { requestAnimationFrame(count); }
		})();
		return true;
	})()`)
}

// drewDuringEachGame fails the test unless the page drew a frame while
// each of the gauntlet's total games was played: from one frame to the
// next, no more games ended than the gauntlet plays at once (one fewer
// than the browser's cores). Games computed on the page's own thread
// would end with no frame between them. Progress is counted, not time: a
// busy machine slows the games as it slows the frames.
func (b *browser) drewDuringEachGame(total int) {
	b.t.Helper()
	seen := eval[[]int](b, `(window.arenaPlayed.stop = true, window.arenaPlayed.seen)`)
	jobs := min(8, max(1, eval[int](b, `navigator.hardwareConcurrency || 1`)-1)) // cmd/wasm's pageGauntlets.Run
	if len(seen) == 0 || seen[len(seen)-1] != total {
		b.fatalf("the frames counted %d games ended, not %d (%d frames)", last(seen), total, len(seen))
	}
	most := 0
	for i := 1; i < len(seen); i++ {
		most = max(most, seen[i]-seen[i-1])
	}
	if most > jobs {
		b.fatalf("%d games ended between two of the page's frames; it plays %d at once, so it drew no frame for a whole game", most, jobs)
	}
	b.t.Logf("frames: %d during %d games, at most %d games ended between two (%d at once)", len(seen), total, most, jobs)
}

func last(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}

// openGauntlet goes from the start view to the gauntlet view of game with
// the page's bot chosen.
func (b *browser) openGauntlet(game string) {
	b.t.Helper()
	b.chooseGame(game)
	b.waitJS(`(JSON.parse(window.arenaTest.status()).targets.gauntlet || [0, 0, 0])[2] > 0`, time.Minute)
	b.click("gauntlet")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)
	b.click("program:" + pageBotSpec)
}

// pageBotSpec is the page bot's seat (ui.PageBot; the page's tests do not
// link ui, which macOS's vet cannot build without cgo).
const pageBotSpec = "go:bot.go"

// cliGauntlet runs `arena tournament -format gauntlet` on a bot's source,
// as a student runs it on the file, and returns its standings and each
// game's result by its ID.
func cliGauntlet(t *testing.T, game, src string, pairs int) (*tournament.Standings, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	arena := filepath.Join(dir, "arena")
	if out, err := exec.Command("go", "build", "-o", arena, "../cmd/arena").CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/arena: %v\n%s", err, out)
	}
	g, _ := match.Lookup(game)
	args := []string{"tournament", "-game", game, "-format", "gauntlet", "-rounds", fmt.Sprint(pairs), "-o", "t", "bot=go:bot.go"}
	for _, bot := range g.Bots() {
		args = append(args, bot.Name+"="+bot.Name)
	}
	cmd := exec.Command(arena, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	results := map[string]string{}
	if err := tournament.Entries(filepath.Join(dir, "t"), func(e tournament.Entry) error {
		results[e.ID] = e.Result.String()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s, err := tournament.Load(filepath.Join(dir, "t"))
	if err != nil {
		t.Fatal(err)
	}
	return s, results
}

// sameStandings fails the test unless the page's standings are the
// command's: each entrant's games, wins, draws, losses, points, forfeits,
// Elo and its interval, and each game's result.
func sameStandings(b *browser, page *progress.Status, cli *tournament.Standings, results map[string]string) {
	b.t.Helper()
	want := cli.Progress(nil, nil)
	if page.Played != want.Played || page.Total != want.Total {
		b.fatalf("the page played %d of %d games, the command %d of %d", page.Played, page.Total, want.Played, want.Total)
	}
	if len(page.Entrants) != len(want.Entrants) {
		b.fatalf("the page has %d entrants, the command %d", len(page.Entrants), len(want.Entrants))
	}
	for i, w := range want.Entrants {
		p := page.Entrants[i]
		p.MeanMs, w.MeanMs = 0, 0 // time a move: the machine's, not the game's
		pj, _ := json.Marshal(p)
		wj, _ := json.Marshal(w)
		if string(pj) != string(wj) {
			b.fatalf("entrant %d:\n page    %s\n command %s", i, pj, wj)
		}
	}
	if len(page.Games) != len(results) {
		b.fatalf("the page lists %d games, the command played %d", len(page.Games), len(results))
	}
	for _, g := range page.Games {
		if results[g.ID] != g.Result {
			b.fatalf("game %s: the page %q, the command %q", g.ID, g.Result, results[g.ID])
		}
	}
}

// TestPageGauntletOfItsBot: on the static site, a student writes a
// one-line change into the Colosseum template and runs a 2-pair gauntlet
// of it in the page: the standings are those of `arena tournament -format
// gauntlet` on the same file, the same seeds and pairs, and the page
// draws while each game is played (in its workers). A second run
// after another edit lists both runs side by side with the change said
// in words; a run cut short by a reload is said to have stopped, and
// resumes from the games the browser kept.
func TestPageGauntletOfItsBot(t *testing.T) {
	b := staticBrowser(t)
	b.open("")
	template, _ := gobot.Template("colosseum")
	edited := strings.Replace(template, "if score > bestScore {", "if score >= bestScore {", 1)
	if edited == template {
		t.Fatal("the template has no 'if score > bestScore {' to edit")
	}
	b.openEditor("colosseum")
	b.setSource(edited)
	b.chooseOpponent("greedy")
	refSt, _ := b.runFrames()
	// A static host builds no Go: the bot is interpreted, the editor says
	// why, and it plays arena play's moves (built with Go there).
	if run := b.editorRun(); run != "interpreted: this page's host builds no Go (a static site)" {
		b.fatalf("on a static host the editor says the bot ran %q", run)
	}
	if page, native := eval[string](b, `window.arenaTest.moves()`), playNative(t, "colosseum", edited, 0, "greedy", refSt.Seed); page != native {
		b.fatalf("interpreted in the page, the bot's moves differ from arena play's, seed %d:\n page %.400s\n play %.400s", refSt.Seed, page, native)
	}
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "start"`, time.Minute)

	b.watchPlayed()
	st := b.gauntletOf("colosseum", "", 2, edited)
	if st.Error != "" || !st.Done {
		b.fatalf("the gauntlet ended with %d of %d games: %q", st.Played, st.Total, st.Error)
	}
	if notes := b.status().Notes; !slices.Contains(notes, "Your bot plays these games interpreted: this page's host builds no Go (a static site).") {
		b.fatalf("on a static host the gauntlet does not say its games interpret the bot: %q", notes)
	}
	b.drewDuringEachGame(st.Total)
	cli, results := cliGauntlet(t, "colosseum", edited, 2)
	sameStandings(b, st, cli, results)
	bot := entrant(st, "bot")
	t.Logf("%s: the bot %d-%d-%d, Elo %s [%s, %s], as arena tournament's", st.Title, bot.Wins, bot.Draws, bot.Losses, bot.Elo, bot.EloLow, bot.EloHigh)

	// A game opens in the match view, from the browser's store.
	b.click("gauntlet:game:" + st.Games[0].ID)
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match" && JSON.parse(window.arenaTest.status()).done`, time.Minute)
	if s := b.status(); s.Players[0] != pageBotSpec && s.Players[1] != pageBotSpec {
		b.fatalf("the game opened is between %v", s.Players)
	}
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)

	// The template itself, after the edit: both runs side by side.
	b.click("gauntlet:back")
	b.openEditor("colosseum")
	b.setSource(template)
	b.clickID("ed-close")
	again := b.gauntletOf("colosseum", "", 1, template)
	if !again.Done || len(again.Runs) != 2 || again.Runs[0].Digest == again.Runs[1].Digest || again.Change == "" {
		b.fatalf("after the second run: done %v, runs %+v, change %q", again.Done, again.Runs, again.Change)
	}
	for _, r := range again.Runs {
		if r.Played != r.Total || r.Elo == "" {
			b.fatalf("a run listed as %+v", r)
		}
	}
	cli, results = cliGauntlet(t, "colosseum", template, 1)
	sameStandings(b, again, cli, results)
	b.awaitFrames(2)
	b.screenshot("playground-gauntlet-page")
	t.Logf("runs: %+v; %s", again.Runs, again.Change)

	// The report, downloaded: arena tournament's, its games' links opening
	// them in this page.
	report := b.download("gauntlet:report", "gauntlet-"+again.Runs[0].Key+".html")
	for _, want := range []string{">bot<", "?replay=gauntlet%3A" + again.Runs[0].Key + "%2Fr0-p2-b.json", again.Title} {
		if !strings.Contains(report, want) {
			b.fatalf("the report has no %q:\n%.2000s", want, report)
		}
	}
	if n := strings.Count(report, ">watch<"); n != again.Total {
		b.fatalf("the report links %d games of %d", n, again.Total)
	}

	b.phone()
	b.awaitFrames(2)
	b.phoneCheck("the gauntlet of the page's bot")
	b.screenshot("phone-gauntlet-page")
	b.desktop()

	// A run cut short by a reload: said, then resumed.
	b.click("pairs:5")
	b.click("gauntlet:run") // the template, 5 pairs
	g, _ := match.Lookup("colosseum")
	b.waitJS(fmt.Sprintf(`(g => g && g.total == %d && g.played >= 2)(JSON.parse(window.arenaTest.status()).gauntlet)`, 2*5*len(g.Bots())), 20*time.Minute)
	// An edit while it plays is said: the run plays the source it started
	// with.
	b.click("gauntlet:back")
	b.openEditor("colosseum")
	b.setSource(template + "// an edit mid-run\n")
	b.clickID("ed-close")
	b.click("gauntlet")
	b.waitJS(`(s => s.view == "gauntlet" && (s.notes || []).some(n => n.includes("You edited the bot after this gauntlet started")))(JSON.parse(window.arenaTest.status()))`, time.Minute)
	if st := b.status().Gauntlet; st == nil || st.Done || st.Error != "" {
		b.fatalf("the run stopped when the bot was edited: %+v", st)
	}
	// The tab reloaded (the run cut short), the source back as it was.
	b.open("")
	b.openEditor("colosseum")
	b.setSource(template)
	b.clickID("ed-close")
	b.openGauntlet("colosseum")
	b.click("pairs:5")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).runs || []).some(r => r.note && r.note.includes("stopped after"))`, 5*time.Minute)
	b.click("gauntlet:run")
	b.waitJS(`(g => g && g.resumed >= 2)(JSON.parse(window.arenaTest.status()).gauntlet)`, 5*time.Minute)
	b.click("gauntlet:run") // Stop
}

// entrant is an entrant of a status by name.
func entrant(st *progress.Status, name string) progress.Entrant {
	for _, e := range st.Entrants {
		if e.Name == name {
			return e
		}
	}
	return progress.Entrant{}
}

// TestPageGauntletBadBot: a bot that loops for ever in one seat and runs
// out of memory in the other loses each of those games (map colouring
// forfeits a move not made), with its reason, and the gauntlet plays
// every game to its end.
func TestPageGauntletBadBot(t *testing.T) {
	b := staticBrowser(t)
	b.open("")
	template, _ := gobot.Template("mapcolor")
	bad := strings.Replace(template, "\tp := s.Problem()", `	if t.Side == match.P2 {
		for {
		}
	}
	var keep [][]byte
	for {
		keep = append(keep, make([]byte, 1<<20))
	}
	p := s.Problem()`, 1)
	if bad == template {
		t.Fatal("the template has no 'p := s.Problem()' to precede")
	}
	b.openEditor("mapcolor")
	b.setSource(bad)
	b.clickID("ed-close")
	st := b.gauntletOf("mapcolor", "usa", 1, bad)
	bot := entrant(st, "bot")
	if !st.Done || st.Error != "" || st.Played != st.Total || bot.Losses != bot.Games || bot.Forfeits != bot.Games || !strings.Contains(st.Title, "(usa) gauntlet") {
		b.fatalf("the gauntlet %q ended with %d of %d games (error %q); the bot %+v", st.Title, st.Played, st.Total, st.Error, bot)
	}
	reasons := strings.Join(bot.Reasons, "; ")
	for _, why := range []string{"did not answer within", "ran out of memory"} {
		if !strings.Contains(reasons, why) {
			b.fatalf("no forfeit says %q: %s", why, reasons)
		}
	}
	t.Logf("%d games, each lost: %s", st.Played, reasons)
}

// desktop ends the phone's emulation: the laptop's window again.
func (b *browser) desktop() {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.EmulateReset()); err != nil {
		b.t.Fatal(err)
	}
}

// download clicks a target that downloads a file, and returns the file's
// text once the browser has written it.
func (b *browser) download(target, name string) string {
	b.t.Helper()
	dir := b.t.TempDir()
	allow := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	})
	if err := chromedp.Do(b.ctx, allow); err != nil {
		b.t.Fatal(err)
	}
	b.click(target)
	for {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && strings.Contains(string(data), "</html>") {
			return string(data)
		}
		if b.t.Context().Err() != nil {
			b.fatalf("%s was not downloaded", name)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
