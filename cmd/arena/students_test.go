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

// Evasion clients in each reading style play whole sessions against each
// built-in bot, started by arena (tcp:cmd:), in both seats: each relies
// on the 2020 server writing the role line, then the first state 1000/60
// ms later, as arena does.
func TestStudentEvasionClients(t *testing.T) {
	py := python(t, false)
	cfg := evasionCap(t)
	for _, style := range []string{"first", "last", "whole", "buffered"} {
		for i, opp := range []string{"strong", "greedy", "random"} {
			t.Run(style+"-"+opp, func(t *testing.T) {
				t.Parallel()
				token := fmt.Sprintf("evasion-%s-%s-%d", style, opp, os.Getpid())
				client := fmt.Sprintf("tcp:cmd:%s testdata/students/evasion_client.py {port} %s %s", py, style, token)
				p1, p2 := client, opp
				if i%2 == 1 {
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
	for _, style := range []string{"first", "last", "whole", "buffered"} {
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
