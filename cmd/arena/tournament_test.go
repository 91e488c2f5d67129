//go:build unix

package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

var tournamentArgs = []string{"-game", "colosseum", "-preset", "6", "-rounds", "2", "-seed", "3",
	"r=random", "g=greedy", "s=strong:nodes=500", "s2=strong:nodes=2000"}

// tournamentProcess starts arena tournament in a process of its own.
func tournamentProcess(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"tournament"}, args...)...)
	cmd.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func journalLines(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "games.jsonl"))
	return bytes.Count(b, []byte("\n"))
}

// show prints a directory's standings, but the thinking times, which
// vary from run to run.
func show(t *testing.T, dir string) string {
	t.Helper()
	code, out, stderr := arena(t, "tournament", "show", dir)
	if code != 0 {
		t.Fatalf("show %s: %d %s", dir, code, stderr)
	}
	return regexp.MustCompile(`(?m)(\s+\d+\.\d\d){2}$`).ReplaceAllString(out, "")
}

// A tournament killed with SIGKILL again and again, at random points (as
// it starts, between games, while games are written), and run again each
// time, ends with the standings of an uninterrupted run.
func TestTournamentSurvivesKill9(t *testing.T) {
	whole := t.TempDir()
	if code, out, stderr := arena(t, append([]string{"tournament", "-o", whole}, tournamentArgs...)...); code != 0 {
		t.Fatalf("uninterrupted: %d\n%s\n%s", code, out, stderr)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	kills := 0
	for round := 0; ; round++ {
		cmd, out := tournamentProcess(t, append([]string{"-o", dir, "-j", "2"}, tournamentArgs...)...)
		target := journalLines(dir) + rng.IntN(4) // 0: kill as it starts
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
	wait:
		for {
			select {
			case err = <-exited:
				break wait
			default:
			}
			if journalLines(dir) >= target && round < 12 {
				cmd.Process.Signal(syscall.SIGKILL)
				err = <-exited
				kills++
				break wait
			}
			time.Sleep(time.Millisecond)
		}
		if err == nil {
			break
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("run %d: %v\n%s", round, err, out)
		}
	}
	if got, want := show(t, dir), show(t, whole); got != want {
		t.Errorf("after %d kills:\n%s\nuninterrupted:\n%s", kills, got, want)
	}
	t.Logf("%d kills", kills)
}

// Shards played by separate processes and merged give the standings of
// one run.
func TestTournamentShardsAsProcesses(t *testing.T) {
	whole := t.TempDir()
	if code, out, stderr := arena(t, append([]string{"tournament", "-o", whole}, tournamentArgs...)...); code != 0 {
		t.Fatalf("one run: %d\n%s\n%s", code, out, stderr)
	}
	base := t.TempDir()
	var dirs []string
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i, s := range []string{"0/3", "1/3", "2/3"} {
		d := filepath.Join(base, "shard"+string(rune('0'+i)))
		dirs = append(dirs, d)
		cmd, out := tournamentProcess(t, append([]string{"-o", d, "-shard", s, "-j", "1"}, tournamentArgs...)...)
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, outs[i])
		}
	}
	merged := filepath.Join(base, "merged")
	code, out, stderr := arena(t, append([]string{"tournament", "merge", "-o", merged}, dirs...)...)
	if code != 0 {
		t.Fatalf("merge: %d\n%s\n%s", code, out, stderr)
	}
	if got, want := show(t, merged), show(t, whole); got != want {
		t.Errorf("merged:\n%s\none run:\n%s", got, want)
	}
	// The report of the merged tournament links every game's replay,
	// which is there.
	report := filepath.Join(base, "report.html")
	if code, _, stderr := arena(t, "tournament", "report", merged, "-o", report); code != 0 {
		t.Fatalf("report: %s", stderr)
	}
	html, _ := os.ReadFile(report)
	for _, id := range []string{"r0-p0-a", "r1-p5-b"} {
		if !bytes.Contains(html, []byte(`href="http://localhost:8080/?replay=%2Freplays%2F`+id+`.json"`)) {
			t.Errorf("the report has no watch link for %s", id)
		}
	}
	if n := bytes.Count(html, []byte(`">file</a>`)); n != 24 {
		t.Errorf("%d replay files linked, want 24", n)
	}
	for _, link := range strings.Split(string(html), `<a href="`)[1:] {
		href := link[:strings.IndexByte(link, '"')]
		if strings.HasPrefix(href, "shard") {
			if _, err := os.Stat(filepath.Join(base, href)); err != nil {
				t.Errorf("the report links %s: %v", href, err)
			}
		}
	}
}

// Bad arguments are refused before any game, by name.
func TestTournamentRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-game", "colosseum", "-o", dir, "a=random", "a=greedy"}, 2, "two entrants are named a"},
		{[]string{"-game", "colosseum", "-o", dir, "a=random", "b=strnog"}, 2, `entrant b: unknown bot "strnog"`},
		{[]string{"-game", "colosseum", "-o", dir, "a=random", "b=cmd:no-such-program-x"}, 1, "entrant b: cmd:no-such-program-x"},
		{[]string{"-game", "colosseum", "-o", dir, "a=random", "b=tcp::9000"}, 2, "a tournament starts its players itself"},
		{[]string{"-game", "colosseum", "-o", dir, "-format", "sprt", "a=random", "b=greedy"}, 2, "an SPRT match needs -sprt"},
		{[]string{"-game", "colosseum", "-o", dir, "-shard", "3/3", "a=random", "b=greedy"}, 2, "-shard"},
	} {
		code, _, stderr := arena(t, append([]string{"tournament"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
