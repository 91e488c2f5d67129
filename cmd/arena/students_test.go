//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/play"
)

// Students' programs as they are: Python clients that read the socket the
// ways the 2020 Evasion and 2017 shortest-path students did (see
// testdata/students), and Colosseum agent files written in the McGill
// course's template (testdata/comp424), played unchanged, started by arena
// itself (tcp:cmd:, py:).

// python returns a Python 3, with NumPy when asked: python3 on PATH, or
// Debian's, which `make deps` installs with python3-numpy.
func python(t *testing.T, numpy bool) string {
	t.Helper()
	check := "import sys; sys.exit(sys.version_info < (3, 6))"
	if numpy {
		check = "import numpy"
	}
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", check).Run() == nil {
			return p
		}
	}
	t.Fatalf("no python3 (with NumPy: %v) on this machine: make deps installs python3 and python3-numpy", numpy)
	return ""
}

// evasionCap is the default Evasion preset with a 3,000-tick cap, so that
// a student hunter that never catches costs the suite little.
func evasionCap(t *testing.T) string {
	f := filepath.Join(t.TempDir(), "cap.json")
	os.WriteFile(f, []byte(`{"max_walls": 10, "delay": 10, "tick_cap": 3000}`), 0o644)
	return f
}

// replayOf reads what a replay says about faults: the turns where a side's
// action was replaced, and the forfeits.
type replayOf struct {
	Turns []struct {
		Replaced [2]string `json:"replaced"`
	} `json:"turns"`
	Result struct {
		Winner   string          `json:"winner"`
		Scores   json.RawMessage `json:"scores"`
		Reason   string          `json:"reason"`
		Forfeits []struct {
			Reason string `json:"reason"`
		} `json:"forfeits"`
	} `json:"result"`
}

func readReplay(t *testing.T, file string) replayOf {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A replay is one JSON document over several lines.
	var rp replayOf
	if err := json.Unmarshal(data, &rp); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return rp
}

// faults lists every replaced action and forfeit of a replay.
func (rp replayOf) faults() []string {
	var out []string
	for i, tn := range rp.Turns {
		for side, r := range tn.Replaced {
			if r != "" {
				out = append(out, fmt.Sprintf("turn %d P%d: %s", i, side+1, r))
			}
		}
	}
	for _, f := range rp.Result.Forfeits {
		out = append(out, f.Reason)
	}
	return out
}

// leftover lists the live processes whose command line holds token.
func leftover(t *testing.T, token string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if bytes.Contains(cmdline, []byte(token)) && !bytes.Contains(stat, []byte(") Z ")) {
			out = append(out, e.Name()+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
	}
	return out
}

// playStudent plays a match through the command line and fails the test
// unless the student's program played it whole: no action replaced, no
// forfeit, and no process of it left (its command line holds token).
func playStudent(t *testing.T, token string, args ...string) replayOf {
	t.Helper()
	file := filepath.Join(t.TempDir(), "replay.json")
	code, out, stderr := arena(t, append(args, "-replay", file)...)
	if code != 0 {
		t.Fatalf("arena %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, stderr)
	}
	rp := readReplay(t, file)
	if f := rp.faults(); len(f) > 0 {
		t.Errorf("the student's program did not play the match whole: %s\n%s", strings.Join(f, "; "), out)
	}
	if left := leftover(t, token); len(left) > 0 {
		t.Errorf("processes left: %s", strings.Join(left, "; "))
	}
	t.Logf("%s", strings.SplitN(out, "\n", 3)[1])
	return rp
}

// An Evasion client that reads its socket through a line buffer, as a
// careful student writes one, plays whole sessions against each built-in
// bot, started by arena (tcp:cmd:), in both seats. Clients that read each
// message with one recv() (the course's sample client, and the styles
// that keep the first line or parse the whole read) rely on the 2020
// server's separate writes and pauses; what arena writes, and when, is
// asserted on the socket by players.TestEvasionHostWritesAsTheOriginal,
// since whether such a client keeps up on a loaded machine is the
// client's affair, as it was on the original server.
func TestStudentEvasionClients(t *testing.T) {
	py := python(t, false)
	cfg := evasionCap(t)
	for i, opp := range []string{"strong", "greedy", "random"} {
		for seat := range 2 {
			t.Run(fmt.Sprintf("%s-P%d", opp, seat+1), func(t *testing.T) {
				t.Parallel()
				token := fmt.Sprintf("evasion-%s-%d-%d", opp, seat, os.Getpid())
				client := fmt.Sprintf("tcp:cmd:%s testdata/students/evasion_client.py {port} buffered %s", py, token)
				p1, p2 := client, opp
				if seat == 1 {
					p1, p2 = p2, p1
				}
				rp := playStudent(t, token, "play", "-game", "evasion", "-config", cfg, "-p1", p1, "-p2", p2, "-seed", strconv.Itoa(i+3))
				if !strings.Contains(rp.Result.Reason, "as hunter") {
					t.Errorf("result %+v", rp.Result)
				}
			})
		}
	}
}

// The same clients against a second arena process, which plays strong
// through `arena bot -connect` on the other port.
func TestStudentEvasionClientsAgainstArenaBot(t *testing.T) {
	py := python(t, false)
	cfg := evasionCap(t)
	for _, style := range []string{"buffered"} {
		t.Run(style, func(t *testing.T) {
			t.Parallel()
			token := fmt.Sprintf("evasion-bot-%s-%d", style, os.Getpid())
			port := freePort(t)
			bot := client(t, "-bot", "strong", "-seed", "4", "-side", "2", "-name", "arena-strong", "-connect", "127.0.0.1:"+port)
			playStudent(t, token, "play", "-game", "evasion", "-config", cfg, "-seed", "4",
				"-p1", fmt.Sprintf("tcp:cmd:%s testdata/students/evasion_client.py {port} %s %s", py, style, token), "-p2", "tcp:127.0.0.1:"+port)
			if err := bot.Wait(); err != nil {
				t.Errorf("arena bot -connect: %v", err)
			}
		})
	}
}

// Shortest-path teams, the course's client library as it was and a
// buffered one, play whole pairings against each built-in bot: arena
// starts the program of the side's role for each game ({role}) and paces
// what it hears, so that the library's reads never join two messages.
// Greedy plays on the course's graph; strong and random, whose pairings
// with this team run to hundreds of messages there (each paced), on
// generated 50-node graphs.
func TestStudentPathgameClients(t *testing.T) {
	py := python(t, false)
	preset := map[string]string{"strong": "gen-50", "greedy": "advshort", "random": "gen-50"}
	for _, style := range []string{"course", "buffered"} {
		for i, opp := range []string{"strong", "greedy", "random"} {
			t.Run(style+"-"+opp, func(t *testing.T) {
				t.Parallel()
				token := fmt.Sprintf("asp-%s-%s-%d", style, opp, os.Getpid())
				team := fmt.Sprintf("tcp:cmd:%s testdata/students/asp_client.py {role} {port} %s %s", py, style, token)
				p1, p2 := team, opp
				if i%2 == 1 {
					p1, p2 = p2, p1
				}
				rp := playStudent(t, token, "play", "-game", "pathgame", "-preset", preset[opp], "-p1", p1, "-p2", p2, "-seed", strconv.Itoa(i+2))
				if strings.Contains(rp.Result.Reason, "fault") {
					t.Errorf("result %+v", rp.Result)
				}
			})
		}
	}
}

// The course's library needs the pacing: with it turned off (pace=off),
// arena's greedy adversary moves within the library's half second of
// silence after the game, and the library dies on two messages in one read.
func TestStudentPathgameNeedsPacing(t *testing.T) {
	py := python(t, false)
	token := fmt.Sprintf("asp-nopace-%d", os.Getpid())
	file := filepath.Join(t.TempDir(), "replay.json")
	code, out, stderr := arena(t, "play", "-game", "pathgame", "-preset", "advshort", "-p2", "greedy", "-replay", file,
		"-p1", fmt.Sprintf("tcp:pace=off:cmd:%s testdata/students/asp_client.py {role} {port} course %s", py, token))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	if rp := readReplay(t, file); !strings.Contains(rp.Result.Reason, "Extra data") {
		t.Errorf("without pacing the course's library should die on joined messages: %s", rp.Result.Reason)
	}
	if left := leftover(t, token); len(left) > 0 {
		t.Errorf("processes left: %s", strings.Join(left, "; "))
	}
}

// A team of course-library clients against a second arena process, whose
// two `arena bot -connect` clients (an adversary for the first game, a
// player for the second) share a port, as on the original server.
func TestStudentPathgameAgainstArenaBot(t *testing.T) {
	py := python(t, false)
	for _, style := range []string{"course", "buffered"} {
		t.Run(style, func(t *testing.T) {
			t.Parallel()
			token := fmt.Sprintf("asp-bot-%s-%d", style, os.Getpid())
			port := freePort(t)
			bots := make(chan error, 1)
			go func() {
				var errs []string
				for _, role := range []string{"adversary", "player"} {
					cmd := exec.Command(os.Args[0], "bot", "-game", "pathgame", "-bot", "strong", "-role", role, "-connect", "127.0.0.1:"+port)
					cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
					if out, err := cmd.CombinedOutput(); err != nil {
						errs = append(errs, fmt.Sprintf("%s: %v: %s", role, err, out))
					}
				}
				if errs != nil {
					bots <- fmt.Errorf("%s", strings.Join(errs, "; "))
				}
				close(bots)
			}()
			playStudent(t, token, "play", "-game", "pathgame", "-preset", "gen-50", "-seed", "3", "-p2", "tcp:127.0.0.1:"+port,
				"-p1", fmt.Sprintf("tcp:cmd:%s testdata/students/asp_client.py {role} {port} %s %s", py, style, token))
			if err := <-bots; err != nil {
				t.Error(err)
			}
		})
	}
}

// A team the student starts by hand (tcp::PORT), its player and then its
// adversary connecting to arena's port, hears every update of the
// pairing, the last one (done) of the second game included, before arena
// exits: the course's library reads it with one recv(1024) and died on the
// empty read of a closed socket when arena exited with the update still
// queued behind the pacer's 50 ms gap. The clients exit 0 only once they
// have read done.
func TestStudentPathgameHearsTheLastUpdate(t *testing.T) {
	py := python(t, false)
	for _, seat := range []string{"-p1", "-p2"} {
		t.Run(seat, func(t *testing.T) {
			t.Parallel()
			other := map[string]string{"-p1": "-p2", "-p2": "-p1"}[seat]
			host, port, out := startHost(t, "play", "-game", "pathgame", "-preset", "gen-50", "-seed", "3", seat, "tcp:127.0.0.1:0", other, "strong")
			// Seat P1 walks in the first game, P2 in the second.
			roles := []string{"player", "adversary"}
			if seat == "-p2" {
				roles = []string{"adversary", "player"}
			}
			for _, role := range roles {
				cmd := exec.Command(py, "testdata/students/asp_client.py", role, port, "course")
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("the team's %s: %v\n%s", role, err, b)
				}
			}
			if err := host.Wait(); err != nil {
				t.Errorf("arena: %v\n%s", err, out.String())
			}
		})
	}
}

// Colosseum agents in the McGill course's template play unchanged
// (py:FILE): the course's random agent, its template as shipped, and an
// alpha-beta agent written in the template. None of their moves is
// replaced: each is legal, answered in time, in the course's form.
func TestStudentColosseumAgents(t *testing.T) {
	py := python(t, true)
	for _, c := range []struct {
		file, opp string
		games     int
		wantWins  bool
	}{
		{"testdata/comp424/agents/random_agent.py", "strong", 4, false},
		{"testdata/comp424/agents/alphabeta_agent.py", "greedy", 2, true},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			code, out, stderr := arena(t, "autoplay", "-game", "colosseum", "-python", py, "-p1", "py:"+c.file, "-p2", c.opp,
				"-n", strconv.Itoa(c.games), "-sizes", "6-8", "-json")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
			}
			var res struct {
				Bots [2]struct {
					Wins, Forfeits int
				} `json:"bots"`
				Log []struct {
					Error string `json:"error"`
				} `json:"log"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			for i, g := range res.Log {
				if g.Error != "" {
					t.Errorf("game %d: %s", i, g.Error)
				}
			}
			if c.wantWins && res.Bots[0].Wins == 0 {
				t.Errorf("the alpha-beta agent won none of %d games against %s", c.games, c.opp)
			}
			t.Logf("%s: %d wins of %d against %s", c.file, res.Bots[0].Wins, c.games, c.opp)
		})
	}
	// The template's own step answers its position with a wall up: legal
	// where it has no wall there, the course's random walk where it has.
	file := filepath.Join(t.TempDir(), "r.json")
	if code, out, stderr := arena(t, "play", "-game", "colosseum", "-python", py, "-p1", "py:testdata/comp424/agents/student_agent.py", "-p2", "greedy", "-replay", file); code != 0 {
		t.Fatalf("the template: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, f := range readReplay(t, file).faults() {
		if !strings.Contains(f, "the up side of") {
			t.Errorf("the template's move was replaced for another reason: %s", f)
		}
	}
}

// A replay of the alpha-beta agent shows each of its moves played as it
// chose it (none replaced), in both seats.
func TestStudentColosseumAgentMovesAreItsOwn(t *testing.T) {
	py := python(t, true)
	for _, seats := range [][2]string{{"py:testdata/comp424/agents/alphabeta_agent.py", "random"}, {"random", "py:testdata/comp424/agents/alphabeta_agent.py"}} {
		file := filepath.Join(t.TempDir(), "r.json")
		code, out, stderr := arena(t, "play", "-game", "colosseum", "-python", py, "-p1", seats[0], "-p2", seats[1], "-seed", "5", "-replay", file)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
		}
		if f := readReplay(t, file).faults(); len(f) > 0 {
			t.Errorf("%v: %s", seats, strings.Join(f, "; "))
		}
	}
}

// errorLines are the lines of a command's standard error but the note
// that programs are weakly contained (the portable path's), which comes
// before any match.
func errorLines(stderr string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(l, "arena: programs are weakly contained here:") {
			lines = append(lines, l)
		}
	}
	return lines
}

// Agent files that cannot play stop the command before any game, with one
// line naming the file and the Python error; an agent that raises in its
// step gets the course's random walk for that move, and the replay says
// what it raised, where.
func TestStudentColosseumAgentErrors(t *testing.T) {
	py := python(t, true)
	dir := t.TempDir()
	write := func(name, src string) string {
		os.MkdirAll(filepath.Join(dir, "agents"), 0o755)
		f := filepath.Join(dir, "agents", name)
		os.WriteFile(f, []byte(src), 0o644)
		return f
	}
	header := "from agents.agent import Agent\nfrom store import register_agent\nimport numpy as np\n"
	for _, c := range []struct{ name, src, want string }{
		{"noreg.py", header + "class StudentAgent(Agent):\n    pass\n", `noreg.py registers no agent: decorate its class with @register_agent("student_agent")`},
		{"raises.py", header + "x = np.zeros(3)\nraise ValueError('bad shape %s' % (x.shape,))\n", "raises.py: ValueError: bad shape (3,) (raises.py:5)"},
		{"syntax.py", header + "def step(:\n    pass\n", "syntax.py: SyntaxError: invalid syntax (syntax.py:4)"},
		{"imports.py", header + "import tensorflow\n", "imports.py: ModuleNotFoundError: No module named 'tensorflow' (imports.py:4)"},
		{"init.py", header + "@register_agent('student_agent')\nclass StudentAgent(Agent):\n    def __init__(self):\n        raise RuntimeError('no')\n", "init.py: making student_agent: RuntimeError: no (init.py:7)"},
		{"two.py", header + "@register_agent('a1')\nclass A(Agent):\n    pass\n@register_agent('a2')\nclass B(Agent):\n    pass\n", "registers 2 agents (a1, a2)"},
	} {
		f := write(c.name, c.src)
		code, out, stderr := arena(t, "autoplay", "-game", "colosseum", "-python", py, "-p1", "py:"+f, "-p2", "greedy", "-n", "2")
		lines := errorLines(stderr)
		if code != 1 || len(lines) != 1 || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", c.name, code, out, stderr, c.want)
		}
	}
	// No NumPy: the Python's site packages hidden, as on a machine without it.
	noNumpy := filepath.Join(dir, "python-without-numpy")
	os.WriteFile(noNumpy, []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"), 0o755)
	code, _, stderr := arena(t, "play", "-game", "colosseum", "-python", noNumpy, "-p1", "py:testdata/comp424/agents/random_agent.py", "-p2", "greedy")
	if code != 1 || !strings.Contains(stderr, "NumPy is not installed for") || len(errorLines(stderr)) != 1 {
		t.Errorf("without NumPy: exit %d, %q", code, stderr)
	}
	// No Python at all, by -python and by ARENA_PYTHON.
	code, _, stderr = arena(t, "play", "-game", "colosseum", "-python", filepath.Join(dir, "no-such-python"), "-p1", "py:testdata/comp424/agents/random_agent.py", "-p2", "greedy")
	if code != 1 || !strings.Contains(stderr, "no Python: "+filepath.Join(dir, "no-such-python")+" was not found (given by -python") {
		t.Errorf("no Python: exit %d, %q", code, stderr)
	}
	t.Setenv("ARENA_PYTHON", "no-such-python3")
	code, _, stderr = arena(t, "play", "-game", "colosseum", "-p1", "py:testdata/comp424/agents/random_agent.py", "-p2", "greedy")
	if code != 1 || !strings.Contains(stderr, "no Python: no-such-python3 was not found (given by ARENA_PYTHON") {
		t.Errorf("no Python from ARENA_PYTHON: exit %d, %q", code, stderr)
	}
	// An agent whose step raises plays the random walk, with the reason.
	f := write("student_agent.py", header+"@register_agent('student_agent')\nclass StudentAgent(Agent):\n    def step(self, board, me, adv, k):\n        return me, 1 // 0\n")
	replay := filepath.Join(dir, "r.json")
	if code, out, stderr := arena(t, "play", "-game", "colosseum", "-python", py, "-p1", "py:"+f, "-p2", "greedy", "-replay", replay); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	faults := readReplay(t, replay).faults()
	if len(faults) == 0 || !strings.Contains(faults[0], "the agent's step raised ZeroDivisionError: integer division or modulo by zero (student_agent.py:7)") {
		t.Errorf("faults %q", faults)
	}
}

// Programs arena starts (tcp:cmd:) that exit at once, print a traceback,
// never connect, connect twice, flood or leave children: each costs its
// side the game as the rules say (an Evasion forfeit is scored as a
// time-out), with the reason in the replay, and the session goes on; none
// of their processes is left.
func TestStartedProgramsMisbehave(t *testing.T) {
	py := python(t, false)
	cfg := evasionCap(t)
	dir := t.TempDir()
	script := func(name, src string) string {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(src), 0o755)
		return f
	}
	token := fmt.Sprintf("misbehaving-%d", os.Getpid())
	connect := "import socket, sys\ns = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
	for _, c := range []struct {
		name, spec string
		want       string // in the replay's reasons; "" for none
	}{
		{"exits", "sh -c 'echo boom " + token + " >&2; exit 3'", "the program exited (exit status 3) before connecting; it wrote: boom"},
		{"traceback", py + " " + script("tb.py", connect+"s.recv(100)\n1/0\n") + " {port} " + token, "it wrote: ZeroDivisionError: division by zero"},
		{"never connects", "sh -c 'exec sleep 987655' " + token, "the program did not connect within 2s"},
		{"connects twice", py + " testdata/students/evasion_client.py {port} twice " + token, ""},
		{"floods", py + " " + script("flood.py", connect+"s.recv(100)\ns.sendall(b'me\\n')\ns.sendall(b'x' * (2 << 20))\nwhile s.recv(100): pass\n") + " {port} " + token,
			"the program wrote a line longer than 1048576 bytes"},
		// A shell's script is one word: the file it runs is a word of its
		// own, which arena gives the program's box.
		{"leaves children", "sh -c 'sleep 987656 & exec " + py + " \"$1\" $0 buffered " + token + "' {port} testdata/students/evasion_client.py", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			connect := play.DefaultConnectWait
			if c.name == "never connects" {
				// The one case that waits out the bound: a short one.
				// Programs that do connect keep the default, which a
				// busy machine's Python start-up stays well inside.
				connect = 2 * time.Second
			}
			file := filepath.Join(t.TempDir(), "r.json")
			code, out, stderr := arena(t, "play", "-game", "evasion", "-config", cfg, "-p1", "tcp:cmd:"+c.spec, "-p2", "greedy", "-replay", file, "-connect-wait", connect.String())
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
			}
			rp := readReplay(t, file)
			faults := strings.Join(rp.faults(), "; ")
			switch {
			case c.want == "" && faults != "":
				t.Errorf("faults: %s", faults)
			case c.want != "" && !strings.Contains(faults, c.want):
				t.Errorf("faults %q, want %q", faults, c.want)
			case !strings.Contains(rp.Result.Reason, "as hunter"):
				t.Errorf("the session did not end: %+v", rp.Result)
			}
			left := append(leftover(t, token), leftover(t, "sleep\x00987655")...)
			if left = append(left, leftover(t, "sleep\x00987656")...); len(left) > 0 {
				t.Errorf("processes left: %s", strings.Join(left, "; "))
			}
		})
	}
}

// The wait for a client's name (Evasion) or hello (shortest path) is
// bounded by the client's clock, not a minute, and charged to it: a
// silent client and one that sends a byte a second lose their games on a
// 3 s clock.
func TestSilentClientsLoseOnTheirClock(t *testing.T) {
	py := python(t, false)
	dir := t.TempDir()
	evasionCfg := filepath.Join(dir, "evasion.json")
	os.WriteFile(evasionCfg, []byte(`{"max_walls": 10, "delay": 10, "clock_ms": 3000}`), 0o644)
	pathCfg := filepath.Join(dir, "path.json")
	os.WriteFile(pathCfg, []byte(`{"nodes": 50, "clock_ms": 3000}`), 0o644)
	silent := filepath.Join(dir, "silent.py")
	os.WriteFile(silent, []byte("import socket, sys, time\ns = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\ntime.sleep(60)\n"), 0o644)
	dribble := filepath.Join(dir, "dribble.py")
	os.WriteFile(dribble, []byte("import socket, sys, time\ns = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\nfor i in range(60):\n    s.sendall(b'{' if i == 0 else b' ')\n    time.sleep(1)\n"), 0o644)
	for _, c := range []struct{ game, cfg, client, want string }{
		{"evasion", evasionCfg, silent, "no name: the program did not answer within 3.25s"},
		{"evasion", evasionCfg, dribble, "no name: the program did not answer within 3.25s"},
		{"pathgame", pathCfg, silent, "the program said no hello within 3.25s"},
		{"pathgame", pathCfg, dribble, "the program said no hello within 3.25s"},
	} {
		t.Run(c.game+"-"+filepath.Base(c.client), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "r.json")
			code, out, stderr := arena(t, "play", "-game", c.game, "-config", c.cfg, "-p1", fmt.Sprintf("tcp:cmd:%s %s {port}", py, c.client), "-p2", "greedy", "-replay", file)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
			}
			rp := readReplay(t, file)
			if faults := strings.Join(rp.faults(), "; ") + rp.Result.Reason; !strings.Contains(faults, c.want) || rp.Result.Winner != "P2" {
				t.Errorf("%s: %q, want P2 to win and %q", c.client, faults, c.want)
			}
		})
	}
}

// The README's map-colouring examples, as written: a course program named
// by a path relative to where arena runs (cmd:python3 hw2.py, cmd:./hw2.sh)
// runs the person's file although it runs in a directory of its own, and
// arena csp plays as strong does. The person's own output.txt is left
// alone.
func TestREADMECourseProgramExamples(t *testing.T) {
	py, err := exec.LookPath(python(t, false))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	// arena, as a person installs it: this binary (a link to its file,
	// in a folder of PATH, which a program's box is given), which is arena
	// when started by that name (a program's environment is its box's: no
	// variable of the test's reaches it).
	if err := os.Link(exe, filepath.Join(bin, "arena")); err != nil {
		t.Fatal(err)
	}
	// A program that runs as a uid of its own with the machine's root (arena
	// as root on the portable path) reads what others may: the PATH's
	// folder must let others through, and its python3 be one others run.
	os.Chmod(filepath.Dir(bin), 0o755)
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		py = "/usr/bin/python3"
	}
	os.Symlink(py, filepath.Join(bin, "python3"))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	home := t.TempDir()
	// A homework stand-in that writes the course's output by asking arena.
	os.WriteFile(filepath.Join(home, "hw2.py"), []byte("import subprocess, sys\nsys.exit(subprocess.call(['arena', 'csp', 'input.txt', '-o', 'output.txt']))\n"), 0o644)
	os.WriteFile(filepath.Join(home, "hw2.sh"), []byte("#!/bin/sh\nexec arena csp input.txt -o output.txt\n"), 0o755)
	os.WriteFile(filepath.Join(home, "output.txt"), []byte("the person's own\n"), 0o644)
	t.Chdir(home)
	for _, spec := range []string{"cmd:python3 hw2.py", "cmd:./hw2.sh", "cmd:arena csp input.txt -o output.txt"} {
		code, out, stderr := arena(t, "play", "-game", "mapcolor", "-preset", "usa", "-p1", spec, "-p2", "course")
		if code != 0 || !strings.Contains(out, "result: P1 wins: scores 211 to 203") {
			t.Errorf("%s: exit %d\n%s\n%s", spec, code, out, stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, "output.txt")); string(b) != "the person's own\n" {
		t.Errorf("the person's output.txt became %.60q", b)
	}
}

// autoplay runs started programs unattended, games at once, each on a port
// of its own, and leaves none of their processes.
func TestStudentAutoplay(t *testing.T) {
	py := python(t, false)
	for _, c := range []struct{ game, spec string }{
		{"evasion", "tcp:cmd:%s testdata/students/evasion_client.py {port} last %s"},
		{"pathgame", "tcp:cmd:%s testdata/students/asp_client.py {role} {port} course %s"},
	} {
		token := fmt.Sprintf("autoplay-%s-%d", c.game, os.Getpid())
		args := []string{"autoplay", "-game", c.game, "-p1", fmt.Sprintf(c.spec, py, token), "-p2", "greedy", "-n", "4", "-j", "2", "-json"}
		if c.game == "evasion" {
			args = append(args, "-config", evasionCap(t))
		} else {
			args = append(args, "-preset", "gen-50")
		}
		code, out, stderr := arena(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", c.game, code, out, stderr)
		}
		var res struct {
			Bots [2]struct{ Forfeits int } `json:"bots"`
			Log  []struct {
				Error  string `json:"error"`
				Result struct {
					Reason string `json:"reason"`
				} `json:"result"`
			} `json:"log"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for i, g := range res.Log {
			if g.Error != "" || strings.Contains(g.Result.Reason, "fault") || strings.Contains(g.Result.Reason, "infinity") {
				t.Errorf("%s game %d: %s %s", c.game, i, g.Error, g.Result.Reason)
			}
		}
		if left := leftover(t, token); len(left) > 0 {
			t.Errorf("%s: processes left: %s", c.game, strings.Join(left, "; "))
		}
	}
}

// What a student's agent prints is shown as it comes, after its seat and
// quoted, unless -quiet, and kept with each of its moves in the replay.
func TestStudentPrintsAreShown(t *testing.T) {
	py := python(t, true)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "agents"), 0o755)
	agent := filepath.Join(dir, "agents", "loud_agent.py")
	os.WriteFile(agent, []byte("from agents.agent import Agent\nfrom store import register_agent\n\n"+
		"@register_agent('loud_agent')\nclass LoudAgent(Agent):\n    def step(self, board, me, adv, k):\n"+
		"        print('thinking at', me)\n        print('\\x1b[31mred\\x1b[0m')\n        return me, 0\n"), 0o644)
	replay := filepath.Join(dir, "r.json")
	code, _, stderr := arena(t, "play", "-game", "colosseum", "-python", py, "-p1", "py:"+agent, "-p2", "greedy", "-seed", "3", "-replay", replay)
	if code != 0 || !strings.Contains(stderr, "P1| thinking at (") || !strings.Contains(stderr, `P1| \x1b[31mred\x1b[0m`) || strings.Contains(stderr, "\x1b") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	data, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	// Each move's note holds that move's two lines: none a move late,
	// none lost at the end (the answer can be read before the prints).
	var r struct {
		Turns []struct {
			Actions []json.RawMessage
			Notes   []*struct{ Said []string }
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	moves := 0
	for i, turn := range r.Turns {
		if len(turn.Actions) == 0 || string(turn.Actions[0]) == "null" {
			continue
		}
		moves++
		if len(turn.Notes) == 0 || turn.Notes[0] == nil || len(turn.Notes[0].Said) != 2 ||
			!strings.HasPrefix(turn.Notes[0].Said[0], "thinking at (") || turn.Notes[0].Said[1] != `\x1b[31mred\x1b[0m` {
			t.Errorf("turn %d: the agent's note does not hold its two lines: %s", i+1, data)
			break
		}
	}
	if moves == 0 {
		t.Errorf("the agent made no move: %s", data)
	}
	code, _, stderr = arena(t, "play", "-quiet", "-game", "colosseum", "-python", py, "-p1", "py:"+agent, "-p2", "greedy", "-seed", "3")
	if code != 0 || strings.Contains(stderr, "thinking at") {
		t.Errorf("-quiet: exit %d, stderr %q", code, stderr)
	}
}
