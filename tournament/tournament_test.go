package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// plan is a small Colosseum round robin of quick bots.
func plan(t *testing.T, format string, rounds int, specs ...string) *Plan {
	t.Helper()
	g, _ := match.Lookup("colosseum")
	p, _ := match.LookupPreset(g, "6")
	cfg, _ := json.Marshal(p.Config)
	pl := &Plan{Game: "colosseum", Config: cfg, Seed: 11, Format: format, Rounds: rounds}
	for i, s := range specs {
		pl.Entrants = append(pl.Entrants, Entrant{Name: fmt.Sprintf("e%d", i), Spec: s})
	}
	if format == SPRTMatch {
		pl.SPRT = &SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
	}
	if err := pl.Check(); err != nil {
		t.Fatal(err)
	}
	return pl
}

// Every pair of entrants meets once a round in each seat, on one seed per
// pair; the gauntlet pairs the first entrant with each other; shards
// split the schedule's pairs between them, each pair whole in one shard.
func TestSchedule(t *testing.T) {
	p := plan(t, RoundRobin, 2, "random", "greedy", "random", "greedy", "random")
	if p.Games() != 2*10*2 {
		t.Fatalf("%d games", p.Games())
	}
	meets := map[[2]int]int{}
	ids := map[string]bool{}
	for k := range p.Games() {
		g := p.At(k)
		meets[g.Seats]++
		if ids[g.ID(p)] {
			t.Fatalf("id %s twice", g.ID(p))
		}
		ids[g.ID(p)] = true
		if k%2 == 1 {
			prev := p.At(k - 1)
			if g.Seed != prev.Seed || g.Seats != [2]int{prev.Seats[1], prev.Seats[0]} || g.Pair != prev.Pair {
				t.Fatalf("game %d %+v does not pair with %+v", k, g, prev)
			}
		}
	}
	for a := range 5 {
		for b := range 5 {
			if want := map[bool]int{true: 0, false: 2}[a == b]; meets[[2]int{a, b}] != want {
				t.Errorf("%d as P1 against %d: %d games, want %d", a, b, meets[[2]int{a, b}], want)
			}
		}
	}
	gp := plan(t, Gauntlet, 1, "greedy", "random", "random", "random")
	for k := range gp.Games() {
		if g := gp.At(k); g.Seats[0] != 0 && g.Seats[1] != 0 {
			t.Errorf("gauntlet game %d without the first entrant: %v", k, g.Seats)
		}
	}
	for n := 1; n <= 4; n++ {
		count := make([]int, p.Games())
		for i := range n {
			sh := Shard{I: i, N: n}
			for k := range p.Games() {
				if sh.Has(k / 2) {
					count[k]++
				}
			}
		}
		for k, c := range count {
			if c != 1 {
				t.Fatalf("%d shards: game %d in %d shards", n, k, c)
			}
		}
	}
}

func TestPlanRefuses(t *testing.T) {
	p := plan(t, RoundRobin, 1, "random", "greedy")
	p.Entrants[1].Name = p.Entrants[0].Name
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "two entrants are named e0") {
		t.Errorf("two names: %v", err)
	}
	for _, bad := range []string{"noequals", "=strong", "a b=strong", "x=", "x=strnog:"} {
		if _, err := ParseEntrant(bad); err == nil {
			t.Errorf("entrant %q accepted", bad)
		}
	}
	for _, bad := range []string{"1/1", "-1/2", "2/2", "1", "a/b", "01/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
}

// A tournament run whole, and the same run cut short and resumed several
// times, record the same games with the same results.
func TestResumeGivesTheSameStandings(t *testing.T) {
	specs := []string{"random", "greedy", "strong:nodes=300", "random:seed=5"}
	wholeDir := t.TempDir()
	whole, err := Run(t.Context(), plan(t, RoundRobin, 2, specs...), Options{Dir: wholeDir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := plan(t, RoundRobin, 2, specs...)
	var s *Standings
	for cut := 3; ; cut += 5 {
		ctx, cancel := context.WithCancel(t.Context())
		seen := 0
		s, err = Run(ctx, p, Options{Dir: dir, Jobs: 2, Progress: func(Entry, *Standings, int) {
			if seen++; seen == cut {
				cancel()
			}
		}})
		cancel()
		if err == nil {
			break
		}
		if err != context.Canceled {
			t.Fatal(err)
		}
	}
	if s.Played != p.Games() || !reflect.DeepEqual(s.Points, whole.Points) || !reflect.DeepEqual(results(t, dir), results(t, wholeDir)) {
		t.Errorf("resumed %v, whole %v", s.Points, whole.Points)
	}
}

// results reads every game's result from a journal, by index.
func results(t *testing.T, dir string) map[int]string {
	out := map[int]string{}
	if err := Entries(dir, func(e Entry) error {
		out[e.Index] = mustJSON(e.Result)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A journal whose last line was cut by a crash loses that game only,
// which a rerun plays again; a damaged line before the last is refused by
// its line, and nothing is played.
func TestDamagedJournal(t *testing.T) {
	p := plan(t, RoundRobin, 1, "random", "greedy", "random")
	dir := t.TempDir()
	if _, err := Run(t.Context(), p, Options{Dir: dir, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	want := results(t, dir)
	path := filepath.Join(dir, JournalFile)
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	cut := strings.Join(lines[:len(lines)-2], "") + lines[len(lines)-2][:20] // the last line half written
	os.WriteFile(path, []byte(cut), 0o644)
	var log strings.Builder
	s, err := Run(t.Context(), p, Options{Dir: dir, Jobs: 1, Log: &log})
	if err != nil || s.Played != p.Games() || !reflect.DeepEqual(results(t, dir), want) {
		t.Fatalf("after a cut last line: %v, %d games", err, s.Played)
	}
	if !strings.Contains(log.String(), JournalFile+":6: a damaged last line") {
		t.Errorf("log %q", log.String())
	}
	data, _ = os.ReadFile(path)
	lines = strings.SplitAfter(string(data), "\n")
	lines[2] = "{garbage\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	if _, err := Run(t.Context(), p, Options{Dir: dir, Jobs: 1}); err == nil || !strings.Contains(err.Error(), JournalFile+":3: not a journal line") {
		t.Errorf("a damaged middle line: %v", err)
	}
}

// A directory of another tournament is refused, saying what differs; so
// is a replay directory that cannot be written.
func TestOtherTournamentRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(t.Context(), plan(t, RoundRobin, 1, "random", "greedy"), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(t.Context(), plan(t, RoundRobin, 1, "random", "strong"), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "holds another tournament (the entrants are") {
		t.Errorf("other entrants: %v", err)
	}
	other := plan(t, RoundRobin, 1, "random", "greedy")
	other.Seed++
	if _, err := Run(t.Context(), other, Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "the seed is 11, not 12") {
		t.Errorf("another seed: %v", err)
	}
	ro := t.TempDir()
	os.MkdirAll(filepath.Join(ro, ReplayDir), 0o555)
	if os.Geteuid() == 0 {
		// root writes anywhere: make the replay directory a file instead.
		os.Remove(filepath.Join(ro, ReplayDir))
		os.WriteFile(filepath.Join(ro, ReplayDir), nil, 0o644)
	}
	if _, err := Run(t.Context(), plan(t, RoundRobin, 1, "random", "greedy"), Options{Dir: ro}); err == nil || !strings.Contains(err.Error(), ReplayDir) {
		t.Errorf("a replay directory that cannot be written: %v", err)
	}
}

// Shards played apart and merged give the standings of one run.
func TestShardsMergeToOneRun(t *testing.T) {
	specs := []string{"random", "greedy", "strong:nodes=300"}
	whole, err := Run(t.Context(), plan(t, RoundRobin, 2, specs...), Options{Dir: t.TempDir(), Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for i := range 3 {
		p := plan(t, RoundRobin, 2, specs...)
		p.Shard = Shard{I: i, N: 3}
		d := t.TempDir()
		if _, err := Run(t.Context(), p, Options{Dir: d, Jobs: 1}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	out := t.TempDir()
	m, err := Merge(out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if m.Played != whole.Played || !reflect.DeepEqual(m.Points, whole.Points) {
		t.Errorf("merged %v, whole %v", m.Points, whole.Points)
	}
	if _, err := Merge(t.TempDir(), append(dirs, t.TempDir())); err == nil {
		t.Error("a directory with no tournament was merged")
	}
	odd := t.TempDir()
	if _, err := Run(t.Context(), plan(t, RoundRobin, 1, "random", "random"), Options{Dir: odd}); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(t.TempDir(), []string{dirs[0], odd}); err == nil || !strings.Contains(err.Error(), "another tournament") {
		t.Errorf("merging another tournament: %v", err)
	}
}

// The SPRT match stops once the test decides, at the same pair however
// many games run at once, and a rerun plays nothing more.
func TestSPRTStops(t *testing.T) {
	var pairs []int
	for _, j := range []int{1, 3} {
		p := plan(t, SPRTMatch, 500, "strong:nodes=2000", "random")
		s, err := Run(t.Context(), p, Options{Dir: t.TempDir(), Jobs: j})
		if err != nil {
			t.Fatal(err)
		}
		if s.Decision != "H1" {
			t.Fatalf("-j %d: decision %q after %d pairs, LLR %.2f", j, s.Decision, s.Penta.Pairs(), s.LLR)
		}
		pairs = append(pairs, s.Penta.Pairs())
	}
	if pairs[0] != pairs[1] {
		t.Errorf("decided after %d pairs with -j 1, %d with -j 3", pairs[0], pairs[1])
	}
}

// A full disk stops the journal with the file's name and what it said;
// the games written before stay written.
func TestJournalOnAFullDisk(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("no /dev/full to stand for a full disk: %v", err)
	}
	j := &journal{path: "t/games.jsonl", f: f, dirty: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go j.syncer()
	err = j.append(Entry{ID: "r0-p0-a", Result: &play.Result{}})
	if err == nil || !strings.Contains(err.Error(), "t/games.jsonl: write /dev/full: no space left on device (the games recorded before stay recorded)") {
		t.Errorf("append: %v", err)
	}
	if err := j.append(Entry{ID: "r0-p0-b", Result: &play.Result{}}); err == nil {
		t.Error("a second append went on after the disk filled")
	}
	j.close()
}
