package analysis

import "math"

// MoveAccuracy is lichess's accuracy of a move (lila's
// AccuracyPercent.scala) from the mover's win% (expected points × 100)
// before and after it: 100 for a move that loses nothing, falling
// steeply with the win% lost; the +1 is lichess's allowance for the
// analysis's own uncertainty. Clamped to 0-100.
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	a := 103.1668*math.Exp(-0.04354*(before-after)) - 3.1669 + 1
	return max(0, min(100, a))
}

// GameAccuracy is lichess's accuracy of a side over a game: the mean of
// the move accuracies weighted by how much the position swung around
// each move (the standard deviation of the win% over a window of
// moves, clamped to 0.5-12, so that calm moves count little and the
// critical ones much), and their harmonic mean (which one bad move pulls
// down); before are the win% of the side's positions, in order. A move
// accuracy of 0 counts as 1 in the harmonic mean, where 0 is undefined.
// A side with no decision has accuracy 100.
func GameAccuracy(before, accuracies []float64) float64 {
	n := len(accuracies)
	if n == 0 {
		return 100
	}
	w := max(2, min(8, n/10))
	weights := make([]float64, n)
	for i := range n {
		// lichess's windows: the first window for the first moves, then
		// the window ending at each move.
		lo := max(0, i+1-w)
		hi := min(len(before), lo+w)
		weights[i] = max(0.5, min(12, stddev(before[lo:hi])))
	}
	var wsum, wacc, inv float64
	for i, a := range accuracies {
		wsum += weights[i]
		wacc += weights[i] * a
		inv += 1 / max(1, a)
	}
	return (wacc/wsum + float64(n)/inv) / 2
}

// stddev is the population standard deviation of xs.
func stddev(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return math.Sqrt(v / float64(len(xs)))
}
