package life

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser is strong's lookahead made to explain a position. Life's
// moves are simultaneous: strong predicts the opponent's reply (the
// greedy choice) and simulates the board some generations with each of
// its candidate pieces (single cells and L-trominoes) against it. Every
// piece is simulated in full, so every value is exact at that horizon,
// the K best's and the others' alike; the others' "refutation" is the
// reply they were simulated against, the same for all. The depth is the
// horizon, in generations (strong's 4 by default, fewer near the end).
type analyser struct{}

// analysisUnit is what a Life value counts.
const analysisUnit = "cells: the mover's live cells less the opponent's after the horizon's generations against the predicted reply"

func (analyser) Nodes(match.State) int64 { return strongNodes }

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	side, k := t.Side, q.K
	h := min(4, s.cfg.Iterations-s.iter)
	if q.Depth > 0 {
		h = min(q.Depth, s.cfg.Iterations-s.iter)
	}
	h = max(h, 1)
	reply, sim, pieces, all := weigh(s, side, h, t.Spend)
	if !all {
		return nil, fmt.Errorf("analysis: %w, after %d pieces (%v)", match.ErrBudget, len(pieces), t.Budget)
	}
	ranked := pieces
	if q.Brief {
		ranked = bestOf(pieces, k)
	} else {
		bestFirst(pieces)
	}
	played, asked := q.Played.(Action)
	at := -1
	if asked {
		at = slices.IndexFunc(pieces, func(p piece) bool { return played.Equal(Action(p.cells)) })
		if q.Brief && at >= 0 && !slices.ContainsFunc(ranked, func(p piece) bool { return p.order == pieces[at].order }) {
			ranked = append(ranked, pieces[at]) // listed after the best, as the others are
		}
	}
	// Room for every piece at once: a board asks for hundreds of
	// refutations a decision, and growing the list was a tenth of a
	// report's memory.
	an := &match.Analysis{Depth: h, DepthUnit: "generations", Nodes: t.Nodes(), Unit: analysisUnit,
		Best: make([]match.Variation, 0, min(k, len(ranked))), Others: make([]match.Refutation, 0, max(0, len(ranked)-k)+1)}
	var answer *match.LineMove
	if len(reply) > 0 {
		answer = &match.LineMove{Side: side.Other(), Move: cellsText(reply), Action: reply, Place: match.AtCell(reply[0].Row, reply[0].Col)}
	}
	for i, p := range ranked {
		act := Action(p.cells)
		place := match.AtCell(p.cells[0].Row, p.cells[0].Col)
		if i < k {
			v := match.Variation{Move: cellsText(p.cells), Action: act, Place: place, Value: float64(p.value + sim.baseScore),
				Line: []match.LineMove{{Side: side, Move: cellsText(p.cells), Action: act, Place: place}}}
			if answer != nil {
				v.Line = append(v.Line, *answer)
			}
			an.Best = append(an.Best, v)
			continue
		}
		an.Others = append(an.Others, match.Refutation{Move: cellsText(p.cells), Action: act, Place: place, Bound: float64(p.value + sim.baseScore), Reply: answer, Exact: true})
	}
	if asked && at < 0 {
		// A placement of another shape (or none): simulated in full, as
		// the pieces are, against the same reply.
		place := match.Place{}
		if len(played) > 0 {
			place = match.AtCell(played[0].Row, played[0].Col)
		}
		an.Others = append(an.Others, match.Refutation{Move: cmp.Or(cellsText(played), "nothing"), Action: played, Place: place,
			Bound: float64(sim.eval(played)), Reply: answer, Exact: true})
	}
	return an, nil
}

// bestOf is the k best of pieces, best first, as bestFirst would rank
// them: what a brief analysis lists, without sorting hundreds of pieces
// to read three (sorting them was a twelfth of a report's time).
func bestOf(pieces []piece, k int) []piece {
	best := make([]piece, 0, k+1)
	for _, p := range pieces {
		i := len(best)
		for i > 0 && byRank(p, best[i-1]) < 0 {
			i--
		}
		if i < k {
			best = slices.Insert(best, i, p)
			best = best[:min(len(best), k)]
		}
	}
	return best
}

// cellsText writes cells as the panel names them: "(3,4) (3,5)".
func cellsText(cells []Cell) string {
	b := make([]byte, 0, 8*len(cells))
	for i, c := range cells {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(c.Row), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.Col), 10)
		b = append(b, ')')
	}
	return string(b)
}
