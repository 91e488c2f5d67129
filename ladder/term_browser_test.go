package ladder

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// playSome plays n games the scheduler queues, each won at random (a
// draw now and then), as a term's games would come in: results alone,
// no programs, so that a page of a term's length is quick to make.
func playSome(t *testing.T, st *Store, n int, r *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	for range n {
		if _, err := st.Schedule(ctx, 1, 4); err != nil {
			t.Fatal(err)
		}
		l, err := st.TakeLease(ctx, "term", time.Hour)
		if err != nil || l == nil {
			t.Fatalf("no game to play: %v", err)
		}
		w := []match.Side{match.P1, match.P2, match.NoSide}[r.IntN(3)]
		if l.Seats[1] == RandomBot {
			w = match.P1
		}
		if err := st.Finish(ctx, l.Lease, Outcome{Result: &play.Result{Outcome: match.Outcome{Winner: w, Reason: "a test's result"}, Turns: 10}}); err != nil {
			t.Fatal(err)
		}
	}
}

// A student's page over a term, as they read it: their versions with
// their own numbers and file names, a chart of each version's rating,
// their games by opponent, filtered and a page at a time; and a version
// being checked, which the page explains and shows the result of on its
// own, with no reload. On a phone every column shows, as cards. The
// course's page lists its ladders, each counted down to its deadline.
func TestStudentPageOverATerm(t *testing.T) {
	st, tokens := courseLadder(t)
	ctx := context.Background()
	if err := st.SetDeadline(Deadline{At: time.Now().Add(9*24*time.Hour + 5*time.Hour), Grace: 15 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	r := rand.New(rand.NewPCG(1, 2))
	for _, e := range []string{"s1", "pair1", "s4", "ref"} {
		if _, err := st.Submit(ctx, e, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	playSome(t, st, 60, r)
	for _, name := range []string{"alphabeta.go", "alphabeta2.go"} {
		v, _ := ReadUpload(name, []byte(template), "")
		if _, err := st.Submit(ctx, "s1", v); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
		playSome(t, st, 40, r)
	}
	last, _ := ReadUpload("mcts.go", []byte(template), "")
	if _, err := st.Submit(ctx, "s1", last); err != nil { // being checked
		t.Fatal(err)
	}
	practice, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer practice.Close()
	people, _ := st.People(ctx)
	if err := practice.Setup("mapcolor", "usa", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := practice.EnterRoster(ctx, Roster(people)); err != nil {
		t.Fatal(err)
	}
	course := &Course{Auth: st, Ladders: []*Server{{Store: practice, Name: "practice", Title: "Practice", Width: 1e9},
		{Store: st, Name: "a2", Title: "Assignment 2", Graded: true, Width: 1e9}}}
	ts := httptest.NewServer(course.Handler())
	defer ts.Close()

	b := browserAt(t)
	signIn(t, b, ts.URL, tokens["s1"])
	home := text(t, b, ts.URL+"/")
	for _, want := range []string{"Practice", "practice", "Assignment 2", "graded", "in 9 d 0"} {
		if !strings.Contains(home, want) {
			t.Errorf("the course's page has no %q:\n%s", want, home)
		}
	}
	shoot(t, b, "ladder-course")
	page := text(t, b, ts.URL+"/l/a2/students/s1")
	for _, want := range []string{"Ada Lovelace", "v1 bot.go", "v3 alphabeta2.go", "v4 mcts.go", "Checking your version", "Rating by version", "page 1 of", "By opponent", "pair1"} {
		if !strings.Contains(page, want) {
			t.Errorf("s1's page has no %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "/programs/") || strings.Contains(page, "P1 (check)") {
		t.Errorf("s1's page names a seat of a check or a server's folder:\n%s", page)
	}
	shootFull(t, b, "ladder-student-term")
	// The check ends; the page shows it without being told to.
	finishNext(t, st)
	until(t, "the page showing the check's end on its own", func() bool {
		s, err := chromedp.Run(b, chromedp.Text(chromedp.CSS(`body`)))
		return err == nil && !strings.Contains(s, "Checking your version") && strings.Contains(s, "v4 mcts.go")
	})
	// Filtered by opponent, a page at a time.
	filtered := text(t, b, ts.URL+"/l/a2/students/s1?opponent=Edsger+Dijkstra&result=win")
	rows, err := chromedp.Run(b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#games ~ table.cards tr td:nth-child(3)")].map(td => td.textContent)`))
	if err != nil || len(rows) == 0 {
		t.Fatalf("no games against Edsger Dijkstra on s1's page (%v):\n%s", err, filtered)
	}
	for _, opp := range rows {
		if !strings.HasPrefix(opp, "Edsger Dijkstra v") {
			t.Errorf("a game against %q among those filtered for Edsger Dijkstra", opp)
		}
	}
	onPhone(t, b)
	text(t, b, ts.URL+"/l/a2/students/s1")
	fitsPhone(t, b, "s1's page")
	shoot(t, b, "phone-ladder-student-term")
	// Every column of a version shows on the phone: its cells, as cards.
	labels, err := chromedp.Run(b, chromedp.Evaluate[[]string](`[...document.querySelector("table.cards").querySelectorAll("tr:nth-child(2) td")].filter(td => td.offsetWidth > 0 && td.getBoundingClientRect().right <= innerWidth).map(td => td.dataset.label || "")`))
	if err != nil || strings.Join(labels, ",") != "version,state,rating,games,W-D-L" {
		t.Errorf("on a phone a version shows %q (%v)", labels, err)
	}
	text(t, b, ts.URL+"/l/a2/")
	fitsPhone(t, b, "the leaderboard")
	shoot(t, b, "phone-ladder-leaderboard-term")
}
