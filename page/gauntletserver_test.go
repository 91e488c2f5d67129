package page

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament/progress"
)

// gauntletServer serves the programs and the gauntlets, played in dir.
func gauntletServer(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	offerPrograms(t)
	ts := httptest.NewServer((&Site{programs: players.Offered(), gauntletDir: dir, serve: testServe}).handler())
	t.Cleanup(ts.Close)
	return ts
}

// readGauntlet reads a gauntlet's stream until stop says so or it ends,
// and returns the statuses read.
func readGauntlet(t *testing.T, res *http.Response, stop func(progress.Status) bool) []progress.Status {
	t.Helper()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	var out []progress.Status
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var st progress.Status
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
		if stop != nil && stop(st) {
			break
		}
	}
	return out
}

// A gauntlet from the page: the student's agent against every bot of
// Colosseum, both seats, on the board the page chose (its games play
// that preset's config, and a board the game lacks is refused by name).
// Interrupted (the tab closed) it keeps what was played, and started
// again it resumes, ending with every game once; its report and its
// games' replays are served.
func TestServerRunsAGauntlet(t *testing.T) {
	dir := t.TempDir()
	ts := gauntletServer(t, dir)
	res := post(t, ts, "/api/gauntlets", `{"game":"colosseum","program":"student","board":"13","pairs":1}`, nil)
	why, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(why), `unknown preset "13"`) {
		t.Errorf("board 13: %d %s", res.StatusCode, why)
	}
	body := `{"game":"colosseum","program":"student","board":"6","pairs":2}`
	g, _ := match.Lookup("colosseum")
	total := 2 * 2 * len(g.Bots())

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/gauntlets", strings.NewReader(body))
	req.Header.Set("Origin", ts.URL)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first := readGauntlet(t, res, func(st progress.Status) bool { return st.Played >= 3 })
	cancel()
	if last := first[len(first)-1]; last.Played < 3 || last.Total != total || last.Done {
		t.Fatalf("the first run: %+v", last)
	}

	// Started again at once, as a reload does: the server waits for the
	// closed request's run to stop, then resumes it.
	all := readGauntlet(t, post(t, ts, "/api/gauntlets", body, nil), nil)
	last := all[len(all)-1]
	if all[0].Resumed < 3 || !last.Done || last.Played != total || last.Error != "" || len(last.Games) != total {
		t.Fatalf("the second run resumed %d and ended with %d of %d games, done %v, error %q", all[0].Resumed, last.Played, last.Total, last.Done, last.Error)
	}
	ids := map[string]bool{}
	for _, gm := range last.Games {
		if ids[gm.ID] {
			t.Errorf("game %s twice", gm.ID)
		}
		ids[gm.ID] = true
	}
	var student progress.Entrant
	for _, e := range last.Entrants {
		if e.Name == "student" {
			student = e
		}
	}
	if student.Games != total || student.Elo == "" || student.EloLow == "" {
		t.Errorf("the student's line: %+v", student)
	}
	t.Logf("%s: resumed after %d games; the student %d-%d-%d, Elo %s [%s, %s]", last.Title, all[0].Resumed, student.Wins, student.Draws, student.Losses, student.Elo, student.EloLow, student.EloHigh)

	rep, err := http.Get(ts.URL + "/" + last.Report)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(rep.Body)
	if bytes.Contains(html, []byte(dir)) {
		t.Errorf("the report names the server's directory %s", dir)
	}
	rep.Body.Close()
	if rep.StatusCode != 200 || !bytes.Contains(html, []byte("replay=%2Fapi%2Fgauntlets%2F")) {
		t.Errorf("the report: %d, %d bytes, links to replays: %v", rep.StatusCode, len(html), bytes.Contains(html, []byte("replay=")))
	}
	rr, err := http.Get(ts.URL + last.Games[0].Replay)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rr.Body)
	rr.Body.Close()
	rec, err := play.LoadReplay("replay", data)
	if rr.StatusCode != 200 || err != nil {
		t.Fatalf("the replay %s: %d, %v", last.Games[0].Replay, rr.StatusCode, err)
	}
	six, _ := match.LookupPreset(g, "6")
	want, _ := json.Marshal(six.Config)
	if got, _ := json.Marshal(rec.Config); string(got) != string(want) || !strings.Contains(last.Title, "(6) gauntlet") {
		t.Errorf("%s: a game played %s, not board 6's %s", last.Title, got, want)
	}
	for _, bad := range []string{"/api/gauntlets/..%2F..%2Fetc/report", "/api/gauntlets/" + strings.Split(last.Report, "/")[2] + "/replays/..%2Fplan.json"} {
		if r, err := http.Get(ts.URL + bad); err != nil || r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %v %v", bad, r.StatusCode, err)
		}
	}
	// A second tab takes a running gauntlet over: the first tab's stream
	// ends saying so, the second's plays on from the journal.
	other := `{"game":"colosseum","program":"student","board":"6","pairs":1}`
	first2 := post(t, ts, "/api/gauntlets", other, nil)
	firstSt := make(chan []progress.Status, 1)
	go func() { firstSt <- readGauntlet(t, first2, nil) }()
	second := readGauntlet(t, post(t, ts, "/api/gauntlets", other, nil), nil)
	took := <-firstSt
	if end := took[len(took)-1]; !strings.Contains(end.Error, "another gauntlet of this program") && !end.Done {
		t.Errorf("the first tab's stream ended with %+v", end)
	}
	if end := second[len(second)-1]; !end.Done || end.Played != end.Total {
		t.Errorf("the second tab's run ended with %+v", end)
	}
	// A gauntlet of other pairs for the same program takes its place too:
	// a program plays one gauntlet at a time, however many are asked.
	third := post(t, ts, "/api/gauntlets", `{"game":"colosseum","program":"student","pairs":2}`, nil)
	lines := bufio.NewScanner(third.Body)
	if !lines.Scan() { // it runs
		t.Fatalf("the gauntlet of 2 pairs said nothing: %d", third.StatusCode)
	}
	fourth := make(chan []progress.Status, 1)
	go func() {
		fourth <- readGauntlet(t, post(t, ts, "/api/gauntlets", `{"game":"colosseum","program":"student","pairs":3}`, nil), func(st progress.Status) bool { return st.Played > 0 })
	}()
	var end progress.Status
	for lines.Scan() {
		json.Unmarshal(lines.Bytes(), &end)
	}
	third.Body.Close()
	if !strings.Contains(end.Error, "another gauntlet of this program") {
		t.Errorf("a gauntlet of other pairs did not take the program's place: the first ended with %+v", end)
	}
	if got := <-fourth; len(got) == 0 || got[len(got)-1].Played == 0 {
		t.Errorf("the gauntlet that took the place played nothing: %+v", got)
	}
	for _, bad := range []string{`{"game":"colosseum","program":"student","pairs":0}`, `{"game":"colosseum","program":"student","pairs":100000}`, `{"game":"colosseum","program":"nobody","pairs":1}`} {
		if r := post(t, ts, "/api/gauntlets", bad, nil); r.StatusCode == http.StatusOK {
			t.Errorf("%s: accepted", bad)
		}
	}
}
