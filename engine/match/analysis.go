package match

import (
	"errors"
	"fmt"
	"sync"
)

// Analysis is a position analysed by a game's search, as a chess
// analysis board shows one: the best options with exact values, each
// with the line the search expects, per player, and for every other
// option the reply that refutes it and the value it is refuted at.
// Values are the mover's, in the game's unit.
type Analysis struct {
	Game  string `json:"game"`
	Turn  int    `json:"turn"`
	Side  Side   `json:"side"`
	Depth int    `json:"depth"` // plies, of the deepest search completed
	Nodes int64  `json:"nodes"`
	// Unit says what a value counts ("cells the mover reaches first
	// minus the opponent's"); a won or lost game is beyond any count and
	// says so in Variation.Outcome.
	Unit string `json:"unit"`
	// Best are the K best options, best first, each value exact: a
	// full-window search of the option at Depth gives the same.
	Best []Variation `json:"best"`
	// Others are the remaining options, best bound first: each is worth
	// at most its value, which the reply proves.
	Others []Refutation `json:"others"`
}

// Variation is an option with its exact value and its line.
type Variation struct {
	Move    string     `json:"move"`   // in the game's notation, as notes' lines write it
	Action  Action     `json:"action"` // the game's action, as replays keep it
	Place   Place      `json:"place"`
	Value   float64    `json:"value"`
	Outcome string     `json:"outcome,omitempty"` // "win" or "loss" once the search sees the end
	Line    []LineMove `json:"line"`              // the option first, then the replies expected
}

// LineMove is a move of a line, with the side that plays it.
type LineMove struct {
	Side   Side   `json:"side"`
	Move   string `json:"move"`
	Action Action `json:"action"`
	Place  Place  `json:"place"`
}

// Refutation is an option outside the best, with the reply that refutes
// it and the value it is refuted at: the option is worth at most Bound.
type Refutation struct {
	Move    string    `json:"move"`
	Action  Action    `json:"action"`
	Place   Place     `json:"place"`
	Bound   float64   `json:"bound"`
	Outcome string    `json:"outcome,omitempty"` // "loss" when the reply wins
	Reply   *LineMove `json:"reply,omitempty"`   // nil when the option ends the game
}

// Analyser analyses a game's positions: its strong search, made to give
// exact values for the best K options. The search counts its nodes on
// the turn (t.Budget), and stops deepening at depth plies (0: as deep as
// the budget allows), so that the same depth or nodes give the same
// figures on every machine.
type Analyser interface {
	Analyse(t *Turn, k, depth int) (*Analysis, error)
}

// ErrNoAnalyser is a game whose positions nothing analyses yet.
var ErrNoAnalyser = errors.New("no analysis is made for this game yet")

var analysers sync.Map // game name: Analyser

// RegisterAnalyser makes a the analyser of the game named name: each
// game's package registers its own, as it registers its bots.
func RegisterAnalyser(name string, a Analyser) { analysers.Store(name, a) }

// Analyse analyses the position of t with the game's analyser.
func Analyse(game string, t *Turn, k, depth int) (*Analysis, error) {
	a, ok := analysers.Load(game)
	if !ok {
		return nil, fmt.Errorf("%s: %w", game, ErrNoAnalyser)
	}
	if k < 1 {
		return nil, fmt.Errorf("analysis: k is %d; it is the number of best options to give, 1 or more", k)
	}
	if t.State.ToMove() == Nobody {
		return nil, errors.New("analysis: the game is over at this turn: there is no move to analyse")
	}
	an, err := a.(Analyser).Analyse(t, k, depth)
	if err != nil {
		return nil, err
	}
	an.Game, an.Turn, an.Side = game, t.State.Turn(), t.Side
	return an, nil
}
