package analysis

import (
	"math"

	"github.com/arena-playground/arena/engine/colosseum"

	"github.com/arena-playground/arena/engine/match"
)

// Scale maps an analysis's value for the mover to the mover's expected
// points: σ(Slope·v + Offset), σ the logistic function. A game's scale
// is fitted from arena's games (Fit, BenchmarkWinScale), the value
// being the analysis's at its stated budget and the points the game's
// final result for the mover.
type Scale struct {
	Slope, Offset float64
}

// Expected is the mover's expected points of a value with its outcome:
// a proven outcome is the result itself (1, ½, 0), any other value the
// scale's map of it.
func (s Scale) Expected(v float64, outcome string, proven bool) float64 {
	if proven {
		switch outcome {
		case "win":
			return 1
		case "draw":
			return 0.5
		case "loss":
			return 0
		}
	}
	return sigmoid(s.Slope*v + s.Offset)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Scaled is a value of s as a scale reads it: Colosseum's cells as a
// percentage of its board (a lead of 18 cells is half a 6x6 board and an
// eighth of a 12x12 one), the other games' as they are.
func Scaled(s match.State, v float64) float64 {
	if c, ok := s.(colosseum.State); ok {
		n := c.Board().N
		return 100 * v / float64(n*n)
	}
	return v
}

// scales are the fitted scales of the games, by name: the figures
// BenchmarkWinScale prints, fitted on its games at the stated budgets
// (docs/analysis.md has the fit's quality).
var scales = map[string]Scale{
	"colosseum": {Slope: 0.029576, Offset: 0.09292},  // per percent of the board
	"mapcolor":  {Slope: 0.24263, Offset: 0.2565},    // per point, on the USA map
	"life":      {Slope: 0.054588, Offset: -0.9545},  // per cell ahead after the horizon
	"pathgame":  {Slope: 0.32786, Offset: 0.0009642}, // per unit of the walk's cost
	"evasion":   {Slope: 3.3819e-05, Offset: -2.101}, // per cell of the prey's region: a weak fit (docs/analysis.md)
}

// ScaleOf is the game's fitted scale, and whether it has one.
func ScaleOf(g match.Game) (Scale, bool) {
	s, ok := scales[g.Info().Name]
	return s, ok
}
