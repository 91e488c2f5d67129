package ladder

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/tournament"
)

// The deadline. The staff freeze the ladder: no version is taken after,
// and a final round robin of each student's latest ready version
// follows, rounds rounds of every pair in both seats, on the seeds
// arena tournament gives its schedule (seed 1, pair k on seed 1+k): the
// ranking to grade by is that tournament's, its report the one arena
// tournament report writes, and a CSV beside it.

// MaxFinalRounds bounds the final round robin.
const MaxFinalRounds = 100

// Freeze closes submissions and queues the final round robin; a ladder
// frozen already keeps its final.
func (s *Store) Freeze(ctx context.Context, rounds int) error {
	if rounds < 1 || rounds > MaxFinalRounds {
		return fmt.Errorf("%d rounds: the final round robin plays 1 to %d", rounds, MaxFinalRounds)
	}
	sn, err := s.read(ctx, false)
	if err != nil {
		return err
	}
	plan, err := s.finalPlan(ctx, sn, rounds)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(t *sql.Tx) error {
		var frozen string
		t.QueryRow(`SELECT value FROM meta WHERE key = 'frozen'`).Scan(&frozen)
		if frozen != "" {
			return fmt.Errorf("%w already (at %s)", errFrozenAlready, frozen)
		}
		b, err := json.Marshal(plan)
		if err != nil {
			return err
		}
		for k, v := range map[string]string{"frozen": time.Now().UTC().Format(time.RFC3339), "final": string(b)} {
			if _, err := t.Exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
				return err
			}
		}
		// The ladder's games not yet played are not: the final takes the workers.
		if _, err := t.Exec(`DELETE FROM games WHERE kind = 'ladder' AND state != 'done'`); err != nil {
			return err
		}
		for k := range plan.Games() {
			g := plan.At(k)
			a, _ := strconv.ParseInt(plan.Entrants[g.Seats[0]].Spec, 10, 64)
			b, _ := strconv.ParseInt(plan.Entrants[g.Seats[1]].Spec, 10, 64)
			if _, err := t.Exec(`INSERT INTO games (kind, p1, p2, seed, round, state) VALUES ('final', ?, ?, ?, ?, 'queued')`, a, b, g.Seed, k); err != nil {
				return err
			}
		}
		return nil
	})
}

// errFrozenAlready is a second freeze.
var errFrozenAlready = errors.New("the ladder is frozen")

// finalPlan is the final round robin as arena tournament plans it: the
// entrants are the students, in name order, each spec the version id
// that plays for them.
func (s *Store) finalPlan(ctx context.Context, sn *snapshot, rounds int) (*tournament.Plan, error) {
	game, _ := s.Meta("game")
	board, _ := s.Meta("board")
	cfg, _ := s.Meta("config")
	plan := &tournament.Plan{Game: game, Board: board, Config: json.RawMessage(cfg), Seed: 1, Format: tournament.RoundRobin, Rounds: rounds,
		Clock: play.CPUClock} // the workers' clocks are fair
	names, err := s.Students(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range names { // in name order
		if i, ok := sn.latest[n]; ok {
			plan.Entrants = append(plan.Entrants, tournament.Entrant{Name: n, Spec: strconv.FormatInt(sn.versions[i].ID, 10)})
		}
	}
	if len(plan.Entrants) < 2 {
		return nil, fmt.Errorf("%d students have a ready version: a final round robin needs 2", len(plan.Entrants))
	}
	return plan, nil
}

// FinalGames are the final's games as journal entries, and where each
// one's replay is served, by the entry's ID.
type FinalGames struct {
	Entries []tournament.Entry
	Replays map[string]string
	// Remaining are the final's games not yet played (queued, leased, or
	// played and not counted: Failed of them could not be played).
	Remaining, Failed int
}

// Final is the final round robin's standings, as arena tournament counts
// them, with its games; nil before the freeze.
func (s *Store) Final(ctx context.Context) (*tournament.Standings, *FinalGames, error) {
	data, _ := s.Meta("final")
	if data == "" {
		return nil, nil, nil
	}
	var plan tournament.Plan
	if err := json.Unmarshal([]byte(data), &plan); err != nil {
		return nil, nil, fmt.Errorf("the final's plan: %v", err)
	}
	games, err := s.Games(ctx, FinalGame, "done")
	if err != nil {
		return nil, nil, err
	}
	failed := 0
	st := tournament.NewStandings(&plan)
	fg := &FinalGames{Replays: map[string]string{}}
	for _, g := range games {
		if g.Result == nil || g.Round < 0 || g.Round >= plan.Games() {
			failed++ // a game that could not be played: it is not counted
			continue
		}
		pg := plan.At(g.Round)
		id := pg.ID(&plan)
		var e tournament.Entry
		if g.Tally != nil { // the moves, times and replaced moves, as the worker counted them
			e = *g.Tally
		}
		e.Index, e.ID, e.Seed, e.Result = g.Round, id, g.Seed, g.Result
		e.Seats = [2]string{plan.Entrants[pg.Seats[0]].Name, plan.Entrants[pg.Seats[1]].Name}
		e.Replay = tournament.ReplayDir + "/" + id + ".json"
		if err := st.Add(e); err != nil {
			return nil, nil, err
		}
		fg.Entries = append(fg.Entries, e)
		fg.Replays[id] = fmt.Sprintf("/api/ladder/games/%d/replay", g.ID)
	}
	st.Rate()
	fg.Remaining = plan.Games() - len(fg.Entries) - failed
	fg.Failed = failed
	return st, fg, nil
}

// ErrFinalUnplayed is a final asked for before its games are played.
var ErrFinalUnplayed = errors.New("the final round robin is not played yet")

// Absent says, for each student of the roster with no entrant in the
// final, why: nothing submitted, or the state and reason of their last
// version.
func (s *Store) Absent(ctx context.Context, st *tournament.Standings) (map[string]string, error) {
	names, err := s.Students(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := s.Versions(ctx, "")
	if err != nil {
		return nil, err
	}
	last := map[string]Version{}
	for _, v := range vs { // in id order: the last is the latest
		last[v.Student] = v
	}
	in := map[string]bool{}
	for _, e := range st.Entrants {
		in[e.Name] = true
	}
	out := map[string]string{}
	for _, n := range names {
		if in[n] {
			continue
		}
		v, ok := last[n]
		switch {
		case !ok:
			out[n] = "no version submitted"
		case v.State == Refused:
			out[n] = fmt.Sprintf("no ready version at the freeze: v%d was refused: %s", v.Number, v.Reason)
		default:
			out[n] = fmt.Sprintf("no ready version at the freeze: v%d was %s", v.Number, v.State)
		}
	}
	return out, nil
}

// WriteFinalCSV writes the final's standings for grading: one row a
// student of the roster, best first, then those with no entrant in the
// final (absent: why), so that a grade book finds every student; the
// note column says what a row's figures do not.
func WriteFinalCSV(w io.Writer, st *tournament.Standings, absent map[string]string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "rating", "low", "high", "games", "wins", "draws", "losses", "points", "forfeits", "replaced", "note"})
	for rank, i := range st.Order() {
		e := st.Entrants[i]
		note := ""
		if e.Replaced > 0 {
			note = fmt.Sprintf("%d moves replaced by the rules", e.Replaced)
		}
		cw.Write([]string{strconv.Itoa(rank + 1), cellText(e.Name), tournament.EloText(e.Elo), tournament.EloText(e.EloLow), tournament.EloText(e.EloHigh),
			strconv.Itoa(e.Games), strconv.Itoa(e.Wins), strconv.Itoa(e.Draws), strconv.Itoa(e.Losses), strconv.FormatFloat(e.Points, 'f', -1, 64),
			strconv.Itoa(e.Forfeits), strconv.Itoa(e.Replaced), cellText(note)})
	}
	names := make([]string, 0, len(absent))
	for n := range absent {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		cw.Write([]string{"", cellText(n), "", "", "", "0", "0", "0", "0", "0", "0", "0", cellText(absent[n])})
	}
	cw.Flush()
	return cw.Error()
}

// WriteFinalReport writes the final's report, as arena tournament report
// writes one, its games' replays linked on this server.
func WriteFinalReport(w io.Writer, st *tournament.Standings, fg *FinalGames) error {
	return tournament.WriteReportOf(w, st, func(f func(tournament.Entry) error) error {
		for _, e := range fg.Entries {
			if err := f(e); err != nil {
				return err
			}
		}
		return nil
	}, func(e tournament.Entry) (string, string) { return fg.Replays[e.ID], fg.Replays[e.ID] })
}
