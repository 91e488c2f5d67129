package ladder

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/gobot"
)

// client speaks to a test server as a holder of a token.
type client struct {
	t     *testing.T
	base  string
	token string
}

func (c client) do(method, path string, body io.Reader, header map[string]string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// submit posts a file as the upload form does.
func (c client) submit(name string, data []byte, command string, header map[string]string) (int, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.WriteField("command", command)
	mw.Close()
	h := map[string]string{"Content-Type": mw.FormDataContentType()}
	for k, v := range header {
		h[k] = v
	}
	return c.do("POST", "/api/ladder/submit", &body, h)
}

// The API as students, the staff and workers use it: who may do what,
// cross-site requests refused, a result taken under its own lease only,
// a lease that ended given to the next worker, and no version taken once
// the ladder is frozen.
func TestServerAPI(t *testing.T) {
	st, tokens := newLadder(t, "alice", "bob", "carol") // carol submits nothing
	ts := httptest.NewServer((&Server{Store: st, Width: 100}).Handler())
	defer ts.Close()
	as := func(who string) client { return client{t, ts.URL, tokens[who]} }
	template, _ := gobot.Template("colosseum")

	if code, _ := (client{t, ts.URL, ""}).do("GET", "/api/ladder/standings", nil, nil); code != http.StatusUnauthorized {
		t.Errorf("the standings without a token: %d", code)
	}
	if code, body := as("alice").submit("bot.go", []byte(template), "", map[string]string{"Origin": "https://evil.example"}); code != http.StatusForbidden || !strings.Contains(body, "evil.example") {
		t.Errorf("a cross-site submission: %d %s", code, body)
	}
	if code, body := as("alice").submit("bot.go", []byte(template), "", map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusForbidden {
		t.Errorf("a cross-site submission (Sec-Fetch-Site): %d %s", code, body)
	}
	if code, body := as("staff").submit("bot.go", []byte(template), "", nil); code != http.StatusForbidden {
		t.Errorf("the staff's token submits: %d %s", code, body)
	}
	if code, body := as("alice").submit("../../etc/passwd.zip", []byte("PK"), "python3 x.py", nil); code != http.StatusBadRequest || !strings.Contains(body, "zip") {
		t.Errorf("a broken archive: %d %s", code, body)
	}
	code, body := as("alice").submit("C:\\Users\\alice\\bot.go", []byte(template), "", nil)
	var v Version
	if code != http.StatusOK || json.Unmarshal([]byte(body), &v) != nil || v.Student != "alice" || v.Number != 1 || v.State != Checking {
		t.Fatalf("alice's submission: %d %s", code, body)
	}
	as("bob").submit("bot.go", []byte(strings.Replace(template, "bestScore {", "bestScore+1 {", 1)), "", nil)

	// Students see their own page, the staff everyone's.
	if code, _ := as("alice").do("GET", "/api/ladder/students/bob", nil, nil); code != http.StatusForbidden {
		t.Errorf("alice reads bob's page: %d", code)
	}
	if code, _ := as("staff").do("GET", "/api/ladder/students/bob", nil, nil); code != http.StatusOK {
		t.Errorf("the staff read bob's page: %d", code)
	}
	if code, html := as("alice").do("GET", "/students/alice", nil, nil); code != http.StatusOK || !strings.Contains(html, "v1") {
		t.Errorf("alice's page: %d", code)
	}

	// A worker leases the check games; the first lease ends unused (a
	// worker killed), the game goes to the next worker, and a result
	// under the ended lease is refused.
	lease := func(worker string) *Work {
		code, body := as("worker").do("POST", "/api/ladder/lease", strings.NewReader(`{"worker":"`+worker+`"}`), nil)
		if code == http.StatusNoContent {
			return nil
		}
		var w Work
		if code != http.StatusOK || json.Unmarshal([]byte(body), &w) != nil {
			t.Fatalf("a lease: %d %.300s", code, body)
		}
		return &w
	}
	if code, _ := as("alice").do("POST", "/api/ladder/lease", strings.NewReader(`{}`), nil); code != http.StatusForbidden {
		t.Errorf("a student leases a game: %d", code)
	}
	first, err := st.TakeLease(context.Background(), "killed", -time.Millisecond) // ended as it began
	if err != nil || first == nil {
		t.Fatalf("the first lease: %v %v", first, err)
	}
	w := lease("second")
	if w == nil || w.ID != first.ID || w.Seats[0] == nil || w.Seats[0].Kind != "go" || w.Game != "colosseum" {
		t.Fatalf("the game of the ended lease went to %+v", w)
	}
	send := func(lease string, o Outcome) (int, string) {
		b, _ := json.Marshal(resultRequest{Lease: lease, Outcome: o})
		return as("worker").do("POST", "/api/ladder/result", bytes.NewReader(b), nil)
	}
	o := Player{Dir: t.TempDir()}.Play(context.Background(), w)
	if o.Failure != "" || o.Result == nil {
		t.Fatalf("the check game: %+v", o.Failure)
	}
	if code, body := send(first.Lease, o); code != http.StatusConflict {
		t.Errorf("a result under the ended lease: %d %s", code, body)
	}
	if code, body := send(w.Lease.Lease, o); code != http.StatusNoContent {
		t.Fatalf("the result under its lease: %d %s", code, body)
	}
	if code, _ := send(w.Lease.Lease, o); code != http.StatusConflict {
		t.Errorf("the same result twice: %d", code)
	}
	vs, _ := st.Versions(context.Background(), "alice")
	if vs[0].State != Ready {
		t.Errorf("alice v1 after its check game: %+v", vs[0])
	}

	// The replays: a student's own games only.
	games, _ := st.Games(context.Background(), CheckGame, "done")
	path := "/api/ladder/games/" + jsonInt(games[0].ID) + "/replay"
	if code, _ := as("bob").do("GET", path, nil, nil); code != http.StatusForbidden {
		t.Errorf("bob reads alice's check game: %d", code)
	}
	if code, _ := as("alice").do("GET", path, nil, nil); code != http.StatusOK {
		t.Errorf("alice reads her check game: %d", code)
	}

	// The deadline: the staff freeze the ladder once two versions are
	// ready; no version is taken after, and the final round robin is
	// played, its report and CSV the staff's.
	if code, _ := as("alice").do("POST", "/api/ladder/freeze", nil, nil); code != http.StatusForbidden {
		t.Errorf("a student freezes the ladder: %d", code)
	}
	if code, body := as("staff").do("POST", "/api/ladder/freeze", nil, nil); code != http.StatusBadRequest || !strings.Contains(body, "needs 2") {
		t.Errorf("a freeze with one version ready: %d %s", code, body)
	}
	play := func() int {
		n := 0
		for w := lease("w"); w != nil; w = lease("w") {
			o := Player{Dir: t.TempDir()}.Play(context.Background(), w)
			if code, body := send(w.Lease.Lease, o); code != http.StatusNoContent {
				t.Fatalf("game %d's result: %d %s", w.ID, code, body)
			}
			n++
			if w.Kind == CheckGame {
				break // the ladder's games would follow without end
			}
		}
		return n
	}
	play() // bob's check game
	if code, body := as("staff").do("POST", "/api/ladder/freeze", strings.NewReader(`{"rounds":2}`), nil); code != http.StatusNoContent {
		t.Fatalf("the staff freeze the ladder: %d %s", code, body)
	}
	if code, body := as("alice").submit("bot.go", []byte(template), "", nil); code != http.StatusBadRequest || !strings.Contains(body, "frozen") {
		t.Errorf("a submission after the freeze: %d %s", code, body)
	}
	// Before its games are played the final is refused, saying so.
	for _, path := range []string{"/api/ladder/final/csv", "/api/ladder/final/report"} {
		if code, body := as("staff").do("GET", path, nil, nil); code != http.StatusConflict || !strings.Contains(body, "4 of its 4 games are still to play (0 played)") {
			t.Errorf("%s before the final's games: %d %s", path, code, body)
		}
	}
	if n := play(); n != 4 {
		t.Errorf("the final played %d games, want 2 rounds of one pair in both seats", n)
	}
	if code, _ := as("alice").do("GET", "/api/ladder/final/csv", nil, nil); code != http.StatusForbidden {
		t.Errorf("a student reads the final's CSV: %d", code)
	}
	code, csv := as("staff").do("GET", "/api/ladder/final/csv", nil, nil)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if code != http.StatusOK || len(lines) != 4 || !strings.HasPrefix(lines[0], "rank,name,rating") || !strings.HasPrefix(lines[1], "1,") ||
		lines[3] != ",carol,,,,0,0,0,0,0,0,0,no version submitted" {
		t.Errorf("the final's CSV: %d\n%s", code, csv)
	}
	code, report := as("staff").do("GET", "/api/ladder/final/report", nil, nil)
	if code != http.StatusOK || !strings.Contains(report, "alice") || !strings.Contains(report, "/api/ladder/games/") ||
		!strings.Contains(report, "programs&#39; clocks: the CPU time each move used") {
		t.Errorf("the final's report: %d %.300s", code, report)
	}
	t.Logf("the final:\n%s", csv)
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// Uploads are bounded and their names checked before anything is kept.
func TestReadUpload(t *testing.T) {
	for _, c := range []struct {
		name, command string
		data          []byte
		want          string
	}{
		{"bot.py", "", []byte("x"), "want a .go file"},
		{"bot.go", "python3 bot.go", []byte("package bot"), "has no command"},
		{"big.go", "", make([]byte, MaxGoFile+1), "at most 1 MB"},
		{"huge.zip", "x", make([]byte, MaxUpload+1), "at most 16 MB"},
		{"a.zip", "python3 a.py", zipOf(t, "f", map[string][]byte{"a.py": nil}), ""},
		{"a.zip", "", zipOf(t, "f", map[string][]byte{"a.py": nil}), "needs its command"},
		{"a.zip", "python3 b.py", zipOf(t, "f", map[string][]byte{"a.py": nil}), "names none of the folder's files"},
		{"a.zip", "py:b.py", zipOf(t, "f", map[string][]byte{"a.py": nil}), "py:b.py: no such file"},
		{"a.zip", "python3 a.py", zipOf(t, "f", map[string][]byte{"../a.py": nil}), "no .."},
		{"a.zip", "python3 a.py", zipOf(t, "f", map[string][]byte{"a.py": nil, "x y.txt": nil}), "not ' '"},
		// A command names its own files alone: no path outside the
		// folder, no quotes that would split it otherwise at the worker.
		{"a.zip", "python3 a.py /srv/term/ladder.db", zipOf(t, "f", map[string][]byte{"a.py": nil}), `"/srv/term/ladder.db" names a path that is not a file of your folder`},
		{"a.zip", "python3 a.py ../../ladder.db-wal", zipOf(t, "f", map[string][]byte{"a.py": nil}), "names a path that is not a file"},
		{"a.zip", "python3 a.py ~/tokens.txt", zipOf(t, "f", map[string][]byte{"a.py": nil}), "names a path that is not a file"},
		{"a.zip", "python3 a.py --db=/srv/term/ladder.db", zipOf(t, "f", map[string][]byte{"a.py": nil}), "names a path that is not a file"},
		{"a.zip", `python3 a.py "/srv/term/ladder.db"`, zipOf(t, "f", map[string][]byte{"a.py": nil}), "plain words"},
		{"a.zip", "/usr/bin/python3 a.py", zipOf(t, "f", map[string][]byte{"a.py": nil}), "neither a file of your folder nor a runtime's name"},
		{"a.zip", "python3 a.py last 5", zipOf(t, "f", map[string][]byte{"a.py": nil}), ""},
		{"a.zip", "python3 lib/a.py", zipOf(t, "f", map[string][]byte{"lib/a.py": nil}), ""},
		{"a.zip", "./run.sh", zipOf(t, "f", map[string][]byte{"run.sh": nil}), ""},
	} {
		_, err := ReadUpload(c.name, c.data, c.command)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s %q: %v, want %q", c.name, c.command, err, c.want)
		}
	}
	// The runtimes a ladder allows: a command starts one of them by
	// name, or a file of its own.
	for _, c := range []struct{ command, want string }{
		{"python3 a.py", ""}, {"./a.py", ""}, {"py:a.py", ""}, {"cat a.py", `"cat" is neither a file of your upload nor a runtime this ladder allows (python3, java)`},
	} {
		u, err := ReadUpload("a.zip", zipOf(t, "f", map[string][]byte{"a.py": nil}), c.command)
		if err != nil {
			t.Fatalf("%q: %v", c.command, err)
		}
		err = u.CheckRuntime(Runtimes{"python3", "java"})
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%q: %v, want %q", c.command, err, c.want)
		}
	}
	// At the bounds: one file too many, and a tar that claims more than
	// it may unpack to (read no further than its header).
	many := map[string][]byte{}
	for i := range MaxFiles + 1 {
		many[fmt.Sprintf("f%d.py", i)] = nil
	}
	if _, err := ReadUpload("many.zip", zipOf(t, "d", many), "python3 f0.py"); err == nil || !strings.Contains(err.Error(), "more than 2000 files") {
		t.Errorf("2,001 files: %v", err)
	}
	var bomb bytes.Buffer
	tw := tar.NewWriter(&bomb)
	tw.WriteHeader(&tar.Header{Name: "a.py", Mode: 0o644, Size: MaxUnpacked + 1, Typeflag: tar.TypeReg})
	if _, err := ReadUpload("bomb.tar", bomb.Bytes(), "python3 a.py"); err == nil || !strings.Contains(err.Error(), "more than 64 MB") {
		t.Errorf("a file of 64 MB and a byte: %v", err)
	}
	// The same files give the same archive, and so the same digest.
	a, _ := ReadUpload("a.zip", zipOf(t, "f", map[string][]byte{"a.py": []byte("1"), "b.py": []byte("2")}), "python3 a.py")
	b, _ := ReadUpload("b.zip", zipOf(t, "g", map[string][]byte{"b.py": []byte("2"), "a.py": []byte("1")}), "python3 a.py")
	if a.Digest() != b.Digest() {
		t.Errorf("the same files, two digests: %s %s", a.Digest(), b.Digest())
	}
	dir := t.TempDir()
	if err := Unpack(a.Files, dir); err != nil {
		t.Fatal(err)
	}
}

// A server started again queues at once the games its own workers held
// when it stopped, and leaves other workers' leases to run their course.
func TestReleaseLeases(t *testing.T) {
	st, _ := newLadder(t, "alice")
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	ctx := context.Background()
	st.Submit(ctx, "alice", u)
	st.Submit(ctx, "alice", u)
	st.TakeLease(ctx, "local-1", time.Hour)
	st.TakeLease(ctx, "remote/1", time.Hour)
	if n, err := st.ReleaseLeases(ctx, "local-"); n != 1 || err != nil {
		t.Fatalf("released %d (%v), want the local worker's one", n, err)
	}
	queued, _ := st.Games(ctx, "", "queued")
	leased, _ := st.Games(ctx, "", "leased")
	if len(queued) != 1 || len(leased) != 1 || leased[0].Worker != "remote/1" {
		t.Errorf("queued %+v, leased %+v", queued, leased)
	}
}

// Over HTTPS the sign-in cookie is Secure, HttpOnly and SameSite=Strict,
// and tokens work as over loopback's HTTP.
func TestServerOverHTTPS(t *testing.T) {
	st, tokens := newLadder(t, "alice")
	ts := httptest.NewTLSServer((&Server{Store: st, Width: 100}).Handler())
	defer ts.Close()
	c := ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, _ := http.NewRequest("POST", ts.URL+"/signin", strings.NewReader("token="+tokens["alice"]))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", ts.URL)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie := res.Header.Get("Set-Cookie")
	for _, want := range []string{"arena_ladder=" + tokens["alice"], "Secure", "HttpOnly", "SameSite=Strict"} {
		if res.StatusCode != http.StatusSeeOther || !strings.Contains(cookie, want) {
			t.Errorf("signing in over HTTPS: %d, a cookie without %q: %s", res.StatusCode, want, cookie)
		}
	}
	req, _ = http.NewRequest("GET", ts.URL+"/api/ladder/standings", nil)
	req.Header.Set("Authorization", "Bearer "+tokens["staff"])
	if res, err := c.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("the standings over HTTPS: %v %v", res.Status, err)
	}
}

// The staff give one student's versions a clock factor: the workers play
// their games with it, and each game's replay keeps it.
func TestAccommodation(t *testing.T) {
	st, tokens := newLadder(t, "alice", "bob")
	ts := httptest.NewServer((&Server{Store: st, Width: 100}).Handler())
	defer ts.Close()
	as := func(who string) client { return client{t, ts.URL, tokens[who]} }
	for _, c := range []struct {
		who, body string
		want      int
	}{
		{"alice", `{"student":"alice","clock":3}`, http.StatusForbidden},
		{"staff", `{"student":"carol","clock":1.5}`, http.StatusBadRequest},
		{"staff", `{"student":"alice","clock":0.5}`, http.StatusBadRequest},
		{"staff", `{"student":"alice","clock":1.5}`, http.StatusNoContent},
	} {
		if code, body := as(c.who).do("POST", "/api/ladder/accommodations", strings.NewReader(c.body), nil); code != c.want {
			t.Errorf("%s sends %s: %d %s, want %d", c.who, c.body, code, body, c.want)
		}
	}
	template, _ := gobot.Template("colosseum")
	as("alice").submit("bot.go", []byte(template), "", nil)
	w, err := Local{Store: st, Name: "local-1", Width: 1e9, Queued: 1}.Next(context.Background())
	if err != nil || w == nil {
		t.Fatalf("alice's check game: %v", err)
	}
	if w.Seats[0].Clock != 1.5 {
		t.Errorf("alice's version is played with clock %g", w.Seats[0].Clock)
	}
	o := Player{Dir: t.TempDir()}.Play(context.Background(), w)
	if !strings.Contains(string(o.Replay), `"clock_factor": [1.5,0]`) || !strings.Contains(string(o.Replay), `"clock": "cpu"`) {
		t.Errorf("the replay does not keep alice's clock: %.400s", o.Replay)
	}
}

// A student's thirteenth version within the hour is refused with 429 and
// says the limit; one the store cannot keep is 503, to be sent again (it
// was 400, as if the student's file were wrong).
func TestSubmissionsPastTheHoursLimitAreRefused(t *testing.T) {
	st, tokens := newLadder(t, "alice")
	ts := httptest.NewServer((&Server{Store: st, Width: 100}).Handler())
	defer ts.Close()
	template, _ := gobot.Template("colosseum")
	alice := client{t, ts.URL, tokens["alice"]}
	for i := range MaxPerHour {
		if code, body := alice.submit("bot.go", []byte(template), "", nil); code != http.StatusOK {
			t.Fatalf("version %d: %d %s", i+1, code, body)
		}
	}
	if code, body := alice.submit("bot.go", []byte(template), "", nil); code != http.StatusTooManyRequests || !strings.Contains(body, "12 versions in the last hour: a student submits at most 12 an hour") {
		t.Errorf("version %d within the hour: %d %s", MaxPerHour+1, code, body)
	}

	// A course's ladder whose store fails while the course's tokens
	// still read: the submission is the store's failure, not alice's.
	broken, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	people, _ := st.People(context.Background())
	broken.Setup("colosseum", "6", []byte(`{}`))
	broken.EnterRoster(context.Background(), Roster(people))
	course := httptest.NewServer((&Course{Auth: st, Ladders: []*Server{{Store: broken, Name: "a1", Width: 100}}}).Handler())
	defer course.Close()
	broken.Close()
	if code, body := (client{t, course.URL + "/l/a1", tokens["alice"]}).submit("bot.go", []byte(template), "", nil); code != http.StatusServiceUnavailable || !strings.Contains(body, "send this again") {
		t.Errorf("a submission the store cannot keep: %d %s", code, body)
	}
}
