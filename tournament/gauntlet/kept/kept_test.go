package kept

import (
	"encoding/json"
	"strings"
	"testing"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	_ "github.com/arena-playground/arena/players" // the go: kind
	"github.com/arena-playground/arena/tournament"
)

// The plan is the one arena tournament -format gauntlet makes of the same
// entrants (bot=go:bot.go then each built-in bot), and the key follows
// the source: the same source resumes, an edit is a new run.
func TestForSource(t *testing.T) {
	a, err := ForSource("colosseum", "", "go:bot.go", "package bot\n", 2)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := match.Lookup("colosseum")
	if a.Plan.Format != tournament.Gauntlet || a.Plan.Rounds != 2 || a.Plan.Seed != 1 || len(a.Plan.Entrants) != 1+len(g.Bots()) ||
		a.Plan.Entrants[0] != (tournament.Entrant{Name: BotName, Spec: "go:bot.go"}) {
		t.Errorf("plan %+v", a.Plan)
	}
	same, _ := ForSource("colosseum", "", "go:bot.go", "package bot\n", 2)
	edited, _ := ForSource("colosseum", "", "go:bot.go", "package bot // edited\n", 2)
	more, _ := ForSource("colosseum", "", "go:bot.go", "package bot\n", 5)
	byName, _ := ForSource("colosseum", "course", "go:bot.go", "package bot\n", 2) // the default, by its name
	other, err := ForSource("colosseum", "9", "go:bot.go", "package bot\n", 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Key != same.Key || a.Key == edited.Key || a.Key == more.Key || byName.Key != a.Key || other.Key == a.Key {
		t.Errorf("keys: %s, again %s, edited %s, 5 pairs %s, the default board by name %s, board 9 %s", a.Key, same.Key, edited.Key, more.Key, byName.Key, other.Key)
	}
	nine, _ := match.LookupPreset(g, "9")
	if want, _ := json.Marshal(nine.Config); other.Plan.Board != "9" || string(other.Plan.Config) != string(want) {
		t.Errorf("board 9's plan: %s %s, want the preset's config %s", other.Plan.Board, other.Plan.Config, want)
	}
	if _, err := ForSource("colosseum", "13", "go:bot.go", "package bot\n", 2); err == nil || !strings.Contains(err.Error(), "unknown preset") {
		t.Errorf("board 13: %v", err)
	}
	for _, bad := range []struct {
		spec  string
		pairs int
		want  string
	}{{"strong", 2, "written in the page"}, {"go:bot.go", 0, "1 to 500"}, {"go:bot.go", MaxPairs + 1, "1 to 500"}} {
		if _, err := ForSource("colosseum", "", bad.spec, "package bot\n", bad.pairs); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s, %d pairs: %v", bad.spec, bad.pairs, err)
		}
	}
	run := Run{Key: a.Key, Game: "colosseum", Spec: "go:bot.go", Pairs: 2, Source: "package bot // changed in the store\n"}
	if _, err := run.Gauntlet(); err == nil {
		t.Error("a kept run whose source does not give its key was taken")
	}
}

// game is a played game of the plan: the bot (seat 0 in even games) wins
// or loses.
func game(p *tournament.Plan, k int, botWins bool) tournament.Entry {
	g := p.At(k)
	winner := match.P1
	if (g.Seats[0] == 0) != botWins {
		winner = match.P2
	}
	return tournament.Entry{Index: k, ID: g.ID(p), Seed: g.Seed, Seats: [2]string{p.Entrants[g.Seats[0]].Name, p.Entrants[g.Seats[1]].Name},
		Result: &play.Result{Outcome: match.Outcome{Winner: winner, Reason: "test"}, Turns: 1}, Moves: [2]int{1, 1}}
}

// The standings count each game once; what the plan refuses is skipped
// and said; a run stopped early, or played by another source, says so.
func TestStandingsAndSummary(t *testing.T) {
	g, _ := ForSource("colosseum", "", "go:bot.go", "package bot\n", 2)
	past := game(g.Plan, 0, true)
	past.Index = g.Plan.Games() // past the schedule
	es := []tournament.Entry{game(g.Plan, 0, true), game(g.Plan, 1, true), game(g.Plan, 1, true), past}
	s, done, skipped := g.Standings(es)
	if s.Played != 2 || !done[0] || !done[1] || done[2] || !strings.Contains(skipped, "2 kept games were not counted") {
		t.Fatalf("played %d, done %v, skipped %q", s.Played, done[:3], skipped)
	}
	run := Run{Key: g.Key, Game: "colosseum", Spec: "go:bot.go", Pairs: 2, Source: "package bot\n"}
	sum := Summary(run, s, "package bot\n", false)
	if sum.Wins != 2 || sum.Played != 2 || sum.Total != g.Plan.Games() || !strings.Contains(sum.Note, "stopped after 2 of") || sum.Lines != 1 {
		t.Errorf("summary %+v", sum)
	}
	if sum := Summary(run, s, "package bot\n", true); sum.Note != "" {
		t.Errorf("the run playing says %q", sum.Note)
	}
	if sum := Summary(run, s, "package bot // edited\n", true); !strings.Contains(sum.Note, "another version") {
		t.Errorf("a run of another source says %q", sum.Note)
	}
}

// Change says better or worse only when the difference's interval
// excludes 0, and says so.
func TestChange(t *testing.T) {
	g, _ := ForSource("colosseum", "", "go:bot.go", "package bot\n", 20)
	standings := func(wins int) *tournament.Standings {
		var es []tournament.Entry
		for k := range g.Plan.Games() {
			es = append(es, game(g.Plan, k, k%g.Plan.Games() < wins*g.Plan.Games()/100))
		}
		s, _, _ := g.Standings(es)
		return s
	}
	weak, strong, strongToo := standings(20), standings(80), standings(80)
	for _, c := range []struct {
		before, after *tournament.Standings
		want          string
	}{{weak, strong, "better, and the interval excludes 0"}, {strong, weak, "worse, and the interval excludes 0"}, {strong, strongToo, "the interval holds 0"}} {
		if got := Change(c.before, c.after); !strings.Contains(got, c.want) {
			t.Errorf("want %q in %q", c.want, got)
		}
	}
}

// The latest finished run is compared with the one before it on its own
// board: a run on another board in between is passed over, and a board
// played once has nothing to compare with.
func TestLatestChange(t *testing.T) {
	played := func(board string, wins int) *tournament.Standings {
		g, err := ForSource("colosseum", board, "go:bot.go", "package bot\n", 20)
		if err != nil {
			t.Fatal(err)
		}
		var es []tournament.Entry
		for k := range g.Plan.Games() {
			es = append(es, game(g.Plan, k, k < wins*g.Plan.Games()/100))
		}
		s, _, _ := g.Standings(es)
		return s
	}
	weak, otherBoard, strong := played("", 20), played("9", 95), played("", 80)
	if got := LatestChange([]*tournament.Standings{strong, otherBoard, weak}); !strings.Contains(got, "better, and the interval excludes 0") {
		t.Errorf("the default board's two runs, one on board 9 between: %q", got)
	}
	if got := LatestChange([]*tournament.Standings{otherBoard, strong, weak}); got != "" {
		t.Errorf("board 9 played once is compared: %q", got)
	}
	if got := LatestChange(nil); got != "" {
		t.Errorf("no runs: %q", got)
	}
}
