package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// freePort returns a port nobody listens on, for a moment, from below
// every ephemeral range: the kernel hands ports of that range to every
// listen on :0 and every outgoing connection, so a port taken from it
// and freed can be given to a parallel test before the arena that is to
// listen on it starts ("address already in use"). Linux's range starts at
// 32768, but gVisor's starts at 16000 and a machine can set its own
// (ip_local_port_range), so the ports come from 10000 up to the lower of
// 16000 and the machine's range. No port is handed out twice in a run.
func freePort(t *testing.T) string {
	t.Helper()
	lo, hi := 10000, min(16000, ephemeralLow())
	if hi-lo < 1000 {
		lo, hi = 1024, max(hi, 2024)
	}
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 1000 {
		port := lo + rand.IntN(hi-lo)
		if portsGiven[port] {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		ln.Close()
		portsGiven[port] = true
		return strconv.Itoa(port)
	}
	t.Fatalf("no free port in %d-%d", lo, hi-1)
	return ""
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

// ephemeralLow is the first port of the kernel's ephemeral range, or
// 16000 where the kernel does not say.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 16000
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 16000
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 16000
	}
	return n
}

// client starts arena as a separate process serving a bot to a host.
func client(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"bot", "-game", "evasion"}, args...)...)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// actions reads the actions of each turn of a replay file.
func actions(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rp struct {
		Turns []struct {
			Actions [2]json.RawMessage `json:"actions"`
		} `json:"turns"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &rp); err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(rp.Turns)+1)
	for _, tn := range rp.Turns {
		out = append(out, string(tn.Actions[0])+" "+string(tn.Actions[1]))
	}
	return append(out, string(rp.Result))
}

// A whole Evasion session of two arena processes playing through TCP,
// as students' programs connect to the course server, gives the replay
// the same bots give in process.
func TestTCPSessionMatchesInProcess(t *testing.T) {
	dir := t.TempDir()
	p1, p2 := freePort(t), freePort(t)
	a := client(t, "-bot", "strong", "-seed", "5", "-side", "1", "-name", "alice", "-connect", "127.0.0.1:"+p1)
	b := client(t, "-bot", "greedy", "-seed", "5", "-side", "2", "-name", "bob", "-connect", "127.0.0.1:"+p2)
	net := filepath.Join(dir, "tcp.json")
	code, out, stderr := arena(t, "play", "-game", "evasion", "-p1", "tcp:127.0.0.1:"+p1, "-p2", "tcp:127.0.0.1:"+p2, "-replay", net)
	if code != 0 {
		t.Fatalf("host: %d\n%s\n%s", code, out, stderr)
	}
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Wait(); err != nil {
			t.Errorf("client %v: %v", c.Args[3:], err)
		}
	}
	local := filepath.Join(dir, "local.json")
	if code, out, stderr := arena(t, "play", "-game", "evasion", "-p1", "strong", "-p2", "greedy", "-seed", "5", "-replay", local); code != 0 {
		t.Fatalf("in process: %d\n%s\n%s", code, out, stderr)
	}
	got, want := actions(t, net), actions(t, local)
	if len(got) != len(want) {
		t.Fatalf("through TCP %d turns, in process %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("turn %d: through TCP %s, in process %s", i, got[i], want[i])
		}
	}
	if !strings.Contains(out, "wins") && !strings.Contains(out, "draw") {
		t.Errorf("no result printed:\n%s", out)
	}
	t.Logf("%d turns alike; %s", len(got)-1, strings.SplitN(out, "\n", 3)[1])
}

// A client that sends garbage forfeits that game (scored as a time-out);
// one that then disconnects forfeits the next; the host ends cleanly.
func TestTCPClientMisbehaves(t *testing.T) {
	port := freePort(t)
	done := make(chan []string, 1)
	go func() {
		var heard []string
		defer func() { done <- heard }()
		conn, err := dial("127.0.0.1:"+port, 10e9)
		if err != nil {
			return
		}
		defer conn.Close()
		buf := make([]byte, 1<<16)
		read := func() string {
			n, _ := conn.Read(buf)
			return string(buf[:n])
		}
		// One read per message, as the course's clients read: each is a
		// write of its own, the role line 1000/60 ms before the state.
		heard = append(heard, read()) // sendname
		conn.Write([]byte("mallory\n"))
		heard = append(heard, read()) // hunter
		heard = append(heard, read()) // the first state
		conn.Write([]byte("this is not a move\n"))
		heard = append(heard, read()) // prey, for game 1
		heard = append(heard, read()) // its first state, once the hunter has moved
	}()
	code, out, stderr := arena(t, "play", "-game", "evasion", "-p1", "tcp:127.0.0.1:"+port, "-p2", "strong", "-json")
	if code != 0 {
		t.Fatalf("host: %d\n%s\n%s", code, out, stderr)
	}
	heard := <-done
	if len(heard) != 5 || heard[0] != "sendname\n" || heard[1] != "hunter\n" || !regexp.MustCompile(`^1[01]\d{4} 0 0 10 10 300 300 0 0 0 1 1 230 200 0\n$`).MatchString(heard[2]) ||
		heard[3] != "prey\n" || !strings.HasPrefix(heard[4], "1") || !strings.Contains(heard[4], " 1 0 10 10 300 300 ") {
		t.Errorf("the client heard %q", heard)
	}
	// Java's Long.MAX_VALUE, the hunter's time-out score, as the integer
	// the original printed.
	if !strings.Contains(out, `"scores":[0,9223372036854775807]`) {
		t.Errorf("-json scores: %s", out)
	}
	var got playJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Result.Winner.String() != "P2" || !strings.Contains(got.Result.Reason, "P1 as hunter = infinity, P2 as hunter = 0 ticks") {
		t.Errorf("result %+v", got.Result)
	}
}

// A port in use is refused at once, by name.
func TestTCPPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	code, _, stderr := arena(t, "play", "-game", "evasion", "-p1", "tcp:"+addr, "-p2", "greedy")
	if code == 0 || !strings.Contains(stderr, "tcp:"+addr+": cannot listen") || !strings.Contains(stderr, "in use") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// pathClient starts arena as a shortest-path client with a role.
func pathClient(t *testing.T, bot, role, addr string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "bot", "-game", "pathgame", "-bot", bot, "-role", role, "-connect", addr)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// A shortest-path pairing over TCP as the 2017 server ran it: both sides
// on one port, the roles from the first hello, each game on new
// connections (the clients leave after "done"), every update to both.
// Played by four arena processes, it gives the in-process replay.
func TestTCPPathgameMatchesInProcess(t *testing.T) {
	dir := t.TempDir()
	addr := "127.0.0.1:" + freePort(t)
	replay := filepath.Join(dir, "tcp.json")
	type result struct {
		code        int
		out, stderr string
	}
	host := make(chan result, 1)
	go func() {
		code, out, stderr := arena(t, "play", "-game", "pathgame", "-preset", "gen-50", "-seed", "3",
			"-p1", "tcp:"+addr, "-p2", "tcp:"+addr, "-replay", replay)
		host <- result{code, out, stderr}
	}()
	// Game 1: P1's program walks, P2's raises; game 2 the other way.
	for _, pair := range [2][2][2]string{{{"strong", "player"}, {"greedy", "adversary"}}, {{"strong", "adversary"}, {"greedy", "player"}}} {
		a := pathClient(t, pair[0][0], pair[0][1], addr)
		b := pathClient(t, pair[1][0], pair[1][1], addr)
		for _, c := range []*exec.Cmd{a, b} {
			if err := c.Wait(); err != nil {
				select {
				case r := <-host:
					t.Fatalf("client %v: %v; the host ended: %d\n%s\n%s", c.Args[1:], err, r.code, r.out, r.stderr)
				default:
					t.Fatalf("client %v: %v", c.Args[1:], err)
				}
			}
		}
	}
	r := <-host
	if r.code != 0 {
		t.Fatalf("host: %d\n%s\n%s", r.code, r.out, r.stderr)
	}
	local := filepath.Join(dir, "local.json")
	if code, out, stderr := arena(t, "play", "-game", "pathgame", "-preset", "gen-50", "-seed", "3", "-p1", "strong", "-p2", "greedy", "-replay", local); code != 0 {
		t.Fatalf("in process: %d\n%s\n%s", code, out, stderr)
	}
	got, want := actions(t, replay), actions(t, local)
	if len(got) != len(want) {
		t.Fatalf("through TCP %d turns, in process %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("turn %d: through TCP %s, in process %s", i, got[i], want[i])
		}
	}
	t.Logf("%d turns alike; %s", len(got)-1, strings.SplitN(r.out, "\n", 3)[1])
}

// With one side a built-in bot, one client connects for each game, in
// its side's role there; it hears the bot's moves too (in the second game
// the bot moves first).
func TestTCPPathgameOneClient(t *testing.T) {
	addr := "127.0.0.1:" + freePort(t)
	done := make(chan string, 1)
	go func() {
		code, out, stderr := arena(t, "play", "-game", "pathgame", "-preset", "short", "-p1", "tcp:"+addr, "-p2", "greedy")
		done <- fmt.Sprintf("%d\n%s%s", code, out, stderr)
	}()
	for _, role := range []string{"player", "adversary"} {
		if err := pathClient(t, "strong", role, addr).Wait(); err != nil {
			t.Fatalf("the %s client: %v", role, err)
		}
	}
	out := <-done
	if !strings.HasPrefix(out, "0\n") || !strings.Contains(out, "P1 arrived") || !strings.Contains(out, "P2 arrived") || strings.Contains(out, "fault") {
		t.Errorf("host:\n%s", out)
	}
}

// TestTCPPathgameSilentClient: a client that says hello and then never
// answers (the original server waited for it forever) loses its game on
// its clock, here 300 ms, and the pairing ends; the second game is played
// by a client that does answer.
func TestTCPPathgameSilentClient(t *testing.T) {
	addr := "127.0.0.1:" + freePort(t)
	cfg := filepath.Join(t.TempDir(), "fast.json")
	os.WriteFile(cfg, []byte(`{"graph": "short", "clock_ms": 300}`), 0o644)
	done := make(chan string, 1)
	go func() {
		code, out, stderr := arena(t, "play", "-game", "pathgame", "-config", cfg, "-p1", "tcp:"+addr, "-p2", "greedy")
		done <- fmt.Sprintf("%d\n%s%s", code, out, stderr)
	}()
	conn, err := dial(addr, 10e9)
	if err != nil {
		t.Fatal(err)
	}
	// Game 1: P1 walks. Say hello as the player, then read and never answer.
	conn.Write([]byte(`{"name": "silent", "type": 0}`))
	io.Copy(io.Discard, conn) // until the host lets go of this connection
	conn.Close()
	if err := pathClient(t, "greedy", "adversary", addr).Wait(); err != nil {
		t.Fatalf("the game-2 client: %v", err)
	}
	out := <-done
	if !strings.HasPrefix(out, "0\n") || !strings.Contains(out, "P2 wins: P1 did not arrive") {
		t.Errorf("host:\n%s", out)
	}
}

// tcp::0 (or any port) says where it listens, on stderr, as soon as it
// does, so that a script can start its client then: here, a second arena
// process reads the line and connects.
func TestTCPSaysWhereItListens(t *testing.T) {
	host, port, out := startHost(t, "play", "-game", "evasion", "-p1", "tcp:127.0.0.1:0", "-p2", "greedy", "-seed", "2")
	bot := client(t, "-bot", "strong", "-connect", "127.0.0.1:"+port)
	if err := bot.Wait(); err != nil {
		t.Errorf("the client: %v", err)
	}
	if err := host.Wait(); err != nil || !strings.Contains(out.String(), "as hunter") {
		t.Errorf("the host: %v\n%s", err, out.String())
	}
}

// startHost starts arena as a process that listens for a client (its
// command line holds tcp:127.0.0.1:0) and returns it, once it has said on
// stderr the port it listens on, with that port and its stdout.
func startHost(t *testing.T, args ...string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	host := exec.Command(os.Args[0], args...)
	host.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	stderr, err := host.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	host.Stdout = out
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Process.Kill(); host.Wait() })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	m := regexp.MustCompile(`^P[12] listening on 127\.0\.0\.1:(\d+)\n$`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("the host's first line on stderr: %q, %v", line, err)
	}
	go io.Copy(io.Discard, stderr)
	return host, m[1], out
}

// fakeHost serves one connection on a free port: serve gets it.
func fakeHost(t *testing.T, serve func(c net.Conn)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c)
	}()
	return ln.Addr().String()
}

// arena bot -connect reads hosts that do not frame their messages the way
// it writes them: several messages in one write, one message split over
// several, with pauses between the pieces.
func TestBotReadsUnframedHosts(t *testing.T) {
	evasionState := "120000 0 0 10 10 300 300 0 0 0 1 1 230 200 0\n"
	evasion := fakeHost(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		c.Write([]byte("sendname\nprey\n" + evasionState[:20])) // three messages in one write, the third cut
		time.Sleep(50 * time.Millisecond)
		c.Write([]byte(evasionState[20:]))
		if line, err := r.ReadString('\n'); err != nil || line != "arena\n" {
			t.Errorf("name %q, %v", line, err)
		}
		if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, "0 0 ") {
			t.Errorf("the prey's reply %q, %v", line, err)
		}
		c.Write([]byte("done\n"))
	})
	cmd := exec.Command(os.Args[0], "bot", "-game", "evasion", "-bot", "strong", "-connect", evasion)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("evasion: %v\n%s", err, out)
	}

	game := []byte(`{"end_node": "4", "graph": {"1": ["2", "3"], "2": ["1", "4"], "3": ["1", "4"], "4": ["2", "3"]}, "start_node": "1"}`)
	path := fakeHost(t, func(c net.Conn) {
		buf := make([]byte, 1024)
		c.Read(buf) // the hello
		// The game and the player's first move in one write, the game
		// split over two.
		c.Write(game[:40])
		time.Sleep(50 * time.Millisecond)
		c.Write(append(game[40:], `{"edge": ["1", "2"], "add_cost": 1.0, "done": false, "error": false, "position": "2"}`...))
		n, _ := c.Read(buf)
		if !strings.Contains(string(buf[:n]), `"node_1"`) {
			t.Errorf("the adversary's move: %q", buf[:n])
		}
		c.Write([]byte(`{"edge": ["2", "4"], "new_cost": 1.0, "done": false, "error": false, "position": "2"}{"edge": ["2", "4"], "add_cost": 1.0, "done": true, "error": false, "position": "4"}`))
	})
	cmd = exec.Command(os.Args[0], "bot", "-game", "pathgame", "-bot", "strong", "-role", "adversary", "-connect", path)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("pathgame: %v\n%s", err, out)
	}
}

// A host that closes before the session's end makes arena bot -connect
// say so and exit 1.
func TestBotSaysWhenTheHostLeaves(t *testing.T) {
	for _, c := range []struct {
		game  string
		serve func(net.Conn)
		want  string
	}{
		{"evasion", func(net.Conn) {}, "closed the connection before the session ended: no end of the session was heard (it sent 0 messages"},
		{"evasion", func(c net.Conn) { c.Write([]byte("sendname\n")); bufio.NewReader(c).ReadString('\n') }, "(it sent 1 messages, and the bot made 0 moves)"},
		{"pathgame", func(c net.Conn) { c.Read(make([]byte, 100)) }, "closed the connection before the session ended"},
	} {
		addr := fakeHost(t, c.serve)
		cmd := exec.Command(os.Args[0], "bot", "-game", c.game, "-bot", "greedy", "-connect", addr)
		cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "the host at "+addr+" "+"closed") || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v, %q; want exit 1 and %q", c.game, err, out, c.want)
		}
	}
}

// A host that floods arena bot -connect with one endless line is named,
// with what was wrong, not bufio's "token too long".
func TestArenaBotNamesAFloodingHost(t *testing.T) {
	addr := fakeHost(t, func(c net.Conn) {
		c.Write(bytes.Repeat([]byte("x"), maxHostLine+1))
	})
	code, _, stderr := arena(t, "bot", "-game", "evasion", "-bot", "greedy", "-connect", addr)
	if code != 1 || !strings.Contains(stderr, "the host at "+addr+" sent more than the game's protocol allows: a message longer than 16 MB") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
