package ladder

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/tournament"
)

// randomResults are games among n entrants of spread-out strengths, each
// pair meeting with probability meet, as a ladder's pairs do.
func randomResults(r *rand.Rand, n, games int, meet float64) Results {
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = r.NormFloat64() * 1.5
	}
	res := Results{N: n}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() >= meet {
				continue
			}
			m := 1 + r.IntN(games)
			pts := 0.0
			for range m {
				switch x := r.Float64(); {
				case x < 0.1:
					pts += 0.5
				case x < 0.1+0.9*logistic(strength[i]-strength[j]):
					pts++
				}
			}
			res.Pairs = append(res.Pairs, PairResult{I: i, J: j, Games: m, PointsI: pts})
		}
	}
	return res
}

// The sparse fit gives arena tournament's ratings and intervals: the
// same model, to 1e-6 Elo, on fields where everyone meets everyone and
// where few pairs meet. An entrant that plays no one (a version refused
// at its check) is not rated, and is not in the field: the others'
// figures are tournament's over those that played.
func TestFitIsTournamentsRatings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n     int
		meet  float64
		games int
	}{{2, 1, 4}, {8, 1, 20}, {40, 0.15, 6}, {60, 0.05, 3}} {
		res := randomResults(r, c.n, c.games, c.meet)
		// Two entrants more, who play no one.
		res.N += 2
		checkAgainstTournament(t, res)
	}
	// Two students, 400 games between them, six versions refused beside
	// them: the interval is the two's alone (it was ±373 with the six in).
	res := Results{N: 8, Pairs: []PairResult{{I: 2, J: 5, Games: 400, PointsI: 230}}}
	checkAgainstTournament(t, res)
	if f := FitResults(res); 1.96*f.SE(2) > 40 {
		t.Errorf("400 games between two: ±%.0f", 1.96*f.SE(2))
	}
}

// checkAgainstTournament holds res's fit to tournament.Ratings over the
// entrants that played.
func checkAgainstTournament(t *testing.T, res Results) {
	t.Helper()
	field := map[int]int{} // entrant: its place among those that played
	var order []int
	for _, p := range res.Pairs {
		for _, e := range []int{p.I, p.J} {
			if _, ok := field[e]; !ok {
				field[e] = -1
			}
		}
	}
	for e := range res.N {
		if _, ok := field[e]; ok {
			field[e] = len(order)
			order = append(order, e)
		}
	}
	n := len(order)
	points, games := make([][]float64, n), make([][]int, n)
	for i := range points {
		points[i], games[i] = make([]float64, n), make([]int, n)
	}
	for _, p := range res.Pairs {
		a, b := field[p.I], field[p.J]
		games[a][b] += p.Games
		games[b][a] += p.Games
		points[a][b] += p.PointsI
		points[b][a] += float64(p.Games) - p.PointsI
	}
	elo, se := tournament.Ratings(points, games)
	f := FitResults(res)
	for e := range res.N {
		k, played := field[e]
		if f.Rated(e) != played {
			t.Fatalf("entrant %d: rated %v, played %v", e, f.Rated(e), played)
		}
		if played && (math.Abs(f.Elo(e)-elo[k]) > 1e-6 || math.Abs(f.SE(e)-se[k]) > 1e-6) {
			t.Fatalf("%d entrants, %d pairs: entrant %d is %.9f ± %.9f, arena tournament's %.9f ± %.9f",
				res.N, len(res.Pairs), e, f.Elo(e), f.SE(e), elo[k], se[k])
		}
	}
}

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
