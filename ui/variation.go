package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// variation is a line a person tries on the analysis board, kept apart
// from the game: the game's moves to the turn it branches at, the option
// tried there (against the reply the analysis foresaw, where both sides
// move at once), then whatever the person plays, both sides, with the
// game's controls. The board rests on each new position and is analysed
// there: the answer and its value from that position. The game's
// playback and graph wait aside, as they were, until the person goes
// back to the game.
type variation struct {
	game  *playback
	evals evalGraph
	from  int    // the game's turn it branches at
	first string // the option tried there, with its side
}

// tryPicked plays the option picked on the board in a variation (from
// the variation shown, when one is). It says why it cannot.
func (v *matchView) tryPicked() error {
	a := &v.analysis
	if v.human != nil && v.variation == nil {
		return errors.New("a person plays this match: try options once it is over")
	}
	if a.an == nil || a.picked == "" {
		return errors.New("pick an option on the board first")
	}
	k, rec := a.state, v.pb.rec
	act, reply, ok := pickedMove(a.an, a.picked)
	if !ok {
		return fmt.Errorf("%s is not among the analysis's options", a.picked)
	}
	moves, err := movesTo(rec, k)
	if err != nil {
		return err
	}
	var turn [2]json.RawMessage
	turn[a.an.Side], turn[a.an.Side.Other()] = act, json.RawMessage("null")
	if rec.State(k).ToMove().Has(a.an.Side.Other()) {
		if reply == nil {
			return fmt.Errorf("the analysis gives no reply to play %s against", a.picked)
		}
		turn[a.an.Side.Other()] = reply
	}
	setup := v.pb.setup
	you := play.Spec{Name: play.Person}
	setup.Players, setup.Bots = [2]play.Spec{you, you}, [2]match.Bot{}
	pb, err := newPlayback(setup, append(moves, turn), v.app.host)
	if err != nil {
		return err
	}
	pb.hold = float64(k + 1)
	if vr := v.variation; vr == nil {
		v.variation = &variation{game: v.pb, evals: v.evals, from: k, first: fmt.Sprintf("%s %s", a.an.Side, a.picked)}
	} else {
		v.pb.stop()
		if k <= vr.from { // before the first option tried: a branch of its own
			vr.from, vr.first = k, fmt.Sprintf("%s %s", a.an.Side, a.picked)
		}
	}
	v.pb, v.evals, v.human, v.asked = pb, evalGraph{}, nil, nil
	a.stop()
	a.state, a.calm = -1, 0
	return nil
}

// leaveVariation goes back to the game, as it was left.
func (v *matchView) leaveVariation() {
	if v.variation == nil {
		return
	}
	v.pb.stop()
	v.pb, v.evals = v.variation.game, v.variation.evals
	v.variation, v.human, v.asked = nil, nil, nil
	v.analysis.stop()
	v.analysis.state, v.analysis.calm = -1, 0
}

// pickedMove is the action of the analysis's option named move, as JSON,
// and the reply the analysis foresaw to it in the same turn (nil where
// it gives none).
func pickedMove(an *match.Analysis, move string) (act, reply json.RawMessage, ok bool) {
	var replyMove *match.LineMove
	var action match.Action
	for _, b := range an.Best {
		if b.Move == move {
			action, ok = b.Action, true
			if len(b.Line) > 1 && b.Line[1].Side != an.Side {
				replyMove = &b.Line[1]
			}
		}
	}
	for _, o := range an.Others {
		if !ok && o.Move == move {
			action, ok, replyMove = o.Action, true, o.Reply
		}
	}
	if !ok {
		return nil, nil, false
	}
	act, err := json.Marshal(action)
	if err != nil {
		return nil, nil, false
	}
	if replyMove != nil && replyMove.Side != an.Side {
		if reply, err = json.Marshal(replyMove.Action); err != nil {
			reply = nil
		}
	}
	return act, reply, true
}

// movesTo is the actions of rec's first k turns, as a link carries them.
func movesTo(rec *play.Record, k int) ([][2]json.RawMessage, error) {
	var moves [][2]json.RawMessage
	for _, t := range rec.Turns[:k] {
		var mv [2]json.RawMessage
		for side, act := range t.Actions {
			mv[side] = json.RawMessage("null")
			if act != nil {
				b, err := json.Marshal(act)
				if err != nil {
					return nil, err
				}
				mv[side] = b
			}
		}
		moves = append(moves, mv)
	}
	return moves, nil
}

// drawVariation writes, at the panel's top in a variation, what it is
// and how to go back; it returns the y below and keeps where the line
// to click is.
func (v *matchView) drawVariation(c render.Canvas, st style, r rect, y float64) float64 {
	th, vr := st.th, v.variation
	text := fmt.Sprintf("variation from turn %d: %s, then your moves for both sides", vr.from, vr.first)
	y = wrapText(c, text, r.X, y, r.W, st.small, th.Accent)
	h := c.LineHeight(st.small)
	rowH := h
	if st.compact {
		rowH = max(h, st.rowH)
	}
	v.backRow = rect{X: r.X, Y: y, W: r.W, H: rowH}
	c.Text("← back to the game (Esc)", r.X, y+(rowH-h)/2, st.small, render.Left, th.Text)
	return y + rowH + st.gap
}
