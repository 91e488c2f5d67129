package ladder

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/page"
)

// chromium is the browser the tests drive (make deps installs it).
func chromium() string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return "chromium"
}

// browserAt is a headless Chromium of its own (its own cookies: one
// student), 1280x800.
func browserAt(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium()), chromedp.NoSandbox,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx
}

// shoot keeps a screenshot under $ARENA_SHOTS.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ARENA_SHOTS"); dir != "" {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}

// navigate opens url, then does more. The page the browser is on may
// reload itself (a student's once its version is checked, the staff's
// while one is) as the navigation starts, which aborts it
// (net::ERR_ABORTED): navigate again, a bounded number of times.
func navigate(t *testing.T, ctx context.Context, url string, more ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	for tries := 1; ; tries++ {
		err := chromedp.Do(ctx, append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(url)}, more...)...)
		if err == nil {
			return
		}
		if tries == 20 || !strings.Contains(err.Error(), "ERR_ABORTED") {
			t.Fatal(err)
		}
	}
}

// text opens a page and returns its text.
func text(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	navigate(t, ctx, url)
	// A page that refreshes itself (the staff's or a student's while a
	// version is checked) can replace its body as it is read ("No node
	// with given id"): read it again, a bounded number of times.
	for tries := 1; ; tries++ {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`body`)))
		if err == nil {
			return s
		}
		if tries == 20 {
			t.Fatal(err)
		}
	}
}

// TestLadderInTheBrowser: three students sign in and submit through the
// page's upload form, as students do: a go: file, a Colosseum agent's
// folder as a zip for py:, and a Python program that dies at once. The
// leaderboard ranks the first two with their intervals and names the
// third refused, with its reason; each student's page shows their
// versions, games and matchups, and no other student's.
func TestLadderInTheBrowser(t *testing.T) {
	st, tokens := newLadder(t, "alice", "bob", "carol")
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import numpy"))
	site, err := page.Build()
	if err != nil {
		t.Fatalf("building the playground: %v", err)
	}
	ts := httptest.NewServer((&Server{Store: st, Width: 1e9, Playground: site.Files()}).Handler())
	defer ts.Close()
	workCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	for k := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := Local{Store: st, Name: "local-" + string(rune('a'+k)), Width: 1e9, Queued: 2}
			Player{Dir: filepath.Join(t.TempDir(), "programs")}.Serve(workCtx, src, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
		}()
	}

	dir := t.TempDir()
	template, _ := gobot.Template("colosseum")
	agent, _ := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
	files := map[string]string{
		"alice": filepath.Join(dir, "bot.go"),
		"bob":   filepath.Join(dir, "agent.zip"),
		"carol": filepath.Join(dir, "crash.zip"),
	}
	os.WriteFile(files["alice"], []byte(template), 0o644)
	os.WriteFile(files["bob"], zipOf(t, "agent", map[string][]byte{"student_agent.py": agent}), 0o644)
	os.WriteFile(files["carol"], zipOf(t, "crash", map[string][]byte{"crash.py": []byte("raise SystemExit('carol gives up')\n")}), 0o644)
	commands := map[string]string{"bob": "py:student_agent.py", "carol": "python3 crash.py"}
	browsers := map[string]context.Context{}
	for _, who := range []string{"alice", "bob", "carol"} {
		ctx := browserAt(t)
		browsers[who] = ctx
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL),
			chromedp.SendKeys(chromedp.CSS(`input[name=token]`), tokens[who]),
			chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`a[href="/submit"]`)),
			chromedp.Navigate(ts.URL+"/submit"),
			chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{files[who]}),
			chromedp.SendKeys(chromedp.CSS(`input[name=command]`), commands[who]),
			chromedp.Click(chromedp.CSS(`form[action="/api/ladder/submit"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`h2`)),
		)
		title := ""
		if err == nil {
			title, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`h1`)))
		}
		if err != nil || title != who {
			t.Fatalf("%s's submission through the form: %q, %v", who, title, err)
		}
		if who == "alice" {
			shoot(t, ctx, "ladder-student-checking")
		}
	}
	guard := time.Now().Add(10 * time.Minute) // a guard against a stall, not a measure
	for {
		s, err := st.Standings(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if s.Checking == 0 && len(s.Ranked) == 2 && s.Ranked[1].Games >= 2*MinPairs {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("the ladder stalled: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()

	ctx := browsers["alice"]
	board := text(t, ctx, ts.URL+"/")
	for _, want := range []string{"alice", "bob", "±", "Refused versions", "carol v1", hiddenReason} {
		if !strings.Contains(board, want) {
			t.Errorf("the leaderboard has no %q:\n%s", want, board)
		}
	}
	if strings.Contains(board, "carol gives up") {
		t.Errorf("alice's leaderboard quotes what carol's program printed:\n%s", board)
	}
	if carols := text(t, browsers["carol"], ts.URL+"/"); !strings.Contains(carols, "carol gives up") {
		t.Errorf("carol's leaderboard does not say why her version was refused:\n%s", carols)
	}
	shoot(t, ctx, "ladder-leaderboard")
	page := text(t, ctx, ts.URL+"/students/alice")
	for _, want := range []string{"v1", "ranked", "By opponent", "bob", "random"} {
		if !strings.Contains(page, want) {
			t.Errorf("alice's page has no %q:\n%s", want, page)
		}
	}
	shoot(t, ctx, "ladder-student")
	replay := watchAGame(t, ctx)
	checkReplayRedacted(t, ctx, ts.URL+replay, tokens["staff"])
	other := text(t, ctx, ts.URL+"/students/bob")
	if !strings.Contains(other, "their own page only") {
		t.Errorf("alice opened bob's page:\n%s", other)
	}
	refused := text(t, browsers["carol"], ts.URL+"/students/carol")
	if !strings.Contains(refused, "refused: its check game against random") || !strings.Contains(refused, "carol gives up") {
		t.Errorf("carol's page does not say why her version was refused:\n%s", refused)
	}
	// On a phone.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, ts.URL)
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); err != nil || overflow {
		t.Errorf("the leaderboard is wider than a phone's page")
	}
	shoot(t, ctx, "phone-ladder-leaderboard")
	text(t, ctx, ts.URL+"/students/alice")
	shoot(t, ctx, "phone-ladder-student")
}

// watchAGame opens alice's first game against bob from her page: the
// ladder's playground loads, fetches the replay with her cookie, and
// shows the game paused at its first move with the thinking layer on.
func watchAGame(t *testing.T, ctx context.Context) (replay string) {
	t.Helper()
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		for (const tr of document.querySelectorAll("tr")) {
			const td = tr.querySelectorAll("td");
			if (td.length > 3 && td[2].textContent.includes("bob")) { return td[0].querySelector("a").href; }
		}
		return "";
	})()`))
	if err != nil || href == "" {
		t.Fatalf("no game against bob to open on alice's page: %q %v", href, err)
	}
	if !strings.Contains(href, PlayPath+"?replay=") {
		t.Errorf("a game's link opens %s, not the ladder's playground", href)
	}
	navigate(t, ctx, href)
	var st struct {
		View     string  `json:"view"`
		Done     bool    `json:"done"`
		Thinking bool    `json:"thinking"`
		Toast    string  `json:"toast"`
		Turn     float64 `json:"turn"`
		Computed int     `json:"computed"`
		Playing  bool    `json:"playing"`
	}
	guard := time.Now().Add(3 * time.Minute) // a guard against a stall, not a measure
	for {
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.arenaTest ? arenaTest.status() : "{}"`))
		if err == nil {
			json.Unmarshal([]byte(raw), &st)
		}
		if st.View == "match" && st.Turn == 1 && st.Computed > 1 {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("the replay did not open in the ladder's playground: %+v (%v)", st, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !st.Thinking || st.Playing {
		t.Errorf("the replay opened without the thinking layer, or playing on from its first move: %+v", st)
	}
	shoot(t, ctx, "ladder-replay")
	u, _ := url.Parse(href)
	return u.Query().Get("replay")
}

// checkReplayRedacted reads a replay of alice's game against bob as
// alice's browser fetches it and as the staff do: the players are named
// as the ladder names them, and what bob's program wrote (Colosseum's
// course agent prints its time a move) is the staff's, not alice's.
func checkReplayRedacted(t *testing.T, ctx context.Context, replay, staff string) {
	t.Helper()
	hers, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(`+strconv.Quote(replay)+`).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", replay, nil)
	req.Header.Set("Authorization", "Bearer "+staff)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	all, _ := io.ReadAll(res.Body)
	const printed = "My AI's turn took"
	for _, want := range []string{`"alice v1"`, `"bob v1"`} {
		if !strings.Contains(hers, want) || !strings.Contains(string(all), want) {
			t.Errorf("the replay does not name its player %s", want)
		}
	}
	if strings.Contains(hers, printed) || !strings.Contains(hers, hiddenSaid) {
		t.Errorf("alice's copy of the replay shows what bob's program wrote")
	}
	if !strings.Contains(string(all), printed) {
		t.Errorf("the staff's copy of the replay does not show what bob's program wrote")
	}
}

// shootFull keeps a screenshot of the whole page under $ARENA_SHOTS.
func shootFull(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ARENA_SHOTS"); dir != "" {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}
