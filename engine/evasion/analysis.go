package evasion

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser explains a tick by playing each option of the side that
// decides it out to a horizon: the option this tick, the opponent's
// reply to the same tick (moves are simultaneous, so one reply answers
// every option), then strong on both sides for the ticks that follow,
// by the game's own rules. Every option is played out in full, so every
// value is exact at that horizon, the K best's and the others' alike;
// an option's refutation is that reply. The depth is the horizon, in
// ticks (24 by default: strong prey's). Its nodes are the decisions it
// plays out, one a side a tick: the bots' own counts (cells as if
// filled) would make one play-out dearer than a whole Colosseum search.
type analyser struct{}

// analysisUnit is what an Evasion value counts.
const analysisUnit = "cells of the prey's region after the horizon's ticks, strong playing both sides after this one (the hunter's value is it negated, the prey's as it is; a capture is 0 cells)"

// defaultHorizon is the analysis's horizon in ticks when none is asked.
const defaultHorizon = 24

// AnalysisSide is the side whose decision a tick analyses: the hunter
// when its cooldown lets it build, the prey otherwise (on an even tick
// its step waits: every step is then worth the same, and the board says
// so).
func (analyser) AnalysisSide(st match.State) match.Side {
	s := st.(State)
	if f := s.Field(); f.Timer == 0 {
		return s.Hunter()
	}
	return s.Hunter().Other()
}

func (analyser) Nodes(match.State) int64 { return analysisNodes }

// analysisNodes is the stated budget of an analysis: play-outs' decisions
// enough for every option's at the default horizon.
const analysisNodes = 5_000_000

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, ok := t.State.(State)
	if !ok {
		return nil, fmt.Errorf("evasion analysis given a %T", t.State)
	}
	k := q.K
	horizon := cmp.Or(q.Depth, defaultHorizon)
	horizon = max(1, min(horizon, s.cfg.TickCap-s.Field().Tick))
	hunting := s.Hunter() == t.Side
	// The opponent's reply to this tick, the same whatever the option.
	reply := strongAct(s, t.Side.Other())
	if !t.Spend(1) {
		return nil, fmt.Errorf("analysis: %w, before the opponent's reply was found (%v)", match.ErrBudget, t.Budget)
	}
	type played struct {
		opt   option
		value int
		end   string
		line  []match.LineMove
	}
	var all []played
	var after []State // each option's state after this tick
	for _, o := range options(s, hunting) {
		next := s.Apply(acts(t.Side, o.act, reply)).(State)
		// Options that leave the same state (the prey's steps on a tick
		// it waits, or into a wall) play out alike: one play-out for all.
		if i := slices.IndexFunc(after, func(a State) bool { return sameState(a, next) }); i >= 0 {
			twin := all[i]
			line := append([]match.LineMove{lineMove(s, t.Side, o.act)}, twin.line[1:]...)
			all, after = append(all, played{o, twin.value, twin.end, line}), append(after, next)
			continue
		}
		v, end, line, ok := playOut(t, s, o, reply, horizon)
		if !ok {
			return nil, fmt.Errorf("analysis: %w, after %d options (%v)", match.ErrBudget, len(all), t.Budget)
		}
		all, after = append(all, played{o, v, end, line}), append(after, next)
	}
	slices.SortStableFunc(all, func(a, b played) int { return cmp.Compare(b.value, a.value) })
	an := &match.Analysis{Depth: horizon, DepthUnit: "ticks", Nodes: t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	answer := lineMove(s, t.Side.Other(), reply)
	for i, p := range all {
		lm := lineMove(s, t.Side, p.opt.act)
		if i < k {
			an.Best = append(an.Best, match.Variation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Value: float64(p.value), Outcome: p.end, Line: p.line})
			continue
		}
		an.Others = append(an.Others, match.Refutation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Bound: float64(p.value), Outcome: p.end, Reply: &answer, Exact: true})
	}
	return an, nil
}

// option is a move of the side analysed: a hunter's build (or none) or
// a prey's step.
type option struct{ act Action }

// options are the side's moves this tick: no wall and each wall the
// hunter can build (at the walls' cap, in place of the oldest), or the
// prey's nine steps.
func options(s State, hunting bool) []option {
	var out []option
	if !hunting {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				out = append(out, option{PreyAction(s, dx, dy)})
			}
		}
		return out
	}
	out = append(out, option{HunterAction(s, NoWall)})
	f := s.Field()
	if f.Timer > 0 {
		return out
	}
	var del []int
	if len(f.Walls()) >= f.MaxWalls {
		del = []int{0}
	}
	for kind := Horizontal; kind <= Counterdiagonal; kind++ {
		if builds(f, kind, del) {
			out = append(out, option{HunterAction(s, kind, del...)})
		}
	}
	return out
}

// builds reports whether the field takes a wall of kind built this tick
// after deleting del: the hunter's cell and the cells along it free.
func builds(f Field, kind Kind, del []int) bool {
	g := f.Fork()
	g.Step(HunterMove{Build: kind, Delete: del}, PreyMove{})
	return len(g.Walls()) > len(f.Walls())-len(del)
}

// playOut plays option o against reply this tick, then strong on both
// sides to the horizon, and returns the mover's value, "win" or "loss"
// when the prey is caught, and the line: the option, the reply, each
// wall built after, and where the prey stands at the end. ok is false
// when the budget ended.
func playOut(t *match.Turn, s State, o option, reply Action, horizon int) (value int, end string, line []match.LineMove, ok bool) {
	mover := t.Side
	hunter := s.Hunter()
	acts := acts(mover, o.act, reply)
	line = []match.LineMove{lineMove(s, mover, o.act), lineMove(s, mover.Other(), reply)}
	bots := [2]*player{}
	for side := range bots {
		bots[side] = &player{strong: true, horizon: 24, look: 12}
	}
	cur, final := s, Field{}
	for tick := 0; ; tick++ {
		before := cur.Field()
		next := cur.Apply(acts).(State)
		after := next.Field()
		if tick > 0 && next.GameNum() == cur.GameNum() && len(after.Walls()) > len(before.Walls()) {
			line = append(line, lineMove(cur, hunter, acts[hunter].(Action)))
		}
		if next.GameNum() != cur.GameNum() { // the game ended: caught, or the tick cap
			e := next.End(cur.GameNum())
			if e.Captured {
				return 0, outcome(mover == hunter), line, true
			}
			final = e.Final
			break
		}
		cur, final = next, next.Field()
		if tick+1 >= horizon {
			break
		}
		for side := range acts {
			a := botAct(bots[side], cur, match.Side(side))
			if !t.Spend(1) {
				return 0, "", nil, false
			}
			acts[side] = a
		}
	}
	f := final
	var reg Region
	reg.Fill(&f, f.Prey)
	line = append(line, match.LineMove{Side: hunter.Other(), Move: fmt.Sprintf("prey at %d,%d after %d ticks", f.Prey.X, f.Prey.Y, horizon), Place: match.AtCell(f.Prey.Y, f.Prey.X)})
	if mover == hunter {
		return -reg.Area, "", line, true
	}
	return reg.Area, "", line, true
}

// acts is the tick's actions: mover's a, the other side's reply.
func acts(mover match.Side, a, reply Action) [2]match.Action {
	var out [2]match.Action
	out[mover], out[mover.Other()] = a, reply
	return out
}

// sameState reports whether a and b, both a tick after the same state,
// are the same position in a game still on: what the strong bots that
// play an option out decide from.
func sameState(a, b State) bool {
	return a.game == b.game && a.ends == b.ends && a.f.same(&b.f)
}

// outcome is a capture's outcome for the mover.
func outcome(hunting bool) string {
	if hunting {
		return "win"
	}
	return "loss"
}

// strongAct is a fresh strong bot's action for side in s.
func strongAct(s State, side match.Side) Action {
	return botAct(&player{strong: true, horizon: 24, look: 12}, s, side)
}

// botAct is p's action for side in s: every play-out's bots draw from
// the same seed, so that an analysis repeats.
func botAct(p *player, s State, side match.Side) Action {
	t := match.NewTurn(s, side, rand.New(rand.NewPCG(1, uint64(side))), match.Budget{})
	a, err := p.Act(t)
	if err != nil { // strong never fails on a state of its game; stand still if it did
		if s.Hunter() == side {
			return HunterAction(s, NoWall)
		}
		return PreyAction(s, 0, 0)
	}
	return a.(Action)
}

// lineMove writes a side's action in s as a line shows it: a hunter's
// wall through its cell (none: the cell itself), a prey's step.
func lineMove(s State, side match.Side, a Action) match.LineMove {
	f := s.Field()
	if s.Hunter() == side {
		h, _, _ := s.Orders(a, PreyAction(s, 0, 0))
		if h.Build == NoWall {
			return match.LineMove{Side: side, Move: fmt.Sprintf("no wall at %d,%d", f.Hunter.X, f.Hunter.Y), Action: a, Place: match.AtCell(f.Hunter.Y, f.Hunter.X)}
		}
		return match.LineMove{Side: side, Move: fmt.Sprintf("%s wall at %d,%d", h.Build, f.Hunter.X, f.Hunter.Y), Action: a, Place: match.AtMove(f.Hunter.Y, f.Hunter.X, int(h.Build))}
	}
	_, p, _ := s.Orders(HunterAction(s, NoWall), a)
	dx, dy := clamp1(p.DX), clamp1(p.DY)
	name := [9]string{"SW", "S", "SE", "W", "stay", "E", "NW", "N", "NE"}[(dy+1)*3+dx+1]
	return match.LineMove{Side: side, Move: "prey " + name, Action: a, Place: match.AtMove(f.Prey.Y, f.Prey.X, (dy+1)*3+dx+1)}
}
