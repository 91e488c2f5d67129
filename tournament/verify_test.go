package tournament

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// A tournament as its runner wrote it verifies whole. Each way a journal
// or its replays can be rewritten to credit an entrant with a game it
// did not win is named by the line of the game it touches: a result
// changed, seats swapped, a replay edited to a move the rules refuse, a
// replay of another game put in a game's place, a replay removed.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, RoundRobin, 1, "random", "greedy", "strong:nodes=300")
	if _, err := Run(t.Context(), p, Options{Dir: dir, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	games, bad, err := Verify(dir)
	if err != nil || len(bad) != 0 || games != p.Games() {
		t.Fatalf("the runner's own tournament: %d games, %v, %v", games, bad, err)
	}
	journal, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	lines := bytes.Split(bytes.TrimRight(journal, "\n"), []byte("\n"))
	entry := func(k int) Entry {
		var e Entry
		json.Unmarshal(lines[k], &e)
		return e
	}
	lost := -1 // a game the first seat lost
	for k := range lines {
		if e := entry(k); e.Result.Winner == match.P2 {
			lost = k
			break
		}
	}
	if lost < 0 {
		t.Fatal("no game that P1 lost")
	}
	for _, c := range []struct {
		name string
		edit func(t *testing.T)
		want string
	}{
		{"a result credited to the loser", func(t *testing.T) {
			e := entry(lost)
			e.Result.Winner = match.P1
			lines[lost], _ = json.Marshal(e)
		}, "its moves give"},
		{"seats swapped", func(t *testing.T) {
			e := entry(lost)
			e.Seats[0], e.Seats[1] = e.Seats[1], e.Seats[0]
			lines[lost], _ = json.Marshal(e)
		}, "the schedule"},
		{"a move the rules refuse", func(t *testing.T) {
			f := filepath.Join(dir, entry(lost).Replay)
			data, _ := os.ReadFile(f)
			var rp map[string]any
			json.Unmarshal(data, &rp)
			turns := rp["turns"].([]any)
			turns[0].(map[string]any)["actions"] = []any{[]any{99, 99, 0}, nil}
			data, _ = json.Marshal(rp)
			os.WriteFile(f, data, 0o644)
		}, "its replay does not replay"},
		{"another game's replay in its place", func(t *testing.T) {
			other := filepath.Join(dir, entry((lost+2)%len(lines)).Replay)
			data, _ := os.ReadFile(other)
			os.WriteFile(filepath.Join(dir, entry(lost).Replay), data, 0o644)
		}, "the schedule"},
		{"its replay removed", func(t *testing.T) {
			os.Remove(filepath.Join(dir, entry(lost).Replay))
		}, "missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			saved := bytes.Clone(journal)
			replay := filepath.Join(dir, entry(lost).Replay)
			savedReplay, _ := os.ReadFile(replay)
			defer func() {
				os.WriteFile(filepath.Join(dir, JournalFile), saved, 0o644)
				os.WriteFile(replay, savedReplay, 0o644)
				lines = bytes.Split(bytes.TrimRight(saved, "\n"), []byte("\n"))
			}()
			c.edit(t)
			os.WriteFile(filepath.Join(dir, JournalFile), append(bytes.Join(lines, []byte("\n")), '\n'), 0o644)
			_, bad, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(bad) != 1 || bad[0].Line != lost+1 || !strings.Contains(bad[0].Problem, c.want) {
				t.Errorf("findings %v, want line %d saying %q", bad, lost+1, c.want)
			}
		})
	}
}

// A gauntlet ranks by rating, not points: the entrant under test plays as
// many games as the others together, and half its 12 points must not put
// it above a bot that won all its 4 games against it.
func TestGauntletRanksByRating(t *testing.T) {
	p := plan(t, Gauntlet, 2, "random", "greedy", "strong:nodes=300", "random:seed=5")
	s := NewStandings(p)
	// me (0) against each other (1, 2, 3), 4 games each: 4-0 against 1
	// and 3, 0-4 against 2.
	for j, pts := range map[int]float64{1: 4, 2: 0, 3: 4} {
		s.Points[0][j], s.Points[j][0] = pts, 4-pts
		s.Games[0][j], s.Games[j][0] = 4, 4
	}
	for i := range s.Entrants {
		for j := range s.Entrants {
			s.Entrants[i].Points += s.Points[i][j]
			s.Entrants[i].Games += s.Games[i][j]
		}
	}
	s.Rate()
	order := s.Order()
	if order[0] != 2 || order[1] != 0 {
		t.Errorf("order %v (points %v, ratings %.0f %.0f %.0f %.0f): want strong (2), who won all its games, above the entrant under test (0) with 8 of 12",
			order, []float64{s.Entrants[0].Points, s.Entrants[1].Points, s.Entrants[2].Points, s.Entrants[3].Points},
			s.Entrants[0].Elo, s.Entrants[1].Elo, s.Entrants[2].Elo, s.Entrants[3].Elo)
	}
}
