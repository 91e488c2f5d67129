package ladder

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// writeFile writes a test's file and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A roster as a course keeps it: arena's own columns with a team of two
// and two sections; Canvas's export (its Points Possible row skipped,
// SIS User ID as the id, its own ID kept for the import); Gradescope's
// (first and last names); a one-name-a-line file. Mistakes name the
// file and the line.
func TestRosterAsCoursesKeepIt(t *testing.T) {
	r, err := ReadRoster(writeFile(t, "roster.csv", "\ufeffid,name,email,section,team\ns1,Ada Lovelace,ada@uni.edu,A,\ns2,Alan Turing,alan@uni.edu,A,pair1\ns3,Grace Hopper,grace@uni.edu,B,pair1\ns4,Edsger Dijkstra,ed@uni.edu,B,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Entries(), " "); got != "s1 pair1 s4" {
		t.Errorf("entries %q, want s1 pair1 s4", got)
	}
	if r[1].Name != "Alan Turing" || r[1].Email != "alan@uni.edu" || r[1].Section != "A" || r[1].Team != "pair1" {
		t.Errorf("row 2 read as %+v", r[1])
	}
	canvas, err := ReadRoster(writeFile(t, "canvas.csv", "Student,ID,SIS User ID,SIS Login ID,Section,Ladder (12)\n    Points Possible,,,,,100\n\"Lovelace, Ada\",1001,s1,ada,CS101 A,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(canvas) != 1 || canvas[0].ID != "s1" || canvas[0].LMSID != "1001" || canvas[0].Login != "ada" || canvas[0].Section != "CS101 A" {
		t.Errorf("Canvas's export read as %+v", canvas)
	}
	gs, err := ReadRoster(writeFile(t, "gradescope.csv", "First Name,Last Name,SID,Email,Role,Sections\nAda,Lovelace,s1,ada@uni.edu,Student,A\n"))
	if err != nil || gs[0].Name != "Ada Lovelace" || gs[0].ID != "s1" {
		t.Errorf("Gradescope's roster read as %+v (%v)", gs, err)
	}
	names, err := ReadRoster(writeFile(t, "names.txt", "# the class\nalice\nbob\n"))
	if err != nil || len(names) != 2 || names[1].Entry() != "bob" {
		t.Errorf("one name a line read as %+v (%v)", names, err)
	}
	for _, c := range []struct{ text, want string }{
		{"name,email\nAda,ada@uni.edu\n", "bad.csv:1: no id column"},
		{"id,name\ns1,Ada\ns1,Alan\n", "bad.csv:3: id s1 is on line 2 already"},
		{"id,name\ns 1,Ada\n", `bad.csv:2: its id: "s 1"`},
		{"id,name,team\ns1,Ada,s2\ns2,Alan,\n", "team s2 is a student's id too"},
		{"alice\nalice\n", "bad.csv:2: alice is on line 1 already"},
	} {
		if _, err := ReadRoster(writeFile(t, "bad.csv", c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// courseLadder is a ladder of the CSV roster above, its tokens by id.
func courseLadder(t *testing.T) (*Store, map[string]string) {
	t.Helper()
	st, _ := newLadder(t)
	r, err := ReadRoster(writeFile(t, "roster.csv", "id,name,email,section,team\ns1,Ada Lovelace,ada@uni.edu,A,\ns2,Alan Turing,alan@uni.edu,A,pair1\ns3,Grace Hopper,grace@uni.edu,B,pair1\ns4,Edsger Dijkstra,ed@uni.edu,B,\nref,Reference bot,,staff,\n"))
	if err != nil {
		t.Fatal(err)
	}
	issued, err := st.IssueTokens(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]string{}
	for _, is := range issued {
		tokens[is.Name] = is.Token
	}
	return st, tokens
}

// A team's people each sign in for the team; one student's token issued
// again stops theirs alone.
func TestTeamsAndOneTokenAgain(t *testing.T) {
	st, tokens := courseLadder(t)
	ctx := context.Background()
	for _, id := range []string{"s2", "s3"} {
		who, err := st.Who(ctx, tokens[id])
		if err != nil || who.Student != "pair1" || who.Person != id {
			t.Errorf("%s's token names %+v (%v), want pair1", id, who, err)
		}
	}
	is, err := st.IssueToken(ctx, "s2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Who(ctx, tokens["s2"]); err != ErrNoToken {
		t.Errorf("s2's old token still works: %v", err)
	}
	if who, err := st.Who(ctx, is.Token); err != nil || who.Person != "s2" {
		t.Errorf("s2's new token names %+v (%v)", who, err)
	}
	for _, id := range []string{"s1", "s3", "s4", Staff, Worker} {
		if _, err := st.Who(ctx, tokens[id]); err != nil {
			t.Errorf("%s's token stopped working when s2's was issued again: %v", id, err)
		}
	}
	if _, err := st.IssueToken(ctx, "nobody"); err == nil {
		t.Error("a token issued for an id not on the roster")
	}
}

// A check game the host could not play (no Python for a py: agent, as
// with NumPy missing) refuses its version as the host's fault: the
// server's log says so in the operator's words, the student reads that
// the staff were told, and once the host is fixed the staff check it
// again, which counts against no one's hour.
func TestHostRefusalIsCheckedAgain(t *testing.T) {
	st, _ := newLadder(t, "bob")
	ctx := context.Background()
	var logged []string
	st.Log = func(s string) { logged = append(logged, s) }
	agent, err := os.ReadFile("../cmd/arena/testdata/comp424/agents/student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	u, err := ReadUpload("agent.zip", zipOf(t, "agent", map[string][]byte{"student_agent.py": agent}), "py:student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Submit(ctx, "bob", u)
	if err != nil {
		t.Fatal(err)
	}
	checkWith := func(python string) {
		t.Helper()
		l, err := st.TakeLease(ctx, "local-1", time.Hour)
		if err != nil || l == nil {
			t.Fatalf("no check game to play: %v", err)
		}
		w, err := st.Work(ctx, l)
		if err != nil {
			t.Fatal(err)
		}
		o := Player{Dir: filepath.Join(t.TempDir(), "programs"), Hosting: play.Hosting{Python: python}}.Play(ctx, w)
		if err := st.Finish(ctx, l.Lease, o); err != nil {
			t.Fatal(err)
		}
	}
	// A Python without NumPy: its site-packages left out (-S).
	noNumPy := filepath.Join(t.TempDir(), "python-without-numpy")
	os.WriteFile(noNumPy, []byte("#!/bin/sh\nexec "+pythonWith(t, "import numpy")+" -S \"$@\"\n"), 0o755)
	checkWith(noNumPy)
	vs, _ := st.Versions(ctx, "bob")
	if vs[0].State != Refused || vs[0].Cause != HostCause || !strings.Contains(vs[0].Reason, "NumPy is not installed") {
		t.Fatalf("a check on a host without NumPy left %+v", vs[0])
	}
	if _, err := st.Recheck(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	logged = nil
	checkWith(filepath.Join(t.TempDir(), "no-python-here"))
	vs, _ = st.Versions(ctx, "bob")
	if vs[0].State != Refused || vs[0].Cause != HostCause || !strings.Contains(vs[0].Reason, "no Python") {
		t.Fatalf("a check the host could not play left %+v", vs[0])
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "could not check bob v1") || !strings.Contains(logged[0], "no Python") {
		t.Errorf("the server's log says %q", logged)
	}
	p, err := st.StudentPage(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if p.Versions[0].Reason != HostReason || strings.Contains(p.Games[0].Reason, "Python") {
		t.Errorf("bob's page says %q and %q, not that the staff were told", p.Versions[0].Reason, p.Games[0].Reason)
	}
	if _, err := st.Recheck(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recheck(ctx, v.ID); !errors.Is(err, ErrNotRefused) {
		t.Errorf("a version being checked was checked again: %v", err)
	}
	checkWith(pythonWith(t, "import numpy"))
	vs, _ = st.Versions(ctx, "bob")
	if vs[0].State != Ready || vs[0].Reason != "" {
		t.Errorf("checked again with Python, bob v1 is %s: %s", vs[0].State, vs[0].Reason)
	}
	if len(vs) != 1 {
		t.Errorf("a re-check made a new version: %+v", vs)
	}
	// The check's replay keeps each move's thinking time.
	checks, _ := st.Games(ctx, CheckGame, "done")
	data, err := st.Replay(ctx, checks[len(checks)-1].ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.LoadReplay("check.json", data)
	if err != nil {
		t.Fatal(err)
	}
	thought := time.Duration(0)
	for _, turn := range rec.Turns {
		thought += turn.Think[match.P1]
	}
	if thought <= 0 {
		t.Errorf("the check's replay keeps no thinking time of bob's agent")
	}
}

// The deadline keeps itself: before it and in its grace a version is
// taken; after, none is, and the ladder freezes and queues its final
// with no one at the keyboard. The test waits for the freeze, however
// long the machine takes to get there.
func TestDeadlineFreezesTheLadderItself(t *testing.T) {
	st, _ := newLadder(t, "alice", "bob")
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, err := ReadUpload("bot.go", []byte(template), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"alice", "bob"} {
		if _, err := st.Submit(ctx, n, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st) // its check
	}
	at := time.Now().Add(-time.Second) // passed, but within the grace
	if err := st.SetDeadline(Deadline{At: at, Grace: 3 * time.Second, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Submit(ctx, "alice", u); err != nil {
		t.Errorf("a version in the grace period was refused: %v", err)
	}
	finishNext(t, st)
	keep, stop := context.WithCancel(ctx)
	defer stop()
	frozen := make(chan struct{})
	var said []string
	go st.KeepDeadline(keep, func(s string) { said = append(said, s) }, func() { close(frozen) })
	<-frozen
	if _, err := st.Submit(ctx, "bob", u); !errors.Is(err, ErrFrozen) {
		t.Errorf("a version after the deadline: %v", err)
	}
	finals, err := st.Games(ctx, FinalGame, "queued")
	if err != nil || len(finals) != 2 {
		t.Errorf("the final queued %d games (%v), want 2 (one round, both seats)", len(finals), err)
	}
	if len(said) != 1 || !strings.Contains(said[0], "submissions are closed") {
		t.Errorf("the server's log says %q", said)
	}
	if err := st.SetDeadline(Deadline{At: at, Grace: -time.Second}); err == nil {
		t.Error("a negative grace period was taken")
	}
}

func TestGradeRules(t *testing.T) {
	f := Figures{"points": 15, "games": 20, "wins": 12, "draws": 6, "losses": 2, "rank": 4, "entrants": 10, "rating": 120, "panel_points": 3, "panel_games": 4}
	for _, c := range []struct {
		rule string
		want float64
	}{
		{"", 75},
		{"points/games*100", 75},
		{"panel_points / panel_games * 60 + (1 - (rank-1)/entrants) * 40", 45 + 28},
		{"min(100, max(0, 50 + rating/10))", 62},
		{"-rank", 0},             // never below 0
		{"points/(games-20)", 0}, // a division by zero is 0
		{"rank:1-3=100,4-10=90,*=70", 90},
		{"rank:1=100,*=70", 70},
	} {
		r, err := ParseGradeRule(c.rule)
		if err != nil {
			t.Errorf("%q: %v", c.rule, err)
			continue
		}
		if got := r.Grade(f); got != c.want {
			t.Errorf("%q: %v, want %v", c.rule, got, c.want)
		}
	}
	for _, c := range []struct{ rule, want string }{
		{"points/gmaes", "at character 8: want one of points"},
		{"points/games*", "at character 14: want a number"},
		{"(points", "want ')'"},
		{"points games", "want an operator or the end"},
		{"rank:1-3=A", `rank band "1-3=A"`},
		{"rank:3-1=100", `rank band "3-1=100": want ranks`},
		{strings.Repeat("(", 60) + "1" + strings.Repeat(")", 60), "fewer parentheses"},
	} {
		if _, err := ParseGradeRule(c.rule); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.rule, err, c.want)
		}
	}
}

// playFinal freezes the ladder and plays its final: the version with
// the lower id wins each game (a stronger version, in the test's
// world), so entries rank in the order they first submitted.
func playFinal(t *testing.T, st *Store, rounds int) {
	t.Helper()
	ctx := context.Background()
	if err := st.Freeze(ctx, rounds); err != nil {
		t.Fatal(err)
	}
	for {
		l, err := st.TakeLease(ctx, "test", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if l == nil {
			return
		}
		w := match.P1
		if l.Seats[1] < l.Seats[0] {
			w = match.P2
		}
		if err := st.Finish(ctx, l.Lease, Outcome{Result: &play.Result{Outcome: match.Outcome{Winner: w}, Turns: 1}}); err != nil {
			t.Fatal(err)
		}
	}
}

// Every export, read back as the grade book would read it: every roster
// student a row, a team's people their team's mark, the reference panel
// graded by no one, an absent student 0 with the reason, matched on the
// ids each format matches on.
func TestExportsReadBack(t *testing.T) {
	st, _ := courseLadder(t)
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, err := ReadUpload("bot.go", []byte(template), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"ref", "s1", "pair1"} { // s4 never submits
		if _, err := st.Submit(ctx, e, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	if _, err := st.Grades(ctx, GradeOptions{}); !errors.Is(err, ErrFinalUnplayed) {
		t.Errorf("grades before the final: %v", err)
	}
	playFinal(t, st, 1)
	rule, _ := ParseGradeRule("points/games*100")
	sheet, err := st.Grades(ctx, GradeOptions{Rule: rule, Max: 100, Panel: []string{"ref"}})
	if err != nil {
		t.Fatal(err)
	}
	// ref beats everyone, s1 beats pair1: s1 has 2 of 4 points, pair1 0.
	want := map[string]float64{"s1": 50, "s2": 0, "s3": 0, "s4": 0}
	if len(sheet.Rows) != 4 || !sheet.Complete {
		t.Fatalf("the sheet has %d rows (complete %v), want 4: %+v", len(sheet.Rows), sheet.Complete, sheet.Rows)
	}
	for _, r := range sheet.Rows {
		if r.Grade != want[r.ID] {
			t.Errorf("%s's grade %v, want %v", r.ID, r.Grade, want[r.ID])
		}
	}
	if r := sheet.Rows[0]; r.ID != "s1" || r.Rank != 1 || r.PanelGames != 2 || r.PanelPoints != 0 {
		t.Errorf("s1's row: %+v", r)
	}
	if r := sheet.Rows[3]; r.ID != "s4" || r.Rank != 0 || r.Note != "no version submitted" {
		t.Errorf("s4's row: %+v", r)
	}
	export := func(format string) []byte {
		var b bytes.Buffer
		if err := WriteExport(&b, sheet, format, "Ladder (12)"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	readCSV := func(data []byte) [][]string {
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	// Canvas: the header its import reads, the Points Possible row, and
	// a student a row matched on SIS User ID.
	canvas := readCSV(export("canvas"))
	if strings.Join(canvas[0], "|") != "Student|ID|SIS User ID|SIS Login ID|Section|Ladder (12)" || strings.TrimSpace(canvas[1][0]) != "Points Possible" || canvas[1][5] != "100" {
		t.Errorf("Canvas's header: %q %q", canvas[0], canvas[1])
	}
	if len(canvas) != 6 || canvas[2][0] != "Lovelace, Ada" || canvas[2][2] != "s1" || canvas[2][4] != "A" || canvas[2][5] != "50" {
		t.Errorf("Canvas's rows: %q", canvas)
	}
	// Moodle: an identifier column to map from (ID number or Email
	// address), the grade, its feedback.
	moodle := readCSV(export("moodle"))
	if strings.Join(moodle[0], "|") != "ID number|Email address|Full name|Ladder (12)|Ladder (12) (feedback)" || len(moodle) != 5 {
		t.Errorf("Moodle's export: %q", moodle)
	}
	if moodle[3][0] != "s3" || moodle[3][1] != "grace@uni.edu" || moodle[3][3] != "0" || !strings.Contains(moodle[3][4], "rank 2 of 2") {
		t.Errorf("Moodle's row for s3: %q", moodle[3])
	}
	// The CSV: every figure, and whether the sheet is complete.
	all := readCSV(export("csv"))
	if all[0][0] != "id" || all[0][15] != "grade" || all[4][0] != "s4" || all[4][19] != "no version submitted" || all[1][18] != "true" {
		t.Errorf("the CSV: %q", all)
	}
	// Gradescope: a results.json a student, as its autograder reads it.
	data := export("gradescope")
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 4 {
		t.Errorf("the zip has %d files, want 4", len(zr.File))
	}
	for _, f := range zr.File {
		if f.Name != "s1/results.json" {
			continue
		}
		rc, _ := f.Open()
		raw, _ := io.ReadAll(rc)
		var res struct {
			Score *float64 `json:"score"`
			Tests []struct {
				Score, MaxScore *float64
				Name            string
			} `json:"tests"`
			Leaderboard []struct {
				Name  string
				Value float64
				Order string
			} `json:"leaderboard"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		var tests []map[string]any
		json.Unmarshal(mustField(t, raw, "tests"), &tests)
		if res.Score == nil || *res.Score != 50 || len(tests) == 0 || tests[0]["max_score"] != 100.0 || tests[0]["visibility"] != "visible" || len(res.Leaderboard) == 0 || res.Leaderboard[0].Order != "desc" {
			t.Errorf("s1's results.json: %s", raw)
		}
	}
}

// mustField is a JSON object's field, raw.
func mustField(t *testing.T, raw []byte, name string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

// A leaderboard students are kind to: pseudonyms (chosen, or a stable
// "classmate" name), the top rows and the three just ahead; the staff
// see everything.
func TestLeaderboardViews(t *testing.T) {
	st := &Standings{}
	entries := map[string]EntryInfo{}
	for i, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		st.Ranked = append(st.Ranked, Row{Name: n, Rank: i + 1})
		entries[n] = EntryInfo{Name: n, Display: strings.ToUpper(n), Section: "A"}
	}
	entries["b"] = EntryInfo{Name: "b", Display: "B", Pseudonym: "Bobcat"}
	me := Identity{Role: Student, Student: "g"}
	v := st.View(me, entries, true, 2)
	var shown []string
	for _, r := range v.Ranked {
		shown = append(shown, r.Shown)
	}
	if got := strings.Join(shown, ","); !strings.HasPrefix(got, "classmate ") || !strings.Contains(got, ",Bobcat,classmate ") || !strings.HasSuffix(got, ",G") || len(v.Ranked) != 6 || v.Hidden != 2 {
		t.Errorf("g sees %q (%d hidden), want the top 2, the three ahead of g and g", got, v.Hidden)
	}
	if again := st.View(me, entries, true, 2); again.Ranked[0].Shown != v.Ranked[0].Shown {
		t.Error("a classmate's pseudonym changed between two views")
	}
	staff := st.View(Identity{Role: Staff}, entries, true, 2)
	if len(staff.Ranked) != 8 || staff.Ranked[1].Shown != "B" || staff.Ranked[0].Section != "A" {
		t.Errorf("the staff see %+v", staff.Ranked)
	}
}

func TestCountdownsAndAges(t *testing.T) {
	for _, c := range []struct {
		d          time.Duration
		until, ago string
	}{
		{0, "now", "just now"},
		{42 * time.Second, "in 00:00:42", "42 s ago"},
		{3*time.Hour + 4*time.Minute + 5*time.Second, "in 03:04:05", "3 h ago"},
		{9*24*time.Hour + 5*time.Hour, "in 9 d 05:00:00", "9 d ago"},
	} {
		if got := untilText(c.d); got != c.until {
			t.Errorf("untilText(%v) = %q, want %q", c.d, got, c.until)
		}
		if got := agoText(c.d); got != c.ago {
			t.Errorf("agoText(%v) = %q, want %q", c.d, got, c.ago)
		}
	}
}

// A note can quote what a student's program printed: no cell of an
// export starts a spreadsheet's formula.
func TestExportCellsAreNotFormulas(t *testing.T) {
	sheet := &GradeSheet{Rule: "points/games*100", Max: 100, Rows: []GradeRow{{Person: Person{ID: "s1", Name: "=HYPERLINK(\"http://x\")", Email: "+1@x"}, Note: "@SUM(A1)"}}}
	for _, format := range []string{"csv", "canvas", "moodle"} {
		var b bytes.Buffer
		if err := WriteExport(&b, sheet, format, ""); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
					t.Errorf("%s: a cell %q would be a formula", format, cell)
				}
			}
		}
	}
}

// A leaderboard of pseudonyms over HTTP: a student picks theirs on their
// page, a classmate sees it and not their name, the board shows the top
// row and the three ahead of the reader, and the staff see names.
func TestPseudonymsOverHTTP(t *testing.T) {
	st, tokens := courseLadder(t)
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	for _, e := range []string{"s1", "pair1", "s4", "ref"} {
		if _, err := st.Submit(ctx, e, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	playSome(t, st, 40, rand.New(rand.NewPCG(3, 4)))
	ts := httptest.NewServer((&Server{Store: st, Width: 1e9, Pseudonyms: true, Top: 1}).Handler())
	defer ts.Close()
	as := func(who string) client { return client{t: t, base: ts.URL, token: tokens[who]} }
	if code, body := as("s1").do("POST", "/api/ladder/pseudonym", strings.NewReader(`{"pseudonym": "Analytical Engine"}`), map[string]string{"Content-Type": "application/json"}); code != http.StatusNoContent {
		t.Fatalf("choosing a pseudonym: %d %s", code, body)
	}
	if code, body := as("s4").do("POST", "/api/ladder/pseudonym", strings.NewReader(`{"pseudonym": "Analytical Engine"}`), map[string]string{"Content-Type": "application/json"}); code != http.StatusBadRequest || !strings.Contains(body, "another student's") {
		t.Errorf("a pseudonym taken twice: %d %s", code, body)
	}
	if code, _ := as("s4").do("POST", "/api/ladder/pseudonym", strings.NewReader(`{"pseudonym": "<script>"}`), map[string]string{"Content-Type": "application/json"}); code != http.StatusBadRequest {
		t.Errorf("a pseudonym of markup: %d", code)
	}
	board, err := st.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The second's reader sees the first (the top 1), their own row, and
	// not the two below.
	second := board.Ranked[1].Name
	reader := map[string]string{"s1": "s1", "pair1": "s2", "s4": "s4", "ref": "ref"}[second]
	_, page := as(reader).do("GET", "/", nil, nil)
	names := map[string]string{"s1": "Ada Lovelace", "pair1": "pair1", "s4": "Edsger Dijkstra", "ref": "Reference bot"}
	shown := func(name string) bool {
		return regexp.MustCompile(`>\s*` + regexp.QuoteMeta(name) + `\s*<`).MatchString(page)
	}
	for _, row := range board.Ranked {
		if row.Name != second && shown(names[row.Name]) {
			t.Errorf("%s's leaderboard names %s:\n%s", reader, names[row.Name], page)
		}
	}
	if !shown(names[second]) || !strings.Contains(page, "2 other entries not shown") {
		t.Errorf("%s's leaderboard: not their own row, or not the two below left out:\n%s", reader, page)
	}
	if first := board.Ranked[0].Name; first == "s1" && !strings.Contains(page, "Analytical Engine") {
		t.Errorf("%s's leaderboard does not show s1's pseudonym:\n%s", reader, page)
	}
	_, staff := as(Staff).do("GET", "/", nil, nil)
	for _, want := range []string{"Ada Lovelace", "Edsger Dijkstra", "Reference bot"} {
		if !strings.Contains(staff, want) {
			t.Errorf("the staff's leaderboard has no %q", want)
		}
	}
	// Opponents on a student's page are pseudonyms too.
	_, mine := as("s4").do("GET", "/students/s4", nil, nil)
	if strings.Contains(mine, "Ada Lovelace") || !strings.Contains(mine, "Analytical Engine v1") {
		t.Errorf("s4's page names s1 by name, or not by pseudonym")
	}
}

// The leaderboard reads the scheduler's results kept in memory, not
// every game: its figures are those of every game read afresh, forfeits
// included, as games come in and after the store is opened again.
func TestStandingsKeepUpWithTheGames(t *testing.T) {
	st, _ := courseLadder(t)
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	for _, e := range []string{"s1", "pair1", "s4"} {
		if _, err := st.Submit(ctx, e, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	r := rand.New(rand.NewPCG(9, 9))
	check := func(when string) {
		t.Helper()
		got, err := st.makeStandings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sn, err := st.read(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if got.Played != len(sn.games) {
			t.Errorf("%s: %d games played, read afresh %d", when, got.Played, len(sn.games))
		}
		for _, row := range got.Ranked {
			g, w, d, l, f := sn.tally(row.id)
			if row.Games != g || row.Wins != w || row.Draws != d || row.Losses != l || row.Forfeits != f {
				t.Errorf("%s: %s %d %d-%d-%d %d forfeits, read afresh %d %d-%d-%d %d", when, row.Name, row.Games, row.Wins, row.Draws, row.Losses, row.Forfeits, g, w, d, l, f)
			}
			if f == 0 && when == "after 60 games" {
				t.Errorf("%s: %s has no forfeit to count", when, row.Name)
			}
		}
	}
	check("before any game")
	for range 60 {
		if _, err := st.Schedule(ctx, 1, 4); err != nil {
			t.Fatal(err)
		}
		l, _ := st.TakeLease(ctx, "term", time.Hour)
		w := []match.Side{match.P1, match.P2, match.NoSide}[r.IntN(3)]
		res := &play.Result{Outcome: match.Outcome{Winner: w}, Turns: 10}
		if w != match.NoSide && r.IntN(2) == 0 {
			res.Forfeits = []play.Forfeit{{Side: 1 - w, Turn: 3, Reason: "no answer"}}
		}
		if err := st.Finish(ctx, l.Lease, Outcome{Result: res}); err != nil {
			t.Fatal(err)
		}
	}
	check("after 60 games")
	again, err := Open(st.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	st = again
	check("opened again")
}

// A worker whose folder's path holds a space plays a program's command
// as its words, not a string split again: the program starts, and its
// own words are its reason.
func TestWorkerFolderWithASpace(t *testing.T) {
	st, _ := newLadder(t, "carol")
	ctx := context.Background()
	u, err := ReadUpload("crash.zip", zipOf(t, "crash", map[string][]byte{"crash.py": []byte("import sys\nsys.exit('carol gives up')\n")}), "python3 crash.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Submit(ctx, "carol", u); err != nil {
		t.Fatal(err)
	}
	l, err := st.TakeLease(ctx, "local-1", time.Hour)
	if err != nil || l == nil {
		t.Fatalf("no check game: %v", err)
	}
	w, err := st.Work(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	o := Player{Dir: filepath.Join(t.TempDir(), "my programs")}.Play(ctx, w)
	if err := st.Finish(ctx, l.Lease, o); err != nil {
		t.Fatal(err)
	}
	vs, _ := st.Versions(ctx, "carol")
	if vs[0].State != Refused || !strings.Contains(vs[0].Reason, "carol gives up") {
		t.Errorf("carol v1 is %s: %s", vs[0].State, vs[0].Reason)
	}
}
