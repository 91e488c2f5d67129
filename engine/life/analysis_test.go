package life

import (
	"context"
	"reflect"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// reference is what placing piece is worth to side against reply, by
// the game's own rules: the state stepped horizon generations with the
// piece and the reply placed first, own cells less the opponent's.
// Life's analysis holds its values to it.
func reference(s State, side match.Side, piece, reply Action, horizon int) float64 {
	score := func(mine Action) int {
		var acts [2]Action
		acts[side], acts[side.Other()] = mine, reply
		n := s.Next(acts[0], acts[1])
		for range horizon - 1 {
			n = n.Next(nil, nil)
		}
		return n.board.Count(side) - n.board.Count(side.Other())
	}
	return float64(score(piece))
}

// Every value a Life analysis gives, the K best's and the others', is
// the game's own rules stepped the horizon's generations with the piece
// and the predicted reply: the lookahead's windows change its cost, not
// its figures.
func TestAnalysisValuesAreTheRules(t *testing.T) {
	g := Game{}
	cfg := g.Presets()[0].Config
	setup := play.Setup{Game: g, Config: cfg, Seed: 3}
	setup.Players[0], _ = play.ParseSpec("strong")
	setup.Players[1], _ = play.ParseSpec("greedy")
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range []int{1, 10, 40} {
		s := rec.State(turn).(State)
		for _, side := range match.Sides {
			an, err := match.Analyse(Game{}, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: 3, Depth: 0})
			if err != nil {
				t.Fatal(err)
			}
			var reply Action
			if len(an.Best) > 0 && len(an.Best[0].Line) > 1 {
				reply = an.Best[0].Line[1].Action.(Action)
			}
			checked := 0
			for _, b := range an.Best {
				if want := reference(s, side, b.Action.(Action), reply, an.Depth); b.Value != want {
					t.Errorf("turn %d, %v, %s: the analysis says %v, the rules %v", turn, side, b.Move, b.Value, want)
				}
				checked++
			}
			for i, o := range an.Others {
				if !o.Exact {
					t.Errorf("turn %d, %v, %s: a value played out in full is marked a bound", turn, side, o.Move)
				}
				if i%7 != 0 {
					continue // a sample: the rules step the whole board
				}
				if want := reference(s, side, o.Action.(Action), reply, an.Depth); o.Bound != want {
					t.Errorf("turn %d, %v, %s: the analysis says %v, the rules %v", turn, side, o.Move, o.Bound, want)
				}
				checked++
			}
			if len(an.Best) != 3 || checked < 4 {
				t.Errorf("turn %d, %v: %d best, %d checked", turn, side, len(an.Best), checked)
			}
		}
	}
}

// A brief analysis (a report's) lists the full one's best and its
// played option, the same in every figure, and no others: whichever
// option was played, a best one, another piece or a placement of
// another shape.
func TestBriefAnalysisIsTheFullOnesBestAndPlayed(t *testing.T) {
	g := Game{}
	setup := play.Setup{Game: g, Config: g.Presets()[0].Config, Seed: 5}
	setup.Players[0], _ = play.ParseSpec("strong")
	setup.Players[1], _ = play.ParseSpec("greedy")
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range []int{2, 30} {
		s := rec.State(turn).(State)
		for _, side := range match.Sides {
			full, err := match.Analyse(g, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Others) < 10 {
				t.Fatalf("turn %d, %v: %d others", turn, side, len(full.Others))
			}
			for _, played := range []Action{
				full.Best[0].Action.(Action), full.Best[2].Action.(Action),
				full.Others[len(full.Others)/2].Action.(Action), full.Others[len(full.Others)-1].Action.(Action),
				rec.Turns[turn].Actions[side].(Action), {},
			} {
				q := match.Query{K: 3, Played: played}
				want, err := match.Analyse(g, match.NewTurn(s, side, nil, match.Budget{}), q)
				if err != nil {
					t.Fatal(err)
				}
				q.Brief = true
				got, err := match.Analyse(g, match.NewTurn(s, side, nil, match.Budget{}), q)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Best, want.Best) || !reflect.DeepEqual(got.Played, want.Played) {
					t.Errorf("turn %d, %v, played %v: brief best %v played %v; full best %v played %v",
						turn, side, played, got.Best, got.Played, want.Best, want.Played)
				}
				if got.Played == nil || len(got.Others) > 1 {
					t.Errorf("turn %d, %v, played %v: brief lists %d others, played %v", turn, side, played, len(got.Others), got.Played)
				}
			}
		}
	}
}
