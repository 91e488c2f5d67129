package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
)

// A Finding is a game of the journal whose record does not hold: Line is
// its line in the journal.
type Finding struct {
	Line    int
	ID      string
	Problem string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: game %s: %s", JournalFile, f.Line, untrusted.Text(f.ID), f.Problem)
}

// Verify replays every game of the journal in dir through the engine, from
// its replay, and names each whose record does not hold: a game the
// schedule does not have, seats or a seed not the schedule's, a replay
// missing or damaged, a move the rules refuse, or a result its moves do
// not give. Only the runner writes a tournament's files, and the
// entrants' boxes cannot reach them; Verify is how a course's staff know
// it, before they grade by the standings. It returns how many games it
// checked.
func Verify(dir string) (games int, bad []Finding, err error) {
	d, err := safefile.OpenDir(dir, false)
	if err != nil {
		return 0, nil, err
	}
	defer d.Close()
	plan, err := loadPlan(d)
	if err != nil {
		return 0, nil, err
	}
	if plan == nil {
		return 0, nil, fmt.Errorf("%s: no %s: not a tournament's directory", dir, PlanFile)
	}
	line := 0
	_, dropped, err := readJournal(d, JournalFile, func(e Entry) error {
		line++
		games++
		if problem := verifyEntry(d, plan, e); problem != "" {
			bad = append(bad, Finding{Line: line, ID: e.ID, Problem: problem})
		}
		return nil
	})
	if err != nil {
		return games, bad, err
	}
	if dropped != "" {
		bad = append(bad, Finding{Line: line + 1, ID: "(cut short)", Problem: dropped})
	}
	return games, bad, nil
}

// verifyEntry says what does not hold of one journal entry, or "".
func verifyEntry(d *safefile.Dir, plan *Plan, e Entry) string {
	if e.Index < 0 || e.Index >= plan.Games() {
		return fmt.Sprintf("index %d: the schedule has games 0 to %d", e.Index, plan.Games()-1)
	}
	g := plan.At(e.Index)
	if want := g.ID(plan); e.ID != want {
		return fmt.Sprintf("game %d of the schedule is %s", e.Index, want)
	}
	if err := e.check(plan, g); err != nil {
		return err.Error()
	}
	seats := [2]string{plan.Entrants[g.Seats[0]].Name, plan.Entrants[g.Seats[1]].Name}
	if e.Seats != seats || e.Seed != g.Seed {
		return fmt.Sprintf("the journal gives seats %q and seed %d; the schedule, %q and %d", e.Seats, e.Seed, seats, g.Seed)
	}
	if e.Replay == "" {
		return "no replay: its moves cannot be checked"
	}
	data, err := d.ReadFile(e.Replay)
	if errors.Is(err, fs.ErrNotExist) {
		return "its replay " + e.Replay + " is missing: its moves cannot be checked"
	}
	if err != nil {
		return err.Error()
	}
	rec, err := play.LoadReplay(d.Join(e.Replay), data)
	if err != nil {
		return "its replay does not replay: " + err.Error()
	}
	for side, ent := range g.Seats {
		if rec.Players[side] != plan.Entrants[ent].Spec {
			return fmt.Sprintf("its replay's %s is %q; the schedule seats %s (%q)", match.Side(side), untrusted.Text(rec.Players[side]), plan.Entrants[ent].Name, plan.Entrants[ent].Spec)
		}
	}
	if rec.Seed != g.Seed || rec.Game.Info().Name != plan.Game {
		return fmt.Sprintf("its replay is of %s, seed %d; the schedule's, of %s, seed %d", rec.Game.Info().Name, rec.Seed, plan.Game, g.Seed)
	}
	setup, err := plan.Setup(g)
	if err != nil {
		return err.Error()
	}
	if a, b := configText(rec.Config), configText(setup.Config); a != b {
		return fmt.Sprintf("its replay's config %s is not the tournament's %s", a, b)
	}
	if !reflect.DeepEqual(rec.Result, e.Result) {
		return fmt.Sprintf("the journal says %s; its moves give %s", resultText(e.Result), resultText(rec.Result))
	}
	return ""
}

// configText is a config as JSON, to compare two.
func configText(c match.Config) string {
	b, err := json.Marshal(c)
	if err != nil {
		return err.Error()
	}
	return untrusted.Text(string(b))
}

// resultText is a result in words, for a finding.
func resultText(r *play.Result) string {
	if r == nil {
		return "no result"
	}
	b, _ := json.Marshal(r)
	return untrusted.Text(string(b))
}
