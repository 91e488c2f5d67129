package ladder

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/gobot"
)

// lessonGames is how many ladder games TestLessonsInTheBrowser plays:
// ARENA_LADDER_GAMES, where docs' screenshot asks for a term's worth.
func lessonGames() int {
	if n, err := strconv.Atoi(os.Getenv("ARENA_LADDER_GAMES")); err == nil && n > 0 {
		return n
	}
	return 24
}

// A term's games played by real programs (the course's Python agent
// with NumPy, the Go template, and a student's version of it that
// forgets to shun a cell walled on three sides, then a version that
// fixed it), each reported: the student's page says where their
// versions lose, version by version, and lists their costliest
// decisions, each a link to the board at that turn. On a phone it fits.
func TestLessonsInTheBrowser(t *testing.T) {
	st, tokens := newLadder(t, "ada", "bob", "cy")
	ctx := context.Background()
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import numpy"))
	template, _ := gobot.Template("colosseum")
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	submit := func(student, name string, data []byte, command string) {
		t.Helper()
		u, err := ReadUpload(name, data, command)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Submit(ctx, student, u); err != nil {
			t.Fatal(err)
		}
	}
	careless := strings.Replace(template, "score -= 20", "score -= 0", 1)
	if careless == template {
		t.Fatal("the template no longer shuns a cell walled on three sides: the careless version needs another bug")
	}
	submit("ada", "bot.go", []byte(template), "")
	submit("bob", "agent.zip", zipOf(t, "agent", map[string][]byte{"student_agent.py": agent}), "py:student_agent.py")
	submit("cy", "careless.go", []byte(careless), "")

	workCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := Local{Store: st, Name: "local-" + string(rune('a'+k)), Width: 1, Queued: 2} // every interval too wide: games without end
			Player{Dir: filepath.Join(t.TempDir(), "programs")}.Serve(workCtx, src, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
		}()
	}
	defer func() { stop(); wg.Wait() }()
	played := func(n int) func() bool {
		return func() bool {
			games, err := st.Games(ctx, LadderGame, "done")
			return err == nil && len(games) >= n
		}
	}
	half := lessonGames() / 2
	until(t, "the first half of the games", played(half))
	submit("cy", "fixed.go", []byte(template), "")
	until(t, "the rest of the games", played(2*half))
	stop()
	wg.Wait()
	reportAll(t, st)
	// v2 plays v1's costliest mistakes again (the reporter's suites).
	drillAll(t, st)
	ls, err := st.Lessons(ctx, "cy")
	if err != nil {
		t.Fatal(err)
	}
	if ls.Reported != ls.Games || len(ls.Versions) != 2 || len(ls.Costliest) == 0 {
		t.Fatalf("cy's lessons: %d of %d games reported, versions %+v, %d costliest", ls.Reported, ls.Games, ls.Versions, len(ls.Costliest))
	}
	ts := httptest.NewServer((&Server{Store: st, Width: 1e9, Playground: http.NotFoundHandler()}).Handler())
	defer ts.Close()
	b := browserAt(t)
	signIn(t, b, ts.URL, tokens["cy"])
	page := text(t, b, ts.URL+"/students/cy")
	if len(ls.Suites) != 1 || ls.Suites[0].Version != 2 || len(ls.Suites[0].Drills) == 0 {
		t.Fatalf("cy's suites: %+v", ls.Suites)
	}
	for _, want := range []string{"Where your versions lose", "Your costliest decisions", "end game", "v1", "v2", "kind of move",
		fmt.Sprintf("Your past mistakes, played by v2: %d of %d", ls.Suites[0].Passed, len(ls.Suites[0].Drills))} {
		if !strings.Contains(page, want) {
			t.Errorf("cy's page has no %q", want)
		}
	}
	links, err := chromedp.Run(b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.costliest a")].map(a => a.href)`))
	if err != nil || len(links) != len(ls.Costliest) {
		t.Fatalf("the costliest decisions' links: %v (%v)", links, err)
	}
	for i, l := range links {
		if c := ls.Costliest[i]; !strings.Contains(l, "analyse=1&turn="+strconv.Itoa(c.Turn)) || !strings.Contains(l, "ladder-game-"+strconv.FormatInt(c.Game, 10)) {
			t.Errorf("costliest %d (game %d, turn %d) links to %s", i, c.Game, c.Turn, l)
		}
	}
	scroll := func() {
		chromedp.Run(b, chromedp.Evaluate[bool](`document.getElementById("lessons").scrollIntoView(), true`))
	}
	scroll()
	shoot(t, b, "ladder-lessons")
	chromedp.Run(b, chromedp.Evaluate[bool](`document.getElementById("suite-v2").scrollIntoView(), true`))
	shoot(t, b, "ladder-suite")
	onPhone(t, b)
	text(t, b, ts.URL+"/students/cy#lessons")
	fitsPhone(t, b, "cy's page")
	scroll()
	shoot(t, b, "phone-ladder-lessons")
	for _, v := range ls.Versions {
		t.Logf("cy v%d: %d games, accuracy %.1f%%, %.2f blunders and %.2f mistakes a game, %.2f points lost a game", v.Number, v.Games, v.Accuracy, v.Blunders, v.Mistakes, v.Lost)
	}
	for _, p := range append(ls.Phases, ls.Kinds...) {
		t.Logf("cy, %s: %d decisions lost %.2f points (%d blunders, %d mistakes)", p.Group, p.Decisions, p.Lost, p.Blunders, p.Mistakes)
	}
	t.Logf("cy v2's suite: %d of %d of v1's mistakes passed", ls.Suites[0].Passed, len(ls.Suites[0].Drills))
}
