// Package bot is a map-colouring bot: arena's greedy, move for move.
//
// Act is called for every move with t.State, the position (a
// mapcolor.State), t.Side, the side to move, t.Rand, the bot's own random
// source, and t.Spend, which counts the work done and says when the
// budget is spent. It returns a mapcolor.Move: a state and its colour.
package bot

import (
	"fmt"
	"math"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
)

// Act plays the colouring worth the most to its own side now; ties go
// to the first in the order Moves lists them (the course's).
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(mapcolor.State)
	p := s.Problem()
	weights := p.Weights[t.Side]
	var best mapcolor.Move
	bestWeight := math.MinInt
	for _, m := range s.Moves() {
		t.Spend(1)
		w := weights[colour(p, m.Colour)]
		// Mark the state with the colouring's weight, labelled with the
		// colour: Thinking (the T key) draws the marks on the map. A bot
		// that searches (alpha-beta) marks its best few with the exact
		// values its search found and the others with the bound that
		// refuted them, labelled "≤", as arena analyse lists them.
		t.Note.Mark(match.AtState(state(p, m.State)), float64(w), m.Colour)
		if w > bestWeight {
			best, bestWeight = m, w
		}
	}
	t.Note.SetEval(float64(bestWeight))
	t.Note.Text = fmt.Sprintf("weight %d now", bestWeight)
	return best, nil
}

// state is the index of a state's name in the problem's list.
func state(p *mapcolor.Problem, name string) int {
	for i, s := range p.States {
		if s == name {
			return i
		}
	}
	return -1
}

// colour is the index of a colour's name in the problem's list.
func colour(p *mapcolor.Problem, name string) int {
	for i, c := range p.Colours {
		if c == name {
			return i
		}
	}
	return -1
}
