//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/ladder"
)

// slowBot is the Colosseum template thinking a while on every move, so
// that a game lasts long enough for a worker to be killed in it.
func slowBot(t *testing.T, dir, name string) string {
	t.Helper()
	src, _ := gobot.Template("colosseum")
	src = strings.Replace(src, "import (\n", "import (\n\t\"time\"\n", 1)
	src = strings.Replace(src, "\ts := t.State.(colosseum.State)\n", "\tfor end := time.Now().Add(120 * time.Millisecond); time.Now().Before(end); {\n\t}\n\ts := t.State.(colosseum.State)\n", 1)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ladderProcess starts this test binary as arena, in a process group of
// its own, and returns it with its first line of output.
func ladderProcess(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	self, _ := os.Executable()
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(lockedBuffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	// A test that fails shows what each of its arenas said: a worker's
	// log says why a game stalled.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("arena %s said:\n%s", strings.Join(args, " "), stderr.String())
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Wait()
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	go func() { bufio.NewReader(out).WriteTo(new(bytes.Buffer)) }()
	return cmd, line
}

// lockedBuffer is a process's output, read while it is written.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ladderTokens writes a roster of names in dir and runs arena ladder
// tokens for a ladder in dir/ladder: it returns the roster's path, the
// ladder's and the tokens printed, by name (staff and worker too).
func ladderTokens(t *testing.T, dir string, names ...string) (roster, db string, tokens map[string]string) {
	t.Helper()
	roster, db = filepath.Join(dir, "roster.txt"), filepath.Join(dir, "ladder")
	os.WriteFile(roster, []byte(strings.Join(names, "\n")+"\n"), 0o644)
	var out bytes.Buffer
	if err := run([]string{"ladder", "tokens", "-dir", db, "-roster", roster}, &out, &out); err != 0 {
		t.Fatalf("arena ladder tokens: %s", out.String())
	}
	tokens = map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		name, tok, _ := strings.Cut(l, " ")
		tokens[name] = tok
	}
	if len(tokens) != len(names)+2 {
		t.Fatalf("arena ladder tokens printed:\n%s", out.String())
	}
	return roster, db, tokens
}

// kill9 kills an arena and its group, as kill -9 does, and waits for it.
func kill9(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
}

// waitGames polls the ladder's database until cond holds. It waits as long
// as the test may run, not a fixed time: on a loaded machine the students'
// go: bots compile for minutes (CI beside two busy cores took over five).
// A ladder that stalls still fails the test, saying what it holds, before
// go test's timeout would end the run with a dump of its goroutines.
func waitGames(t *testing.T, st *ladder.Store, what string, cond func([]ladder.Game) bool) []ladder.Game {
	t.Helper()
	guard := time.Now().Add(time.Hour)
	if d, ok := t.Deadline(); ok {
		guard = d.Add(-30 * time.Second)
	}
	for {
		games, err := st.Games(context.Background(), "", "")
		if err == nil && cond(games) {
			return games
		}
		if time.Now().After(guard) {
			states := make([]string, len(games))
			for i, g := range games {
				states[i] = g.Kind + " " + g.State + " " + g.Worker
			}
			t.Fatalf("%s: not by the test's deadline (%d games: %s; %v)", what, len(games), strings.Join(states, ", "), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func count(games []ladder.Game, f func(ladder.Game) bool) int {
	n := 0
	for _, g := range games {
		if f(g) {
			n++
		}
	}
	return n
}

// The ladder survives kill -9: a worker killed in a game leaves it to
// another worker once its lease ends, and the server killed and started
// again has every version and every finished game, and plays on. The
// workers take -containment weak, as the other tests' tournaments do, so
// that the portable path's pass of make test runs it too.
func TestLadderSurvivesKill9(t *testing.T) {
	dir := t.TempDir()
	roster, db, tokens := ladderTokens(t, dir, "alice", "bob")
	var out bytes.Buffer
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := []string{"ladder", "serve", "-game", "colosseum", "-preset", "6", "-dir", db, "-roster", roster, "-addr", addr, "-lease", "2s", "-width", "1"}
	server, said := ladderProcess(t, serve...)
	if !strings.Contains(said, "serving http://"+addr) {
		t.Fatalf("arena ladder serve said %q", said)
	}
	url := "http://" + addr
	for _, who := range []string{"alice", "bob"} {
		out.Reset()
		if code := run([]string{"ladder", "submit", "-server", url, "-token", tokens[who], slowBot(t, dir, who+".go")}, &out, &out); code != 0 {
			t.Fatalf("%s's submission: %s", who, out.String())
		}
	}
	st, err := ladder.Open(db) // read beside the server, as SQLite's WAL lets
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// A worker killed in a game.
	a, _ := ladderProcess(t, "ladder", "work", "-server", url, "-token", tokens["worker"], "-name", "A", "-dir", filepath.Join(dir, "a"), "-containment", "weak")
	games := waitGames(t, st, "worker A leases a game", func(gs []ladder.Game) bool {
		return count(gs, func(g ladder.Game) bool { return g.State == "leased" && g.Worker == "A/1" }) > 0
	})
	var cut ladder.Game
	for _, g := range games {
		if g.State == "leased" {
			cut = g
		}
	}
	kill9(a)
	ladderProcess(t, "ladder", "work", "-server", url, "-token", tokens["worker"], "-name", "B", "-dir", filepath.Join(dir, "b"), "-containment", "weak")
	waitGames(t, st, "worker B plays the game A was killed in", func(gs []ladder.Game) bool {
		return count(gs, func(g ladder.Game) bool { return g.ID == cut.ID && g.State == "done" && g.Worker == "B/1" }) == 1
	})
	games = waitGames(t, st, "ladder games are played", func(gs []ladder.Game) bool {
		return count(gs, func(g ladder.Game) bool { return g.Kind == ladder.LadderGame && g.State == "done" }) >= 2
	})

	// The server killed mid-game, and started again.
	kill9(server)
	before := count(games, func(g ladder.Game) bool { return g.State == "done" })
	versions, _ := st.Versions(context.Background(), "")
	ladderProcess(t, serve...)
	games = waitGames(t, st, "the restarted ladder plays on", func(gs []ladder.Game) bool {
		return count(gs, func(g ladder.Game) bool { return g.State == "done" }) > before+1
	})
	again, _ := st.Versions(context.Background(), "")
	if len(again) != len(versions) || len(versions) != 2 {
		t.Errorf("versions before the kill %d, after %d", len(versions), len(again))
	}

	// The deadline: frozen, the final round robin played, its report
	// and CSV written.
	out.Reset()
	if code := run([]string{"ladder", "freeze", "-server", url, "-token", tokens["staff"], "-rounds", "1"}, &out, &out); code != 0 {
		t.Fatalf("arena ladder freeze: %s", out.String())
	}
	waitGames(t, st, "the final round robin is played", func(gs []ladder.Game) bool {
		return count(gs, func(g ladder.Game) bool { return g.Kind == ladder.FinalGame && g.State == "done" }) == 2
	})
	report, grades := filepath.Join(dir, "final.html"), filepath.Join(dir, "grades.csv")
	out.Reset()
	if code := run([]string{"ladder", "final", "-server", url, "-token", tokens["staff"], "-o", report, "-csv", grades}, &out, &out); code != 0 {
		t.Fatalf("arena ladder final: %s", out.String())
	}
	csv, _ := os.ReadFile(grades)
	html, _ := os.ReadFile(report)
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 3 || !strings.Contains(string(html), "alice") {
		t.Errorf("the final's CSV:\n%s\nits report: %d bytes", csv, len(html))
	}
	// The grades for Moodle, by rank bands.
	moodle := filepath.Join(dir, "moodle.csv")
	out.Reset()
	if code := run([]string{"ladder", "export", "-server", url, "-token", tokens["staff"], "-format", "moodle", "-grade", "rank:1=100,*=80", "-assignment", "Ladder", "-o", moodle}, &out, &out); code != 0 {
		t.Fatalf("arena ladder export: %s", out.String())
	}
	exported, _ := os.ReadFile(moodle)
	if lines := strings.Split(strings.TrimSpace(string(exported)), "\n"); len(lines) != 3 || lines[0] != "ID number,Email address,Full name,Ladder,Ladder (feedback)" ||
		!(strings.Contains(lines[1], ",100,") && strings.Contains(lines[2], ",80,") || strings.Contains(lines[1], ",80,") && strings.Contains(lines[2], ",100,")) {
		t.Errorf("the Moodle export:\n%s", exported)
	}
	out.Reset()
	if code := run([]string{"ladder", "export", "-server", url, "-token", tokens["staff"], "-grade", "points/", "-o", moodle}, &out, &out); code == 0 || !strings.Contains(out.String(), "at character 8") {
		t.Errorf("a grade rule cut short: %s", out.String())
	}
	t.Logf("game %d: cut short by worker A's kill -9, played by worker B; %d games done at the server's kill -9, %d once started again",
		cut.ID, before, count(games, func(g ladder.Game) bool { return g.State == "done" }))
}

// Beyond loopback the ladder serves HTTPS, or plain HTTP behind a proxy
// the operator names: anything else is refused before it listens.
func TestLadderServeRefusesPlainHTTPBeyondLoopback(t *testing.T) {
	for _, c := range []struct {
		addr, cert, key string
		proxy           bool
		want            string
	}{
		{"127.0.0.1:8080", "", "", false, ""},
		{"localhost:8080", "", "", false, ""},
		{"[::1]:8080", "", "", false, ""},
		{"0.0.0.0:8080", "", "", false, "give -cert and -key, or -proxy"},
		{"10.0.0.5:8080", "", "", false, "give -cert and -key, or -proxy"},
		{"0.0.0.0:8080", "", "", true, ""},
		{"0.0.0.0:8080", "c.pem", "k.pem", false, ""},
		{"0.0.0.0:8080", "c.pem", "", false, "go together"},
	} {
		err := plainOK(c.addr, c.cert, c.key, c.proxy)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, as PEM
// files, and returns their paths and a pool that trusts it.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "arena ladder test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(priv)
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// arena ladder serve -cert -key, listening beyond loopback (every
// address), serves HTTPS: a student submits over it with arena ladder
// submit trusting the certificate (SSL_CERT_FILE), signing in sets a
// Secure cookie, and the staff read the standings.
func TestLadderServesHTTPS(t *testing.T) {
	dir := t.TempDir()
	roster, db, tokens := ladderTokens(t, dir, "alice")
	cert, key, pool := selfSigned(t, dir)
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	addr := fmt.Sprintf("0.0.0.0:%d", port)
	_, said := ladderProcess(t, "ladder", "serve", "-game", "colosseum", "-preset", "6", "-dir", db, "-roster", roster, "-addr", addr, "-cert", cert, "-key", key)
	if !strings.Contains(said, "serving https://") {
		t.Fatalf("arena ladder serve said %q", said)
	}
	url := fmt.Sprintf("https://127.0.0.1:%d", port)

	// arena ladder submit, as another process: Go's TLS reads the
	// certificates it trusts from SSL_CERT_FILE.
	src, _ := gobot.Template("colosseum")
	bot := filepath.Join(dir, "bot.go")
	os.WriteFile(bot, []byte(src), 0o644)
	self, _ := os.Executable()
	submit := exec.Command(self, "ladder", "submit", "-server", url, "-token", tokens["alice"], bot)
	submit.Env = append(os.Environ(), "ARENA_AS_MAIN=1", "SSL_CERT_FILE="+cert)
	if said, err := submit.CombinedOutput(); err != nil {
		t.Fatalf("arena ladder submit over HTTPS: %v\n%s", err, said)
	}

	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("POST", url+"/signin", strings.NewReader("token="+tokens["alice"]))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", url)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if cookie := res.Header.Get("Set-Cookie"); res.StatusCode != http.StatusSeeOther || !strings.Contains(cookie, "Secure") {
		t.Errorf("signing in over HTTPS: %s, cookie %q", res.Status, cookie)
	}
	req, _ = http.NewRequest("GET", url+"/api/ladder/students/alice", nil)
	req.Header.Set("Authorization", "Bearer "+tokens["staff"])
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"number":1`) {
		t.Errorf("alice's page over HTTPS: %s %s", res.Status, body)
	}
	// Plain HTTP on the same port is not served.
	if res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", port)); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP was served beside HTTPS: %s", res.Status)
		}
	}
}

// arena ladder, arena help ladder and arena ladder -h list every
// subcommand, a line each; a subcommand that is not one says so.
func TestLadderHelp(t *testing.T) {
	for _, args := range [][]string{{"ladder"}, {"help", "ladder"}, {"ladder", "-h"}, {"ladder", "nope"}} {
		code, out, stderr := arena(t, args...)
		want := 0
		if len(args) == 1 || args[1] == "nope" {
			want = 2
		}
		if code != want {
			t.Errorf("arena %s: exit %d, want %d", strings.Join(args, " "), code, want)
		}
		for _, sub := range []string{"tokens", "serve", "submit", "work", "freeze", "final", "accommodate"} {
			if !strings.Contains(out+stderr, "\n  "+sub+" ") {
				t.Errorf("arena %s does not list %s:\n%s%s", strings.Join(args, " "), sub, out, stderr)
			}
		}
	}
}

// A course's two ladders on one server (-config): a game and board each,
// one roster of ids with a team and two sections, one set of tokens;
// students submit to each ladder at its own address, and one worker
// leases from the course's API the games of both.
func TestLadderCourseOfTwoLadders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "roster.csv"), []byte("id,name,email,section,team\ns1,Ada Lovelace,ada@uni.edu,A,\ns2,Alan Turing,alan@uni.edu,B,pair1\ns3,Grace Hopper,grace@uni.edu,B,pair1\n"), 0o644)
	config := filepath.Join(dir, "ladders.toml")
	os.WriteFile(config, []byte(`dir = "term"
roster = "roster.csv"

[[ladder]]
name = "practice"
title = "Practice"
game = "colosseum"
preset = "6"

[[ladder]]
name = "a2"
title = "Assignment 2"
game = "mapcolor"
preset = "australia"
graded = true
deadline = 2099-12-15T23:59:00-05:00
grace = "15m"
`), 0o644)
	var out bytes.Buffer
	if code := run([]string{"ladder", "tokens", "-config", config}, &out, &out); code != 0 {
		t.Fatalf("arena ladder tokens -config: %s", out.String())
	}
	tokens := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		name, tok, _ := strings.Cut(l, " ")
		tokens[name] = tok
	}
	if len(tokens) != 5 {
		t.Fatalf("arena ladder tokens printed:\n%s", out.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, said := ladderProcess(t, "ladder", "serve", "-config", config, "-addr", addr)
	if !strings.Contains(said, "2 ladders, 3 students, serving http://"+addr) {
		t.Fatalf("arena ladder serve -config said %q", said)
	}
	url := "http://" + addr
	for _, game := range []string{"colosseum", "mapcolor"} {
		src, _ := gobot.Template(game)
		os.WriteFile(filepath.Join(dir, game+".go"), []byte(src), 0o644)
	}
	for _, s := range []struct{ who, ladder, file string }{{"s1", "practice", "colosseum"}, {"s2", "practice", "colosseum"}, {"s1", "a2", "mapcolor"}, {"s3", "a2", "mapcolor"}} {
		out.Reset()
		if code := run([]string{"ladder", "submit", "-server", url + "/l/" + s.ladder, "-token", tokens[s.who], filepath.Join(dir, s.file+".go")}, &out, &out); code != 0 {
			t.Fatalf("%s's submission to %s: %s", s.who, s.ladder, out.String())
		}
		if want := "/l/" + s.ladder + "/students/"; !strings.Contains(out.String(), want) {
			t.Errorf("the submission points to %q, not a page under %s", out.String(), want)
		}
	}
	ladderProcess(t, "ladder", "work", "-server", url, "-token", tokens["worker"], "-name", "W", "-dir", filepath.Join(dir, "w"), "-containment", "weak")
	for _, name := range []string{"practice", "a2"} {
		st, err := ladder.Open(filepath.Join(dir, "term", name))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		waitGames(t, st, name+"'s ladder games", func(gs []ladder.Game) bool {
			return count(gs, func(g ladder.Game) bool { return g.Kind == ladder.LadderGame && g.State == "done" && g.Worker == "W/1" }) >= 2
		})
	}
	get := func(path, token string) string {
		req, _ := http.NewRequest("GET", url+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	course := get("/", tokens["s3"])
	for _, want := range []string{"Practice", "Assignment 2", "graded", "practice", "Dec 16 04:59 UTC", `href="/l/a2/"`} {
		if !strings.Contains(course, want) {
			t.Errorf("the course's page has no %q:\n%s", want, course)
		}
	}
	// pair1's pages, one a ladder, name its opponent by the roster.
	a2 := get("/l/a2/students/pair1", tokens["s3"])
	practice := get("/l/practice/students/pair1", tokens["s2"])
	if !strings.Contains(a2, "Ada Lovelace v1") || !strings.Contains(practice, "Ada Lovelace v1") || strings.Contains(a2, "regions of") || !strings.Contains(practice, "regions of") {
		t.Errorf("pair1's pages on a2 and on practice:\n%s\n\n%s", a2, practice)
	}
	if page := get("/l/a2/staff", tokens["staff"]); !strings.Contains(page, "Assignment 2") || !strings.Contains(page, "Grace Hopper") {
		t.Errorf("a2's staff page:\n%s", page)
	}
}
