package page

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament/progress"
)

// programSite is the page's site with the test's programs offered, as
// go run ./cmd/wasm -player ... serves it.
func programSite(t testing.TB) *Site {
	t.Helper()
	offerPrograms(t)
	s, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	return &Site{files: s.files, programs: players.Offered(), gauntletDir: t.TempDir(), serve: testServe}
}

// playCLI plays what arena play plays with the same specs and seed.
func playCLI(t *testing.T, game, preset string, seed uint64, p1, p2 string) *play.Record {
	t.Helper()
	g, _ := match.Lookup(game)
	cfg := match.DefaultConfig(g)
	if preset != "" {
		p, err := match.LookupPreset(g, preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg = p.Config
	}
	var specs [2]play.Spec
	for i, s := range []string{p1, p2} {
		var err error
		if specs[i], err = play.ParseSpec(s); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := play.Play(context.Background(), play.Setup{Game: g, Config: cfg, Seed: seed, Players: specs, Hosting: testServe.Hosting})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestPagePlaysPrograms picks a student's programs in the page, as a
// student would, plays each to its end against strong and compares the
// page's result with arena play's of the same specs and seed: a Colosseum
// agent file (py:) and an Evasion client arena starts (tcp:cmd:). A link
// naming a program the server does not offer says so, and plays nothing
// else.
func TestPagePlaysPrograms(t *testing.T) {
	b := newBrowserOn(t, programSite(t))
	b.open("")
	b.chooseGame("colosseum")
	// The menus are laid out at the next frame: wait for the chip's place.
	b.waitJS(`(JSON.parse(window.arenaTest.status()).targets["p1:served:student"] || [0, 0, 0])[2] > 0`, time.Minute)
	if _, ok := b.status().Targets["p1:served:hang"]; !ok {
		b.fatalf("the Colosseum menu lacks the second program offered")
	}
	if _, ok := b.status().Targets["p1:served:client"]; ok {
		b.fatalf("the Colosseum menu offers the Evasion client")
	}
	b.click("p1:served:student")
	b.click("p2:strong")
	b.screenshot("playground-programs")
	if eval[bool](b, `window.arenaTest.done()`) {
		b.fatalf("the start view's hook says a match is done")
	}
	b.click("start")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
	if !eval[bool](b, `window.arenaTest.done()`) {
		b.fatalf("the hook's done() is false for a match its status says is done")
	}
	got := b.status()
	if got.Players[0] != "served:student" {
		b.fatalf("the match played %q as P1", got.Players[0])
	}
	want := playCLI(t, "colosseum", "", got.Seed, "py:../cmd/arena/testdata/comp424/agents/student_agent.py", "strong").Result
	if got.Result != want.String() || got.Scores != want.Scores {
		b.fatalf("the page ends with %v %q, arena play with %v %q", got.Scores, got.Result, want.Scores, want.String())
	}
	// The agent's first move, with what it printed.
	b.click("first")
	b.waitJS(`JSON.parse(window.arenaTest.status()).turn == 0 && !JSON.parse(window.arenaTest.status()).playing`, time.Minute)
	b.awaitFrames(2)
	b.screenshot("playground-program-said")
	t.Logf("colosseum, the student's agent against strong, seed %d: both end with %s", got.Seed, got.Result)

	b.open("?game=evasion&p1=served:client&p2=strong&preset=2-1&seed=7")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done || JSON.parse(window.arenaTest.status()).failed`, 5*time.Minute)
	got = b.status()
	want = playCLI(t, "evasion", "2-1", 7, "tcp:cmd:"+pythonWith(t, "0")+" ../cmd/arena/testdata/students/evasion_client.py {port} buffered "+token, "strong").Result
	if got.Failed != "" || got.Result != want.String() {
		b.fatalf("the page ends with %q (failed: %q), arena play with %q", got.Result, got.Failed, want.String())
	}
	t.Logf("evasion 2-1, the student's client against strong, seed 7: both end with %s", got.Result)
	// The programs end with their matches (each is given a second to
	// exit by itself): none is left.
	awaitRunning(0, token)

	// You against the program: your moves go to the server's match.
	b.open("?game=colosseum&p1=you&p2=served:student&preset=6&seed=4")
	for turn := range 2 {
		b.awaitYourTurn("P1")
		b.playSuggested() // a square, then its side: the move goes
		b.awaitComputed(2*turn + 2)
	}

	// A link to a program this server does not offer.
	b.open("?game=colosseum&p1=served:someone&p2=strong&seed=3")
	b.waitJS(`JSON.parse(window.arenaTest.status()).toast.includes("someone is a program")`, time.Minute)
	if s := b.status(); s.View != "start" {
		b.fatalf("the link to a missing program shows %q, want the start view (toast %q)", s.View, s.Toast)
	}
}

// TestPageProgramsCannotBeStartedFromAnotherSite opens a page of another
// origin in the same browser and has it post a match with the server's
// program, as a hostile site would (a simple request: no preflight).
// The server refuses it, and the program is never started.
func TestPageProgramsCannotBeStartedFromAnotherSite(t *testing.T) {
	s := programSite(t)
	var mu sync.Mutex
	statuses := map[string]int{}
	h := s.handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &statusRecorder{ResponseWriter: w, status: 200}
		h.ServeHTTP(rw, r)
		mu.Lock()
		statuses[r.Method+" "+r.URL.Path] = rw.status
		mu.Unlock()
	}))
	t.Cleanup(ts.Close)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>another site</title><p>nothing to see")
	}))
	t.Cleanup(evil.Close)
	b := newBrowserOn(t, s)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(evil.URL)); err != nil {
		b.fatalf("navigate: %v", err)
	}
	start := startJSON(t, "colosseum", "served:hang", "random", 1)
	eval[any](b, fmt.Sprintf(`window.sent = false; fetch(%q, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: %q}).then(() => { window.sent = true; }, () => { window.sent = true; }); 0`,
		ts.URL+"/api/matches", start))
	b.waitJS(`window.sent`, time.Minute)
	mu.Lock()
	got, ok := statuses["POST /api/matches"]
	mu.Unlock()
	if !ok || got != http.StatusForbidden {
		b.fatalf("the other site's post: %v (served: %v)", got, statuses)
	}
	if left := running(token, "987653"); len(left) > 0 {
		b.fatalf("the other site started the program: %s", strings.Join(left, "; "))
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(s int)           { r.status = s; r.ResponseWriter.WriteHeader(s) }
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// TestPageRunsAGauntlet runs a 2-pair gauntlet of the student's agent
// from the page on the board the student chose, as a student would: the
// standings come as the games do,
// with the agent's Elo and its interval, and a game opens in the viewer
// at a click, Back returning to the standings.
func TestPageRunsAGauntlet(t *testing.T) {
	b := newBrowserOn(t, programSite(t))
	b.open("?p1=served:student")
	b.chooseGame("colosseum")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).targets.gauntlet || [0, 0, 0])[2] > 0`, time.Minute)
	b.click("gauntlet")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)
	b.click("board:6")
	b.click("pairs:2")
	b.click("gauntlet:run")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).gauntlet || {}).done || (JSON.parse(window.arenaTest.status()).gauntlet || {}).error`, 10*time.Minute)
	st := b.status().Gauntlet
	g, _ := match.Lookup("colosseum")
	if st.Error != "" || st.Played != 2*2*len(g.Bots()) || st.Total != st.Played || !strings.Contains(st.Title, "(6) gauntlet") {
		b.fatalf("the gauntlet %q ended with %d of %d games, error %q", st.Title, st.Played, st.Total, st.Error)
	}
	var student *progress.Entrant
	for i, e := range st.Entrants {
		if e.Name == "student" {
			student = &st.Entrants[i]
		}
	}
	if student == nil || student.Games != st.Played || student.Elo == "" {
		b.fatalf("the standings: %+v", st.Entrants)
	}
	b.awaitFrames(2)
	b.screenshot("playground-gauntlet")
	t.Logf("%s: the student %d-%d-%d, %.1f points, Elo %s [%s, %s]", st.Title, student.Wins, student.Draws, student.Losses, student.Points, student.Elo, student.EloLow, student.EloHigh)

	first := "gauntlet:game:" + st.Games[0].ID
	b.waitJS(fmt.Sprintf(`(JSON.parse(window.arenaTest.status()).targets[%q] || [0, 0, 0])[2] > 0`, first), time.Minute)
	b.click(first)
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match" && JSON.parse(window.arenaTest.status()).done`, time.Minute)
	if s := b.status(); s.Players[0] != "served:student" && s.Players[1] != "served:student" {
		b.fatalf("the game opened is between %v", s.Players)
	}
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)
}

// TestPagePhonePrograms looks at the program seats and a gauntlet on a
// phone: every control on the page and a finger's size.
func TestPagePhonePrograms(t *testing.T) {
	b := newBrowserOn(t, programSite(t))
	b.phone()
	b.open("?p1=served:student")
	b.chooseGame("colosseum")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).targets["p1:served:student"] || [0, 0, 0])[2] > 0`, time.Minute)
	b.phoneCheck("the start view with programs")
	b.screenshot("phone-programs")
	b.click("gauntlet")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)
	b.click("pairs:1")
	b.click("gauntlet:run")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).gauntlet || {}).done`, 10*time.Minute)
	b.awaitFrames(2)
	b.phoneCheck("the gauntlet")
	b.screenshot("phone-gauntlet")
}

// TestPageShowsWhyAProgramLost: a student's client that dies at once
// with a traceback loses its games as on the command line, and the page
// says why, with the program's last line; the page goes on drawing.
func TestPageShowsWhyAProgramLost(t *testing.T) {
	b := newBrowserOn(t, programSite(t))
	b.open("?game=evasion&p1=served:crash&p2=random&preset=2-1&seed=3")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
	s := b.status()
	if faults := strings.Join(s.Faults, "; "); !strings.Contains(faults, "exit status 3") || !strings.Contains(faults, "it wrote: Traceback: ZeroDivisionError") {
		b.fatalf("the page ends with %q and says %q", s.Result, faults)
	}
	if s.Winner != "P2" || s.Reason == "" || s.Result != "P2 wins: "+s.Reason {
		b.fatalf("the hook's winner %q and reason %q for the result %q", s.Winner, s.Reason, s.Result)
	}
	b.awaitFrames(10)
	b.screenshot("playground-program-lost")
	awaitRunning(0, token, "Traceback")

	// A tab that leaves a match with a program that never answers: the
	// program's group ends with the page.
	b.open("?game=colosseum&p1=served:hang&p2=random&seed=1")
	awaitRunning(1, token, "987653")
	b.open("")
	awaitRunning(0, token, "987653")
	// And a match left within the page (Back): its stream's worker ends,
	// with it the request, and with that the program.
	b.open("?game=colosseum&p1=served:hang&p2=random&seed=2")
	awaitRunning(1, token, "987653")
	b.click("back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "start"`, time.Minute)
	awaitRunning(0, token, "987653")
	t.Logf("the page says: %s; %s", s.Result, strings.Join(s.Faults, "; "))
}

// TestPageStaticSiteOffersNoProgram: the static site (-o DIR, on a plain
// file server) has no server to run programs: no program seat, a
// gauntlet for the bot written in the page only, and the start view says
// how to get them.
func TestPageStaticSiteOffersNoProgram(t *testing.T) {
	b := staticBrowser(t)
	b.open("")
	b.chooseGame("colosseum")
	b.waitJS(`(JSON.parse(window.arenaTest.status()).targets["p1:strong"] || [0, 0, 0])[2] > 0`, time.Minute)
	b.awaitFrames(2)
	for id := range b.status().Targets {
		if strings.Contains(id, "served:") {
			b.fatalf("the static site offers %s", id)
		}
	}
	b.click("gauntlet")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "gauntlet"`, time.Minute)
	for id := range b.status().Targets {
		if strings.HasPrefix(id, "program:") && id != "program:"+pageBotSpec {
			b.fatalf("the static site's gauntlet offers %s", id)
		}
	}
	b.click("gauntlet:back")
	b.waitJS(`JSON.parse(window.arenaTest.status()).view == "start"`, time.Minute)
	if help := eval[string](b, `String(window.arenaProgramList)`); help != "" {
		b.fatalf("the static site listed programs: %q", help)
	}
	b.screenshot("playground-static")
}

// TestPageSaysWhyAServersStreamFailed: the worker that reads a served
// match's stream says why it failed, and the page shows it: a server that
// refuses the match, and one that ends the stream before the match's end.
func TestPageSaysWhyAServersStreamFailed(t *testing.T) {
	s := programSite(t)
	var mode sync.Mutex
	answer := "refuse"
	real := s.handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode.Lock()
		a := answer
		mode.Unlock()
		if r.Method != "POST" || r.URL.Path != "/api/matches" {
			real.ServeHTTP(w, r)
			return
		}
		switch a {
		case "refuse":
			http.Error(w, "the programs are all busy", http.StatusServiceUnavailable)
		case "cut":
			w.Header().Set("X-Arena-Match", "1")
			w.WriteHeader(http.StatusOK) // and nothing: the stream ends
		}
	}))
	defer ts.Close()
	b := newBrowserAt(t, ts.URL)
	for _, c := range []struct{ answer, says string }{
		{"refuse", "the server refused the match: the programs are all busy"},
		{"cut", "the server ended the match's stream before its end"},
	} {
		mode.Lock()
		answer = c.answer
		mode.Unlock()
		b.open("?game=colosseum&p1=served:student&p2=random&seed=1")
		b.waitJS(`JSON.parse(window.arenaTest.status()).failed != ""`, time.Minute)
		if got := b.status().Failed; !strings.Contains(got, c.says) {
			b.fatalf("a server that answers %q: the page says %q, want %q", c.answer, got, c.says)
		}
	}
}
