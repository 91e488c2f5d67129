package ladder

import "testing"

// A version with a handful of games and a high rating does not rank
// above the established ones; one that has not played is last and
// unrated; equal ratings share a rank.
func TestRankRows(t *testing.T) {
	rows := []Row{
		{Name: "erin", Rated: true, Rating: 250, Games: 5, Provisional: true},
		{Name: "alice", Rated: true, Rating: 40, Games: 930},
		{Name: "bob", Rated: true, Rating: -40, Games: 930},
		{Name: "dave", Rated: false, Games: 0, Provisional: true},
		{Name: "carol", Rated: true, Rating: 40.3, Games: 200},
		{Name: "frank", Rated: true, Rating: -300, Games: 3, Provisional: true},
	}
	rankRows(rows)
	want := []struct {
		name string
		rank int
		tied bool
	}{{"alice", 1, true}, {"carol", 1, true}, {"bob", 3, false}, {"erin", 4, false}, {"frank", 5, false}, {"dave", 6, false}}
	for i, w := range want {
		if r := rows[i]; r.Name != w.name || r.Rank != w.rank || r.Tied != w.tied {
			t.Errorf("row %d: %s #%d tied %v, want %s #%d tied %v", i, r.Name, r.Rank, r.Tied, w.name, w.rank, w.tied)
		}
	}
}
