package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The labels of a decision, by the expected points it lost against the
// best option: chess.com's thresholds, which are stated in expected
// points, the scale's own unit (lichess's, in winning chances from −1 to
// 1, are 0.05, 0.10 and 0.15 in expected points: the same inaccuracy and
// mistake, a blunder a little sooner).
const (
	InaccuracyAt = 0.05
	MistakeAt    = 0.10
	BlunderAt    = 0.20
)

// BoardK is how many best options the board, arena analyse and the
// report value exactly: with one K everywhere a position has one answer
// everywhere (a search asked for more options reaches less deep in the
// same budget).
const BoardK = 3

// Label names a loss of expected points: "" for a good move.
func Label(lost float64) string {
	switch {
	case lost >= BlunderAt:
		return "blunder"
	case lost >= MistakeAt:
		return "mistake"
	case lost >= InaccuracyAt:
		return "inaccuracy"
	}
	return ""
}

// Report is a game's report: each decision judged against the best
// option at the analysis's budget, and each side's figures.
type Report struct {
	Game    string    `json:"game"`
	Seed    uint64    `json:"seed"`
	Players [2]string `json:"players"`
	Result  string    `json:"result,omitempty"`
	// Budget says what each decision's analysis spent: the game's stated
	// budget unless the report was asked for another.
	Budget    string     `json:"budget"`
	Scale     Scale      `json:"scale"`
	Decisions []Decision `json:"decisions"`
	Sides     [2]Summary `json:"sides"`
}

// Decision is one side's move at one turn, judged.
type Decision struct {
	Turn int        `json:"turn"` // the position's: 0 the start
	Side match.Side `json:"side"`
	Move string     `json:"move"` // as played, in the game's notation
	// Kind is the kind of move played, as the game names it (MoveKinds);
	// "" where it names none.
	Kind  string `json:"kind,omitempty"`
	Depth int    `json:"depth"`
	Unit  string `json:"depth_unit"`
	// Value and Expected are the played move's value in the game's unit
	// and in expected points for the mover; Best's are the best option's.
	Value, Expected         float64
	BestValue, BestExpected float64
	// Scaled is BestValue as the scale reads it (Scaled).
	Scaled float64          `json:"scaled"`
	Best   string           `json:"best"`
	Line   []match.LineMove `json:"line"` // the best option's
	// Reply answers the played move, where it is not the best: the
	// refutation to look at on the board.
	Reply *match.LineMove `json:"reply,omitempty"`
	Lost  float64         `json:"lost"` // expected points, 0 or more
	Label string          `json:"label,omitempty"`
	// Exact says both values are the game's results under best play:
	// the label is a fact, not an estimate.
	Exact    bool    `json:"exact,omitempty"`
	Accuracy float64 `json:"accuracy"` // lichess's move accuracy, 0 to 100
	// Unvalued says the analyser does not hold the played move among its
	// options (a Life shape it does not weigh): nothing is judged.
	Unvalued bool `json:"unvalued,omitempty"`
}

// Summary is a side's figures over the game.
type Summary struct {
	Decisions    int     `json:"decisions"`
	Accuracy     float64 `json:"accuracy"` // lichess's game accuracy, 0 to 100
	Lost         float64 `json:"lost"`     // expected points, summed
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// Options tune a report.
type Options struct {
	Nodes int64 // each decision's budget (0: the game's stated budget)
	Depth int   // each decision's depth instead (0: as deep as the budget allows)
	// Progress, when set, is told each decision as it is judged.
	Progress func(done, of int)
	// Scale, when set, judges in place of the game's fitted scale (the
	// fit's own games are reported before there is one).
	Scale *Scale
	// Every, above 1, judges every Every-th decision only: a sample, for
	// a fit over games of thousands of ticks, not a report.
	Every int
}

// Make reports on a game: every decision analysed at the budget, judged
// by the game's scale.
func Make(ctx context.Context, rec *play.Record, o Options) (*Report, error) {
	scale, err := o.scaleOf(rec.Game)
	if err != nil {
		return nil, err
	}
	r := &Report{Game: rec.Game.Info().Name, Seed: rec.Seed, Players: rec.Players, Scale: scale, Decisions: []Decision{}}
	if rec.Result != nil {
		r.Result = rec.Result.String()
	}
	r.Budget = "the game's stated budget"
	switch {
	case o.Depth > 0:
		r.Budget = fmt.Sprintf("depth %d", o.Depth)
	case o.Nodes > 0:
		r.Budget = fmt.Sprintf("%d nodes", o.Nodes)
	}
	var todo [][2]int // turn, side
	for k := range rec.Turns {
		s := rec.State(k)
		for _, side := range deciders(rec.Game, s) {
			if rec.Turns[k].Actions[side] != nil && (o.Every <= 1 || k%o.Every == 0) {
				todo = append(todo, [2]int{k, int(side)})
			}
		}
	}
	for i, d := range todo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, side := d[0], match.Side(d[1])
		dec, err := judge(ctx, rec, k, side, rec.Turns[k].Actions[side], scale, o)
		if err != nil {
			return nil, fmt.Errorf("turn %d, %s: %w", d[0], match.Side(d[1]), err)
		}
		r.Decisions = append(r.Decisions, dec)
		if o.Progress != nil {
			o.Progress(i+1, len(todo))
		}
	}
	for side := range r.Sides {
		r.Sides[side] = summarise(r.Decisions, match.Side(side))
	}
	return r, nil
}

// deciders are the sides whose decisions at s the report judges: the
// side to move, or where both move at once the side the analyser weighs
// if it chooses one, else both.
func deciders(g match.Game, s match.State) []match.Side {
	switch s.ToMove() {
	case match.Nobody:
		return nil
	case match.Both:
		if a, ok := g.(match.Analysed); ok {
			if _, ok := a.Analyser().(match.SideChooser); ok {
				return []match.Side{match.AnalysisSide(g, s)}
			}
		}
		return []match.Side{match.P1, match.P2}
	}
	return []match.Side{s.ToMove().Side()}
}

// scaleOf is the scale o judges g by: o's own, else the game's fitted one.
func (o Options) scaleOf(g match.Game) (Scale, error) {
	if o.Scale != nil {
		return *o.Scale, nil
	}
	if s, ok := ScaleOf(g); ok {
		return s, nil
	}
	return Scale{}, fmt.Errorf("%s: no win-probability scale is fitted for this game", g.Info().Name)
}

// judge analyses side's move played at turn k of rec (the game's, or a
// drill's answer).
func judge(ctx context.Context, rec *play.Record, k int, side match.Side, played match.Action, scale Scale, o Options) (Decision, error) {
	s := rec.State(k)
	t := match.NewTurnContext(ctx, s, side, match.BotRand(rec.Seed, side, match.Options{}), match.Budget{Nodes: o.Nodes}, 0)
	an, err := match.Analyse(rec.Game, t, match.Query{K: BoardK, Depth: o.Depth, Played: played, Brief: true})
	if err != nil {
		return Decision{}, err
	}
	if len(an.Best) == 0 {
		return Decision{}, errors.New("the analysis has no best option")
	}
	best := an.Best[0]
	d := Decision{Turn: k, Side: side, Kind: MoveKind(rec.Game, s, side, played), Depth: an.Depth, Unit: an.DepthUnit, Best: best.Move, Line: best.Line,
		BestValue: best.Value, Scaled: Scaled(s, best.Value), BestExpected: scale.Expected(Scaled(s, best.Value), best.Outcome, an.Proven)}
	if an.Played == nil {
		d.Move, d.Unvalued, d.Accuracy = actionText(played), true, 100
		return d, nil
	}
	p := an.Played
	d.Move, d.Value, d.Expected = p.Move, p.Value, scale.Expected(Scaled(s, p.Value), p.Outcome, an.Proven)
	d.Exact = an.Proven && best.Outcome != "" && p.Outcome != ""
	if p.Move != best.Move {
		d.Lost = max(0, d.BestExpected-d.Expected)
		if len(p.Line) > 1 {
			d.Reply = &p.Line[1]
		}
	}
	d.Label = Label(d.Lost)
	d.Accuracy = MoveAccuracy(100*d.BestExpected, 100*(d.BestExpected-d.Lost))
	return d, nil
}

// summarise sums up side's decisions.
func summarise(ds []Decision, side match.Side) Summary {
	var s Summary
	var before []float64
	var acc []float64
	for _, d := range ds {
		if d.Side != side || d.Unvalued {
			continue
		}
		s.Decisions++
		s.Lost += d.Lost
		switch d.Label {
		case "blunder":
			s.Blunders++
		case "mistake":
			s.Mistakes++
		case "inaccuracy":
			s.Inaccuracies++
		}
		before = append(before, 100*d.BestExpected)
		acc = append(acc, d.Accuracy)
	}
	s.Accuracy = GameAccuracy(before, acc)
	return s
}

// actionText names a move the analysis does not weigh: as the replay
// keeps it (its JSON), or as Go prints it where it has none.
func actionText(a match.Action) string {
	if data, err := json.Marshal(a); err == nil {
		return string(data)
	}
	return fmt.Sprint(a)
}
