package ladder

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/play"
)

// checkLessons reports on every finished ladder game of st, then holds
// each student's lessons to the reports made again from the replays: the
// costliest decisions are the student's own, most first, each what the
// report says it lost; the phases sum every lost decision; each game's
// link opens at the student's costliest decision there, on the board.
func checkLessons(t *testing.T, st *Store, tokens map[string]string, students ...string) {
	t.Helper()
	ctx := context.Background()
	reportAll(t, st)
	games, err := st.Games(ctx, LadderGame, "done")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer((&Server{Store: st, Width: 100, Playground: http.NotFoundHandler()}).Handler())
	defer ts.Close()
	for _, name := range students {
		ls, err := st.Lessons(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if ls.Reported != ls.Games || ls.Games == 0 {
			t.Errorf("%s: %d of %d games reported", name, ls.Reported, ls.Games)
		}
		var lost []float64
		worst := map[int64]int{}
		for _, g := range games {
			side := -1
			for sd, v := range g.Seats {
				var owner string
				if st.db.QueryRow(`SELECT student FROM versions WHERE id = ?`, v).Scan(&owner); owner == name {
					side = sd
				}
			}
			if side < 0 {
				continue
			}
			data, err := st.Replay(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := play.LoadReplay("replay", data)
			if err != nil {
				t.Fatal(err)
			}
			r, err := analysis.Make(ctx, rec, analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			most := 0.0
			for _, d := range r.Decisions {
				if int(d.Side) == side && d.Lost > 0 {
					lost = append(lost, d.Lost)
					if d.Lost > most {
						most, worst[g.ID] = d.Lost, d.Turn
					}
				}
			}
		}
		slices.SortFunc(lost, func(a, b float64) int { return int(1e9 * (b - a)) })
		for i, c := range ls.Costliest {
			if i >= len(lost) || c.Lost != lost[i] {
				t.Errorf("%s: costliest %d lost %v; the reports made again say %v", name, i, c.Lost, lost[min(i, len(lost)-1)])
			}
		}
		n, kinds := 0, 0
		for _, p := range ls.Phases {
			n += p.Decisions
		}
		for _, k := range ls.Kinds {
			kinds += k.Decisions
			if strings.HasPrefix(k.Group, "not named") {
				t.Errorf("%s: %d decisions without the game's kind of move", name, k.Decisions)
			}
		}
		if n != len(lost) || kinds != len(lost) || len(ls.Costliest) != min(len(lost), MaxCostliest) {
			t.Errorf("%s: %d decisions lost something; the phases count %d, the kinds %d, the list %d", name, len(lost), n, kinds, len(ls.Costliest))
		}

		if fmt.Sprint(ls.Worst) != fmt.Sprint(worst) {
			t.Errorf("%s: each game's costliest decision %v; the reports say %v", name, ls.Worst, worst)
		}
		code, page := (client{t, ts.URL, tokens[name]}).do("GET", "/students/"+name, nil, nil)
		if code != http.StatusOK || !strings.Contains(page, "Where your versions lose") {
			t.Fatalf("%s's page: %d", name, code)
		}
		for _, k := range ls.Kinds {
			if !strings.Contains(page, html.EscapeString(k.Group)) {
				t.Errorf("%s's page does not list the kind of move %q", name, k.Group)
			}
		}
		for id, turn := range worst {
			if want := fmt.Sprintf("ladder-game-%d.json&amp;analyse=1&amp;turn=%d", id, turn); !strings.Contains(page, want) {
				t.Errorf("%s's page has no link to game %d at turn %d on the board", name, id, turn)
			}
		}
		t.Logf("%s: %d games reported, %d decisions lost something, the costliest %.2f; versions %+v", name, ls.Reported, len(lost), lost[0], ls.Versions)
	}
}

// reportAll reports on every finished ladder game of st.
func reportAll(t *testing.T, st *Store) {
	t.Helper()
	for {
		did, err := st.ReportOne(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !did {
			return
		}
	}
}

// checkSuite has student's new version v (the same program as their
// first, source) checked, then played on their past mistakes: its suite
// drills the first version's costliest decisions, most first, each
// judged as arena drill judges it; the same program plays the same
// move again and fails where it lost before; the student's page shows
// the suite.
func checkSuite(t *testing.T, st *Store, tokens map[string]string, student string, v Version, source string) {
	t.Helper()
	ctx := context.Background()
	workCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		src := Local{Store: st, Name: "local-suite", Width: 1e9, Queued: 0}
		Player{Dir: filepath.Join(t.TempDir(), "programs")}.Serve(workCtx, src, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
	}()
	for { // its check game, however long this machine takes
		vs, err := st.Versions(ctx, student)
		if err != nil {
			t.Fatal(err)
		}
		if last := vs[len(vs)-1]; last.ID == v.ID && last.State != "checking" {
			if last.State != "ready" {
				t.Fatalf("%s's second version: %s %s", student, last.State, last.Reason)
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	<-done
	reportAll(t, st)
	drillAll(t, st)
	past, err := st.lostDecisions(ctx, student)
	if err != nil {
		t.Fatal(err)
	}
	past = slices.DeleteFunc(past, func(c Costly) bool { return c.Version != 1 || c.Lost < suiteFloor })
	suites, err := st.Suites(ctx, student)
	if err != nil {
		t.Fatal(err)
	}
	if len(past) == 0 || len(suites) != 1 || suites[0].Version != 2 || len(suites[0].Drills) != min(len(past), MaxSuite) {
		t.Fatalf("%s: %d past decisions to drill; suites %+v", student, len(past), suites)
	}
	file := filepath.Join(t.TempDir(), "bot.go")
	os.WriteFile(file, []byte(source), 0o644)
	passed := 0
	for i, d := range suites[0].Drills {
		if d.Error != "" || d.Game != past[i].Game || d.Turn != past[i].Turn || d.Lost != past[i].Lost {
			t.Fatalf("drill %d: %+v; the past decision %+v", i, d, past[i])
		}
		if d.Answer.Passed {
			passed++
		}
		if d.Answer.Move == d.Move && d.Answer.Passed {
			t.Errorf("drill %d: v2 played v1's %s again, which lost %.2f, and passed", i, d.Move, d.Lost)
		}
		if i == 0 {
			data, _ := st.Replay(ctx, d.Game)
			rec, err := play.LoadReplay("replay", data)
			if err != nil {
				t.Fatal(err)
			}
			dr, err := analysis.NewDrill(rec, d.Turn, d.Side, "")
			if err != nil {
				t.Fatal(err)
			}
			want, err := dr.Run(ctx, rec, "go:"+file, analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want.Move != d.Answer.Move || want.Lost != d.Answer.Lost || want.Passed != d.Answer.Passed {
				t.Errorf("the costliest drill: the ladder says %+v, arena drill %+v", d.Answer, want)
			}
		}
	}
	if passed != suites[0].Passed {
		t.Errorf("the suite says %d passed; its drills %d", suites[0].Passed, passed)
	}
	ts := httptest.NewServer((&Server{Store: st, Width: 100, Playground: http.NotFoundHandler()}).Handler())
	defer ts.Close()
	code, page := (client{t, ts.URL, tokens[student]}).do("GET", "/students/"+student, nil, nil)
	if want := fmt.Sprintf("played by v2: %d of %d", passed, len(suites[0].Drills)); code != http.StatusOK || !strings.Contains(page, want) {
		t.Errorf("%s's page (%d) does not say %q", student, code, want)
	}
	t.Logf("%s v2's suite: %d of %d passed", student, passed, len(suites[0].Drills))
}

// drillAll plays every version's suite that is not played yet.
func drillAll(t *testing.T, st *Store) {
	t.Helper()
	st.DrillWith(Player{Dir: filepath.Join(t.TempDir(), "programs")})
	for {
		did, err := st.DrillOne(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !did {
			return
		}
	}
}
