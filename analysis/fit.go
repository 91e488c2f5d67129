package analysis

import (
	"math"

	"github.com/arena-playground/arena/engine/play"
)

// Sample is one decision's evidence for a scale: the value of the
// position for the mover at the analysis's budget, and the points the
// mover's side scored in the end.
type Sample struct {
	Value, Points float64
}

// Samples are a reported game's samples: each decision whose value is
// not a proven result (those need no scale), with the final points.
func Samples(r *Report, result *play.Result) []Sample {
	var out []Sample
	for _, d := range r.Decisions {
		if d.Exact || d.Unvalued {
			continue
		}
		out = append(out, Sample{d.Scaled, result.Points(d.Side)})
	}
	return out
}

// Fit is the scale that fits the samples best: the logistic regression
// of the points on the value, by Newton's method on the log loss (the
// points of a draw, ½, count as half a win and half a loss).
func Fit(samples []Sample) Scale {
	var s Scale
	for range 50 {
		// gradient and Hessian of the mean log loss in (slope, offset)
		var g0, g1, h00, h01, h11 float64
		for _, x := range samples {
			p := sigmoid(s.Slope*x.Value + s.Offset)
			e, w := p-x.Points, p*(1-p)
			g0 += e * x.Value
			g1 += e
			h00 += w * x.Value * x.Value
			h01 += w * x.Value
			h11 += w
		}
		det := h00*h11 - h01*h01
		if det <= 1e-12 || math.IsNaN(det) {
			break
		}
		d0 := (h11*g0 - h01*g1) / det
		d1 := (h00*g1 - h01*g0) / det
		s.Slope -= d0
		s.Offset -= d1
		if math.Abs(d0) < 1e-12 && math.Abs(d1) < 1e-9 {
			break
		}
	}
	return s
}

// Quality is how well a scale predicts results it was not fitted on.
type Quality struct {
	Samples int
	// LogLoss and Brier are the scale's mean log loss and Brier score
	// (squared error of the expected points); BaseLogLoss and BaseBrier
	// are a constant guess's, the fitted samples' mean points: what
	// knowing nothing of the position scores.
	LogLoss, BaseLogLoss float64
	Brier, BaseBrier     float64
}

// Measure is the quality of s on held-out samples, against the constant
// guess base.
func Measure(s Scale, base float64, held []Sample) Quality {
	q := Quality{Samples: len(held)}
	for _, x := range held {
		p := sigmoid(s.Slope*x.Value + s.Offset)
		q.LogLoss += logLoss(p, x.Points)
		q.BaseLogLoss += logLoss(base, x.Points)
		q.Brier += (p - x.Points) * (p - x.Points)
		q.BaseBrier += (base - x.Points) * (base - x.Points)
	}
	if n := float64(len(held)); n > 0 {
		q.LogLoss, q.BaseLogLoss, q.Brier, q.BaseBrier = q.LogLoss/n, q.BaseLogLoss/n, q.Brier/n, q.BaseBrier/n
	}
	return q
}

func logLoss(p, y float64) float64 {
	p = max(1e-9, min(1-1e-9, p))
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// Mean is the samples' mean points.
func Mean(samples []Sample) float64 {
	var sum float64
	for _, x := range samples {
		sum += x.Points
	}
	return sum / float64(max(1, len(samples)))
}
