package page

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
)

// The programs the tests offer, as a student would: a Colosseum agent
// file written for the course's simulator (it prints its time each move,
// as the course's template does), an Evasion client started by arena, and
// a program that holds its seat until it is ended. token is in each
// command line, so that the tests can find what is left of them.
var (
	// testServe is how the tests' server plays the programs offered: with
	// the Python that has NumPy.
	testServe play.ServeOptions
	offerOnce sync.Once
	offerErr  error
	token     = fmt.Sprintf("arena-page-test-%d", os.Getpid())
)

func offerPrograms(t testing.TB) {
	t.Helper()
	py := pythonWith(t, "import numpy")
	testServe.Hosting.Python = py
	offerOnce.Do(func() {
		var ps []players.Program
		for _, arg := range []string{
			"colosseum/student=py:../cmd/arena/testdata/comp424/agents/student_agent.py",
			"evasion/client=tcp:cmd:" + py + " ../cmd/arena/testdata/students/evasion_client.py {port} buffered " + token,
			// The shell stays (no exec), so that the token stays in a
			// command line of the program's tree.
			"colosseum/hang=cmd:sh -c 'sleep 987653; :' " + token,
			"evasion/byhand=tcp::0",
			"evasion/crash=tcp:cmd:sh -c 'echo Traceback: ZeroDivisionError >&2; exit 3' " + token,
		} {
			p, err := players.ParseOffer(arg)
			if err != nil {
				offerErr = err
				return
			}
			ps = append(ps, p)
		}
		offerErr = players.Offer(ps...)
	})
	if offerErr != nil {
		t.Fatal(offerErr)
	}
}

// pythonWith finds a Python that runs check.
func pythonWith(t testing.TB, check string) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", check).Run() == nil {
			return p
		}
	}
	t.Fatalf("no python3 that can %q: make deps installs python3 and python3-numpy", check)
	return ""
}

// programServer serves the room of the offered programs (no page: these
// tests speak to the API as the page does).
func programServer(t *testing.T, token string) *httptest.Server {
	ts, _ := programServerRoom(t, token)
	return ts
}

func programServerRoom(t *testing.T, token string) (*httptest.Server, *programRoom) {
	t.Helper()
	offerPrograms(t)
	mux := http.NewServeMux()
	room := newProgramRoom(players.Offered(), token, testServe)
	room.routes(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts, room
}

// post sends a request as the page does, with headers to add or change.
func post(t *testing.T, ts *httptest.Server, path, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", ts.URL)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func startJSON(t *testing.T, game, p1, p2 string, seed uint64) string {
	t.Helper()
	g, err := match.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(match.DefaultConfig(g))
	b, _ := json.Marshal(play.Start{Game: game, Config: cfg, Seed: seed, Players: [2]string{p1, p2}})
	return string(b)
}

// readMatch reads a match's stream to its end and returns its messages.
func readMatch(t *testing.T, res *http.Response) []play.Message {
	t.Helper()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	var out []play.Message
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		m, err := play.DecodeMessage(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// A student's Colosseum agent, picked by name, plays through the server
// exactly as arena play plays its file: the same turns and result, and
// the lines it printed kept with each of its moves.
func TestServerPlaysAnOfferedProgram(t *testing.T) {
	ts := programServer(t, "")
	msgs := readMatch(t, post(t, ts, "/api/matches", startJSON(t, "colosseum", "served:student", "strong", 11), nil))
	last := msgs[len(msgs)-1]
	if last.Kind != play.MsgEnd {
		t.Fatalf("the stream ended with %+v", last)
	}
	g, _ := match.Lookup("colosseum")
	want, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 11,
		Players: [2]play.Spec{{Name: players.Agent, Command: "../cmd/arena/testdata/comp424/agents/student_agent.py"}, {Name: "strong"}}, Hosting: testServe.Hosting})
	if err != nil {
		t.Fatal(err)
	}
	if last.Result.String() != want.Result.String() || last.Turn != len(want.Turns) {
		t.Errorf("through the server: %s after %d turns; arena play: %s after %d", last.Result, last.Turn, want.Result, len(want.Turns))
	}
	said := 0
	for _, m := range msgs {
		if m.Kind == play.MsgTurn && m.Notes[match.P1] != nil && len(m.Notes[match.P1].Get().Said) > 0 {
			if !strings.HasPrefix(m.Notes[match.P1].Get().Said[0], "My AI's turn took") {
				t.Errorf("turn %d: the agent's print reads %q", m.Turn, m.Notes[match.P1].Get().Said)
			}
			said++
		}
	}
	if said == 0 {
		t.Errorf("none of the agent's prints reached the page's messages")
	}
	t.Logf("%s after %d turns; the agent's prints kept with %d moves", last.Result, last.Turn, said)
}

// A person plays against an offered program through the server: the
// match asks, the person's move posted to the match is played.
func TestServerTakesAPersonsMoves(t *testing.T) {
	ts := programServer(t, "")
	res := post(t, ts, "/api/matches", startJSON(t, "colosseum", "you", "served:student", 4), nil)
	defer res.Body.Close()
	id := res.Header.Get("X-Arena-Match")
	sc := bufio.NewScanner(res.Body)
	asked := 0
	for sc.Scan() {
		m, err := play.DecodeMessage(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == play.MsgError {
			t.Fatal(m.Error)
		}
		if m.Kind != play.MsgAsk {
			continue
		}
		if asked++; asked > 3 {
			break
		}
		// Stay where you are and build a wall on a side that has none.
		a := fmt.Sprintf(`{"turn":%d,"side":"P1","action":{"pos":[%d,%d],"dir":%d}}`, m.Turn, 0, 0, asked)
		if r := post(t, ts, "/api/matches/"+id+"/act", a, nil); r.StatusCode != http.StatusNoContent {
			body, _ := io.ReadAll(r.Body)
			t.Fatalf("act: %d %s", r.StatusCode, body)
		}
	}
	if asked < 2 {
		t.Fatalf("the person was asked %d times", asked)
	}
}

// Requests the page did not make are refused with a reason, and the
// server goes on serving.
func TestServerRefusesWhatThePageDidNotAsk(t *testing.T) {
	ts, room := programServerRoom(t, "")
	good := startJSON(t, "colosseum", "served:student", "random", 1)
	for _, c := range []struct {
		name, body string
		hdr        map[string]string
		status     int
		why        string
	}{
		{"another site's page", good, map[string]string{"Origin": "http://evil.example"}, 403, "a page from http://evil.example"},
		{"a rebound name", good, map[string]string{"Host": "evil.example:" + strings.Split(ts.URL, ":")[2]}, 403, "not to this server's address"},
		{"a cross-site fetch", good, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "another site"},
		{"a command", startJSON(t, "colosseum", "cmd:sh -c 'touch /tmp/pwned'", "random", 1), nil, 403, "runs only the programs named on its command line"},
		{"a network seat", startJSON(t, "evasion", "tcp::9", "random", 1), nil, 403, "runs only the programs named on its command line"},
		{"a program not offered", startJSON(t, "colosseum", "served:nobody", "random", 1), nil, 403, `no program named "nobody"`},
		{"a program of another game", startJSON(t, "evasion", "served:student", "random", 1), nil, 403, `no program named "student" plays evasion`},
		{"no program", startJSON(t, "colosseum", "strong", "random", 1), nil, 403, "plays only matches with a program it offers"},
		{"not JSON", "{{{", nil, 400, "not the JSON expected"},
		{"a field too many", `{"game":"colosseum","command":"sh"}`, nil, 400, "unknown field"},
		{"too big", `{"game":"` + strings.Repeat("x", maxStartBody) + `"}`, nil, 400, "larger than"},
	} {
		res := post(t, ts, "/api/matches", c.body, c.hdr)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || !strings.Contains(string(body), c.why) {
			t.Errorf("%s: %d %q, want %d with %q", c.name, res.StatusCode, body, c.status, c.why)
		}
	}
	if res := post(t, ts, "/api/matches/nosuch/act", `{"turn":0,"side":"P1","action":{}}`, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("an act for no match: %d", res.StatusCode)
	}
	if _, err := os.Stat("/tmp/pwned"); err == nil {
		t.Errorf("a command a request named was run")
	}
	// A flood of 1,000 requests within one second (the limiter's clock
	// held still): 200 served, the rest refused with the limit in words;
	// a second later the server serves again.
	var mu sync.Mutex
	now := time.Now()
	room.limit.mu.Lock()
	room.limit.tokens, room.limit.last = requestsPerSec, now
	room.limit.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	room.limit.mu.Unlock()
	statuses := map[int]int{}
	var why string
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			for range 50 {
				res, err := http.Get(ts.URL + "/api/programs")
				if err != nil {
					t.Error(err)
					return
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				mu.Lock()
				statuses[res.StatusCode]++
				if res.StatusCode == http.StatusTooManyRequests {
					why = string(body)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if statuses[200] != requestsPerSec || statuses[429] != 1000-requestsPerSec || !strings.Contains(why, "takes 200 a second") {
		t.Errorf("1,000 requests in a second: %v, %q", statuses, why)
	}
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	res, err := http.Get(ts.URL + "/api/programs")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"spec":"served:student"`)) {
		t.Errorf("a second after the flood: %d %s", res.StatusCode, body)
	}
	t.Logf("1,000 requests in a second: %v", statuses)
}

// On an address other machines reach, starting a program takes the
// token; listing them does not.
func TestServerWantsItsTokenWhenOthersCanReachIt(t *testing.T) {
	ts := programServer(t, "s3cret")
	start := startJSON(t, "colosseum", "served:student", "random", 1)
	if res := post(t, ts, "/api/matches", start, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("without the token: %d", res.StatusCode)
	}
	if res := post(t, ts, "/api/matches", start, map[string]string{"X-Arena-Token": "guess"}); res.StatusCode != http.StatusForbidden {
		t.Errorf("with a wrong token: %d", res.StatusCode)
	}
	msgs := readMatch(t, post(t, ts, "/api/matches", start, map[string]string{"X-Arena-Token": "s3cret"}))
	if last := msgs[len(msgs)-1]; last.Kind != play.MsgEnd {
		t.Errorf("with the token the match ends with %+v", last)
	}
}

// A closed tab ends its match's request: the program's process group is
// gone. A seat on a fixed port takes one match at a time.
func TestServerEndsTheProgramsOfAClosedTab(t *testing.T) {
	ts := programServer(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/matches", strings.NewReader(startJSON(t, "colosseum", "served:hang", "random", 1)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	awaitRunning(1, token, "987653")
	cancel()
	res.Body.Close()
	awaitRunning(0, token, "987653")

	// Two tabs on one program: two processes.
	var twice []*http.Response
	for range 2 {
		twice = append(twice, post(t, ts, "/api/matches", startJSON(t, "colosseum", "served:hang", "random", 1), nil))
	}
	awaitRunning(2, token, "987653")
	for _, r := range twice {
		r.Body.Close()
	}
	awaitRunning(0, token, "987653")

	// Two tabs on one hand-started client: the second is told.
	first := post(t, ts, "/api/matches", startJSON(t, "evasion", "served:byhand", "random", 1), nil)
	defer first.Body.Close()
	second := post(t, ts, "/api/matches", startJSON(t, "evasion", "served:byhand", "random", 1), nil)
	body, _ := io.ReadAll(second.Body)
	if second.StatusCode != http.StatusConflict || !strings.Contains(string(body), "byhand is playing in another match") {
		t.Errorf("a second match on the port: %d %q", second.StatusCode, body)
	}
}

// TestServerBoundsWhatItRuns: the server plays maxMatchesOnce matches
// with programs at once and refuses the next with the limit in words; a
// match with no program is not the server's to play and takes no place.
func TestServerBoundsWhatItRuns(t *testing.T) {
	ts := programServer(t, "")
	var held []*http.Response
	for range maxMatchesOnce {
		held = append(held, post(t, ts, "/api/matches", startJSON(t, "colosseum", "served:hang", "random", 1), nil))
	}
	awaitRunning(maxMatchesOnce, token, "987653")
	for _, c := range []struct {
		body   string
		status int
		why    string
	}{
		{startJSON(t, "colosseum", "served:hang", "random", 1), http.StatusServiceUnavailable, fmt.Sprintf("plays %d matches with programs at once", maxMatchesOnce)},
		{startJSON(t, "colosseum", "strong", "random", 1), http.StatusForbidden, "plays only matches with a program it offers"},
	} {
		res := post(t, ts, "/api/matches", c.body, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || !strings.Contains(string(body), c.why) {
			t.Errorf("with %d matches playing: %d %q, want %d with %q", maxMatchesOnce, res.StatusCode, body, c.status, c.why)
		}
	}
	if n := len(running(token, "987653")); n != maxMatchesOnce {
		t.Errorf("%d programs run; the limit is %d", n, maxMatchesOnce)
	}
	for _, r := range held {
		r.Body.Close()
	}
	awaitRunning(0, token, "987653")
}

// running lists the live processes whose command line holds every word
// and whose parent's does not: one a program, however its tree stands
// at the moment of looking. A shell that forks to run a command is, until
// the child executes, two processes with the shell's command line, and a
// launcher that watches its program (the portable path) is its parent:
// counting every process that matches would count one program twice.
// A process in the middle of execve has no command line for a moment
// (its new memory has no arguments yet) and would be counted as none:
// running looks again until no process is in that state.
func running(words ...string) []string {
	for {
		if out, settled := lookAtProcesses(words); settled {
			return out
		}
		time.Sleep(time.Millisecond)
	}
}

// lookAtProcesses is one look of running's, and whether no process was
// between two programs while it looked.
func lookAtProcesses(words []string) (out []string, settled bool) {
	cmdlines := map[string][]byte{}
	matches := func(pid string) bool {
		cmdline, ok := cmdlines[pid]
		if !ok {
			cmdline, _ = os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
			cmdlines[pid] = cmdline
		}
		all := len(cmdline) > 0
		for _, w := range words {
			all = all && bytes.Contains(cmdline, []byte(w))
		}
		return all
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid := e.Name()
		if _, err := strconv.Atoi(pid); err != nil {
			continue
		}
		ok := matches(pid)
		state, ppid := procStat(pid)
		switch {
		case state == "" || state == "Z" || state == "X":
			continue // gone, or going
		case len(cmdlines[pid]) == 0 && ppid != "0" && ppid != "2" && pid != "2":
			return nil, false // a user process executing another program
		case !ok || matches(ppid):
			continue
		}
		out = append(out, pid+" "+string(bytes.ReplaceAll(cmdlines[pid], []byte{0}, []byte{' '})))
	}
	return out, true
}

// procStat reads a process's state and its parent's PID from
// /proc/PID/stat (statOf), or "" for a process gone.
func procStat(pid string) (state, ppid string) {
	p, ok := statOf(filepath.Join("/proc", pid, "stat"))
	if !ok {
		return "", ""
	}
	return p.state, strconv.Itoa(p.ppid)
}

// BenchmarkProgramSession plays the same Evasion session of a student's
// client (the fall-2020 kind, in Python, started by arena: tcp:cmd:)
// against strong through the page's path (the server's /api/matches,
// its messages read and followed as the page follows them) and through
// arena play's (play.Play), in turn, three rounds each, and reports the
// median of the page's wall time over arena play's (x-cli) and what the
// page adds to each move on loopback.
func BenchmarkProgramSession(bm *testing.B) {
	offered := offeredForBench(bm) // sets testServe
	ts := httptest.NewServer((&Site{programs: offered, gauntletDir: bm.TempDir(), serve: testServe}).handler())
	bm.Cleanup(ts.Close)
	g, _ := match.Lookup("evasion")
	spec, _ := players.LookupOffered("evasion", "client")
	cfg, _ := json.Marshal(match.DefaultConfig(g))
	start, _ := json.Marshal(play.Start{Game: "evasion", Config: cfg, Seed: 7, Players: [2]string{"served:client", "strong"}})
	cli := func() (time.Duration, int) {
		t0 := time.Now()
		rec, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 7, Players: [2]play.Spec{spec.Spec, {Name: "strong"}}, Hosting: testServe.Hosting})
		if err != nil {
			bm.Fatal(err)
		}
		return time.Since(t0), len(rec.Turns)
	}
	page := func() (time.Duration, int) {
		t0 := time.Now()
		res, err := http.Post(ts.URL+"/api/matches", "application/json", bytes.NewReader(start))
		if err != nil {
			bm.Fatal(err)
		}
		defer res.Body.Close()
		setup, err := play.Start{Game: "evasion", Config: cfg, Seed: 7, Players: [2]string{"served:client", "strong"}}.Setup()
		if err != nil {
			bm.Fatal(err)
		}
		f, err := play.NewFollower(setup)
		if err != nil {
			bm.Fatal(err)
		}
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			m, err := play.DecodeMessage(sc.Bytes())
			if err == nil {
				err = f.Add(m)
			}
			if err != nil {
				bm.Fatal(err)
			}
		}
		rec := f.Record()
		if rec.Result == nil {
			bm.Fatal("the stream ended before the match")
		}
		return time.Since(t0), len(rec.Turns)
	}
	for bm.Loop() {
		var ratios, added []float64
		var turns int
		for range 3 {
			c, n := cli()
			p, m := page()
			if n != m {
				bm.Fatalf("arena play played %d turns, the page's path %d", n, m)
			}
			turns = n
			ratios = append(ratios, p.Seconds()/c.Seconds())
			added = append(added, float64((p-c).Microseconds())/float64(n))
		}
		bm.ReportMetric(median(ratios), "x-cli")
		bm.ReportMetric(median(added), "added-us/move")
		bm.ReportMetric(float64(turns), "turns")
	}
}

// offeredForBench offers the test programs and returns them.
func offeredForBench(tb testing.TB) []players.Program {
	offerPrograms(tb)
	return players.Offered()
}

// The server ended, by a signal or by kill -9, leaves none of its
// programs' processes.
func TestServerLeavesNoProgramWhenItEnds(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "arena-wasm")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/wasm").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []os.Signal{os.Interrupt, os.Kill} {
		word := fmt.Sprintf("9876%d", 50+len(sig.String())%10)
		cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-gauntlets", t.TempDir(), "-player", "colosseum/held=cmd:sh -c 'sleep "+word+"; :' "+token)
		cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var base string
		for base == "" && sc.Scan() {
			if _, after, ok := strings.Cut(sc.Text(), "the playground is on "); ok {
				base, _, _ = strings.Cut(after, ",")
			}
		}
		go io.Copy(io.Discard, stderr)
		if base == "" {
			t.Fatalf("the server did not say where it listens")
		}
		req, _ := http.NewRequest("POST", strings.TrimSuffix(base, "/")+"/api/matches", strings.NewReader(startJSON(t, "colosseum", "served:held", "random", 1)))
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("the match: %v %v", res, err)
		}
		awaitRunning(1, token, word)
		cmd.Process.Signal(sig)
		cmd.Wait()
		res.Body.Close()
		awaitRunning(0, token, word)
		t.Logf("%v: the server ended, and its program with it", sig)
	}
}

// awaitRunning waits until exactly n live processes' command lines hold
// every word (n = 0: until none does), looking again every few
// milliseconds; it is progress that ends the wait, not a time.
func awaitRunning(n int, words ...string) {
	for len(running(words...)) != n {
		time.Sleep(5 * time.Millisecond)
	}
}
