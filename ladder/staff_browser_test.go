package ladder

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// signIn signs a browser in with a token. A browser once stopped
// answering at this step and held the suite for half an hour: a guard
// (not a measure) ends a try that hangs, and a second try navigates
// afresh before the test fails.
func signIn(t *testing.T, ctx context.Context, base, token string) {
	t.Helper()
	// The browser and its tab start on ctx itself, not on a guarded
	// context whose end would close them.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	var err error
	for try := 1; try <= 2; try++ {
		guarded, cancel := context.WithTimeout(ctx, 3*time.Minute)
		err = chromedp.Do(guarded, chromedp.Navigate(base),
			chromedp.SendKeys(chromedp.CSS(`input[name=token]`), token),
			chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`nav`)))
		cancel()
		if err == nil {
			return
		}
		t.Logf("signing in at %s, try %d: %v", base, try, err)
	}
	t.Fatal(err)
}

// until waits for cond, however long the machine takes; the guard ends
// a ladder that stalls instead of holding the suite.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	guard := time.Now().Add(5 * time.Minute) // a guard against a stall, not a measure
	for !cond() {
		if time.Now().After(guard) {
			t.Fatalf("waited 5 minutes for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// onPhone makes a browser a phone's screen, 390x844.
func onPhone(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
}

// fitsPhone checks that a page is no wider than the phone's screen.
func fitsPhone(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); err != nil || overflow {
		t.Errorf("%s is wider than a phone's screen", what)
	}
}

// worker plays the ladder's games with a Python until stopped.
func worker(t *testing.T, st *Store, name, python string) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		src := Local{Store: st, Name: name, Width: 1e9, Queued: 2}
		Player{Dir: filepath.Join(t.TempDir(), "programs"), Hosting: play.Hosting{Python: python}}.Serve(ctx, src, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
	}()
	return func() { cancel(); wg.Wait() }
}

// The staff page as a course's staff use it over a term, with a roster
// of ids, a team and two sections: a version refused because the
// worker's host has no Python is said in the operator's words to the
// staff and in neutral words to its students, and checked again from
// the page once the host is fixed; one student's token is issued again
// and no one else's changes; the games filter; and a deadline, brought
// to 2 s ahead, freezes the ladder with no one at the keyboard, the
// final is played and exported. At 1280x800 and on a phone.
func TestStaffPageInTheBrowser(t *testing.T) {
	st, tokens := courseLadder(t)
	ctx := context.Background()
	// A deadline an hour ahead while the staff work the page: a page
	// whose countdown reaches 0 shows itself again 5 s later, and a click
	// that lands then finds no node, or its form's answer never shows (on
	// a busy machine the minute this test once gave it ran out mid-click).
	// It is brought to 2 s ahead for the freeze, below.
	if err := st.SetDeadline(Deadline{At: time.Now().Add(time.Hour), Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer((&Server{Store: st, Width: 1e9}).Handler())
	defer ts.Close()

	template, _ := gobot.Template("colosseum")
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	goBot, _ := ReadUpload("bot.go", []byte(template), "")
	pyAgent, _ := ReadUpload("agent.zip", zipOf(t, "agent", map[string][]byte{"student_agent.py": agent}), "py:student_agent.py")
	for _, s := range []struct {
		entry string
		u     *Upload
	}{{"s1", goBot}, {"pair1", pyAgent}, {"s4", goBot}} {
		if _, err := st.Submit(ctx, s.entry, s.u); err != nil {
			t.Fatal(err)
		}
	}
	// A worker whose host has no Python: the agent's check fails there.
	stopBad := worker(t, st, "local-nopython", filepath.Join(t.TempDir(), "no-python-here"))
	until(t, "the checks on the host with no Python", func() bool {
		vs, _ := st.Versions(ctx, "")
		for _, v := range vs {
			if v.State == Checking {
				return false
			}
		}
		return true
	})
	stopBad()

	staff := browserAt(t)
	signIn(t, staff, ts.URL, tokens[Staff])
	page := text(t, staff, ts.URL+"/staff")
	for _, want := range []string{"Workers", "local-nopython", "pair1 v1", "refused for the host's want", "no Python", "Re-check", "s3", "Grace Hopper", "New token", "closes on its own"} {
		if !strings.Contains(page, want) {
			t.Errorf("the staff page has no %q:\n%s", want, page)
		}
	}
	shootFull(t, staff, "ladder-staff")
	student := browserAt(t)
	signIn(t, student, ts.URL, tokens["s3"])
	onPhone(t, student)
	mine := text(t, student, ts.URL+"/students/pair1")
	if !strings.Contains(mine, HostReason) || strings.Contains(mine, "no Python") {
		t.Errorf("s3's page for pair1 says:\n%s", mine)
	}
	fitsPhone(t, student, "the student's page")
	shoot(t, student, "phone-ladder-student-host")

	// The host is fixed: a worker with Python, and the staff re-check.
	stopGood := worker(t, st, "local-python", pythonWith(t, "import numpy"))
	defer stopGood()
	// The re-check's form goes back to the staff page with its note: wait
	// for that page, or the next navigation races the form's.
	if err := chromedp.Do(staff, chromedp.Click(chromedp.CSS(`form[action$="/recheck"] button`))); err != nil {
		t.Fatal(err)
	}
	until(t, "the staff page after the re-check", func() bool {
		loc, err := chromedp.Run(staff, chromedp.Location())
		return err == nil && strings.Contains(loc, "note=")
	})
	if page := text(t, staff, ts.URL+"/staff"); !strings.Contains(page, "pair1 v1") {
		t.Errorf("after the re-check the staff page says:\n%s", page)
	}
	until(t, "pair1 v1 checked again", func() bool {
		vs, _ := st.Versions(ctx, "pair1")
		return vs[0].State == Ready
	})
	if vs, _ := st.Versions(ctx, "pair1"); len(vs) != 1 {
		t.Errorf("the re-check made a version: %+v", vs)
	}

	// One student's token again: theirs alone changes. The staff page has
	// code elements of its own (a version's command), so wait for the
	// token's page itself, or the read below races the form's answer.
	navigate(t, staff, ts.URL+"/staff",
		chromedp.Click(chromedp.CSS(`form[action="/api/ladder/tokens"]:has(input[value="s3"]) button`)))
	until(t, "the new token's page", func() bool {
		loc, err := chromedp.Run(staff, chromedp.Location())
		return err == nil && strings.HasSuffix(loc, "/api/ladder/tokens")
	})
	shown, err := chromedp.Run(staff, chromedp.Text(chromedp.CSS(`code`)))
	if err != nil {
		t.Fatal(err)
	}
	if who, err := st.Who(ctx, strings.TrimSpace(shown)); err != nil || who.Person != "s3" {
		t.Errorf("the page's new token names %+v (%v)", who, err)
	}
	for id, tok := range tokens {
		_, err := st.Who(ctx, tok)
		if id == "s3" && err == nil || id != "s3" && err != nil {
			t.Errorf("after s3's new token, %s's old one: %v", id, err)
		}
	}

	// The games, filtered.
	checks := text(t, staff, ts.URL+"/staff?kind=check#games")
	if !strings.Contains(checks, "check") || strings.Contains(checks, "\tladder\t") {
		t.Errorf("the games filtered by kind=check:\n%s", checks)
	}

	// The deadline passes with no one at the keyboard.
	if err := st.SetDeadline(Deadline{At: time.Now().Add(2 * time.Second), Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	keep, stopKeeping := context.WithCancel(ctx)
	defer stopKeeping()
	go st.KeepDeadline(keep, func(s string) { t.Log(s) }, nil)
	until(t, "the deadline's freeze", func() bool { f, _ := st.Meta("frozen"); return f != "" })
	until(t, "the final's games", func() bool {
		_, fg, err := st.Final(ctx)
		return err == nil && fg != nil && fg.Remaining == 0
	})
	page = text(t, staff, ts.URL+"/staff")
	if !strings.Contains(page, "Frozen at") || !strings.Contains(page, "Export") {
		t.Errorf("after the deadline the staff page says:\n%s", page)
	}
	csvText, err := chromedp.Run(staff, chromedp.Evaluate[string](`fetch("/api/ladder/export?format=canvas").then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.HasPrefix(csvText, "Student,ID,SIS User ID,SIS Login ID,Section,Ladder") || strings.Count(csvText, "\n") != 2+5 {
		t.Errorf("the staff page's Canvas export: %q (%v)", csvText, err)
	}
	shootFull(t, staff, "ladder-staff-frozen")
	onPhone(t, staff)
	text(t, staff, ts.URL+"/staff")
	fitsPhone(t, staff, "the staff page")
	shoot(t, staff, "phone-ladder-staff")
	signIn(t, student, ts.URL, strings.TrimSpace(shown))
	text(t, student, ts.URL+"/students/pair1")
	fitsPhone(t, student, "the student's page")
	shoot(t, student, "phone-ladder-student")
}
