package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Tolerance is the expected points a drill's answer may lose against the
// best option and pass: lichess's "Learn from your mistakes" accepts an
// answer within 0.035 of winning chances (−1 to 1), which is 0.0175
// expected points. Where the analysis proves the results, an answer
// passes only with the best option's result.
const Tolerance = 0.0175

// Drill is a position to play again: the game that led there, the turn
// and the side whose decision it asks for. A drill file is one as JSON,
// the replay inside it, so that a folder of them is a suite that needs
// nothing else.
type Drill struct {
	Turn int        `json:"turn"`
	Side match.Side `json:"side"`
	// Why says where the drill came from ("turn 12, P1 played 3,4,up, a
	// blunder that lost 0.31").
	Why    string          `json:"why,omitempty"`
	Replay json.RawMessage `json:"replay"`
}

// NewDrill makes the drill of side's decision at turn k of rec.
func NewDrill(rec *play.Record, k int, side match.Side, why string) (*Drill, error) {
	if err := drillable(rec, k, side); err != nil {
		return nil, err
	}
	rp, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(rp)
	if err != nil {
		return nil, err
	}
	return &Drill{Turn: k, Side: side, Why: why, Replay: data}, nil
}

// drillable says why side's decision at turn k of rec cannot be drilled.
func drillable(rec *play.Record, k int, side match.Side) error {
	if k < 0 || k >= len(rec.Turns) {
		return fmt.Errorf("turn %d: the game has decisions at turns 0 to %d", k, len(rec.Turns)-1)
	}
	if !slices.Contains(deciders(rec.Game, rec.State(k)), side) {
		return fmt.Errorf("turn %d: %s has no decision there that the analysis weighs", k, side)
	}
	return nil
}

// Record is the drill's game.
func (d *Drill) Record(name string) (*play.Record, error) {
	rec, err := play.LoadReplay(name, d.Replay)
	if err != nil {
		return nil, err
	}
	return rec, drillable(rec, d.Turn, d.Side)
}

// Answer is a bot's answer to a drill, judged.
type Answer struct {
	Move         string  `json:"move"`
	Best         string  `json:"best"`
	Expected     float64 `json:"expected"`      // the answer's, for the side
	BestExpected float64 `json:"best_expected"` // the best option's
	Lost         float64 `json:"lost"`
	Passed       bool    `json:"passed"`
	Exact        bool    `json:"exact,omitempty"` // both results proven
	// Failed says the bot gave no move (it crashed, timed out or sent
	// nonsense): the drill is failed, with the reason.
	Failed string `json:"failed,omitempty"`
}

// Run plays the drill with the bot spec on the drill's side, from the
// drill's position on the game's seed (the turns before it given, as a
// link's moves are, the other side played by greedy, whose move the
// drill does not judge), and judges its move at the game's stated
// budget (o's, when set).
func (d *Drill) Run(ctx context.Context, rec *play.Record, spec string, o Options) (*Answer, error) {
	s, err := play.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return d.Play(ctx, rec, s, play.Hosting{}, o)
}

// Play is Run with the player as a spec value and hosted as h says (a
// ladder's: each program in its box, on the CPU clock).
func (d *Drill) Play(ctx context.Context, rec *play.Record, spec play.Spec, h play.Hosting, o Options) (*Answer, error) {
	setup := play.Setup{Game: rec.Game, Config: rec.Config, Seed: rec.Seed, Hosting: h}
	var err error
	for side := range setup.Players {
		setup.Players[side] = play.Spec{Name: "greedy"}
		if match.Side(side) == d.Side {
			setup.Players[side] = spec
		}
	}
	rp, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	act, failed, err := answerOf(ctx, setup, rp.Moves()[:d.Turn], d.Side)
	if err != nil {
		return nil, err
	}
	if failed != "" {
		return &Answer{Failed: failed}, nil
	}
	scale, err := o.scaleOf(rec.Game)
	if err != nil {
		return nil, err
	}
	j, err := judge(ctx, rec, d.Turn, d.Side, act, scale, o)
	if err != nil {
		return nil, err
	}
	if j.Unvalued {
		return nil, fmt.Errorf("the answer %s is not among the options the analysis weighs", j.Move)
	}
	a := &Answer{Move: j.Move, Best: j.Best, Expected: j.Expected, BestExpected: j.BestExpected, Lost: j.Lost, Exact: j.Exact}
	a.Passed = a.Lost <= Tolerance
	if a.Exact {
		a.Passed = a.Expected == a.BestExpected
	}
	return a, nil
}

// answerOf plays setup's match with the turns given, then until side
// has moved once more: its action, or why it gave none (a program that
// would not start, crashed, ran out of time or sent nonsense).
func answerOf(ctx context.Context, setup play.Setup, given []play.ReplayTurn, side match.Side) (match.Action, string, error) {
	r, err := play.NewRunner(setup)
	if err != nil {
		if play.HostFault(err) {
			return nil, "", err
		}
		return nil, "the bot did not start: " + err.Error(), nil
	}
	defer r.Close()
	for k, t := range given {
		if err := r.Force(play.ReplayTurn{Actions: t.Actions}); err != nil {
			return nil, "", fmt.Errorf("the game's turn %d: %w", k, err)
		}
	}
	k := len(given)
	for len(r.Record().Turns) <= k {
		if res := r.Record().Result; res != nil {
			return nil, "no move: " + res.String(), nil
		}
		if err := r.Step(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, "", ctx.Err()
			}
			return nil, "the bot gave no move: " + err.Error(), nil
		}
	}
	t := r.Record().Turns[k]
	switch {
	case t.Replaced[side] != "":
		return nil, "the bot's move was replaced: " + t.Replaced[side], nil
	case t.Failed[side] || t.Actions[side] == nil:
		return nil, "the bot gave no move", nil
	}
	return t.Actions[side], "", nil
}
