package evasion

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/arena-playground/arena/engine/match"
)

// Analyser is the game's analyser (match.Analysed).
func (Game) Analyser() match.Analyser { return analyser{} }

// analyser judges a tick as the strong bots judge it, in one unit for
// both roles: the cells of the prey's region the tick leaves, or 0 when
// the prey is caught. The hunter's walls are valued by the region each
// leaves after the tick (exact: no step of the prey changes it, see
// replyOf), a wall that shuts the hunter out of the prey's region at no
// more than no wall (see judge); waiting by the least region a cut along
// the hunter's path in the next half-horizon's ticks would leave
// (strong's foresight, the prey's drift counted). The prey's steps are valued by the region after
// the tick, against the hunter's strong reply, or 0 when the hunter,
// building nothing, catches it within the horizon whatever it does after
// (the rules move the hunter, so the foresight is exact against a hunter
// that builds nothing). The hunter's value is the region negated.
//
// It is a judgement of one tick, not a play-out: a match is thousands of
// ticks, and playing each option out with strong on both sides cost a
// hundred times the game (docs/analysis.md). The depth is the horizon,
// in ticks (24 by default: strong prey's). Its nodes are the bots' own
// units (cells filled, cells of the lookahead's window).
type analyser struct{}

// analysisUnit is what an Evasion value counts.
const analysisUnit = "cells of the prey's region after the tick, 0 when caught or foreseen caught within the horizon (the hunter's value is it negated, the prey's as it is)"

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

// analysisNodes is the stated budget of an analysis: enough for the
// replies, the lookahead and every option's region on the course's
// fields, 300x300 at most.
const analysisNodes = 5_000_000

func (analyser) Analyse(t *match.Turn, q match.Query) (*match.Analysis, error) {
	s, ok := t.State.(State)
	if !ok {
		return nil, fmt.Errorf("evasion analysis given a %T", t.State)
	}
	s.f.Index() // a record keeps its states without the occupancy grid the bots fill regions on
	horizon := cmp.Or(q.Depth, defaultHorizon)
	horizon = max(2, min(horizon, s.cfg.TickCap-s.Field().Tick))
	hunting := s.Hunter() == t.Side
	// The opponent's reply to this tick, the same whatever the option.
	reply := replyOf(s, t.Side.Other(), horizon)
	var safe *[3][3]int
	// The prey steps on odd ticks only: on an even one every step is the
	// same tick, and no lookahead tells them apart.
	if f := s.Field(); !hunting && f.Tick%2 == 1 && near(f.Hunter, f.Prey, horizon+6) {
		p := analysisBots.Get().(*player)
		sv := p.survival(t, &f, horizon, f.Captures)
		analysisBots.Put(p)
		safe = &sv
	}
	var all []judged
	fills := regionPool.Get().(*regions)
	fills.n = 0
	open := -1 // the prey's region with no wall built, when it holds the hunter
	for i, o := range options(s, hunting) {
		j, ok := judge(t, s, o.act, reply, horizon, safe, fills, open)
		if !ok {
			continue
		}
		if i == 0 && hunting && j.hunterIn {
			open = j.plain
		}
		all = append(all, j)
	}
	regionPool.Put(fills)
	if !t.Spend(0) {
		return nil, fmt.Errorf("analysis: %w (%v)", match.ErrBudget, t.Budget)
	}
	slices.SortStableFunc(all, func(a, b judged) int { return cmp.Compare(b.value, a.value) })
	an := &match.Analysis{Depth: horizon, DepthUnit: "ticks", Nodes: t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	answer := lineMove(s, t.Side.Other(), reply)
	for i, j := range all {
		lm := j.line[0]
		if i < q.K {
			an.Best = append(an.Best, match.Variation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Value: float64(j.value), Outcome: j.end, Line: j.line})
			continue
		}
		an.Others = append(an.Others, match.Refutation{Move: lm.Move, Action: lm.Action, Place: lm.Place, Bound: float64(j.value), Outcome: j.end, Reply: &answer, Exact: true})
	}
	return an, nil
}

// judged is an option with its value, its outcome ("win" or "loss" when
// the tick catches the prey) and its line: the option, the reply, and
// what the value foresees.
type judged struct {
	value int
	end   string
	line  []match.LineMove
	// plain is the prey's region after the tick, and hunterIn whether
	// it holds the hunter.
	plain    int
	hunterIn bool
}

// judge values the mover's a against reply this tick (see analyser);
// ok is false for a wall the field does not take (the hunter's cell and
// the cells along it must be free). open, when not -1, is the prey's
// region with no wall built, which holds the hunter: a wall that shuts
// the hunter out of the prey's region is worth no more than it (the
// hunter can catch nothing until the wall comes down), as strong, which
// builds no such wall, reckons.
func judge(t *match.Turn, s State, a, reply Action, horizon int, safe *[3][3]int, fills *regions, open int) (j judged, ok bool) {
	mover, hunter := t.Side, s.Hunter()
	hunting := mover == hunter
	line := []match.LineMove{lineMove(s, mover, a), lineMove(s, mover.Other(), reply)}
	next := s.Apply(acts(mover, a, reply)).(State)
	f := next.Field()
	var end *GameEnd
	if next.GameNum() != s.GameNum() {
		end = next.End(s.GameNum())
		f = end.Final
	}
	var h HunterMove
	if hunting {
		h, _, _ = s.Orders(a, PreyAction(s, 0, 0))
		if h.Build != NoWall && len(f.Walls()) <= len(s.f.Walls())-len(h.Delete) {
			return judged{}, false
		}
	}
	if end != nil && end.Captured {
		return judged{value: 0, end: outcome(hunting), line: line}, true
	}
	reg := fills.of(t, &f)
	area := reg.Area
	if hunting {
		plain, in := area, reg.Has(f.Hunter.X, f.Hunter.Y)
		line = append(line, regionMove(&f, hunter.Other(), area))
		switch {
		case h.Build == NoWall:
			p := player{look: horizon / 2}
			if later, k := p.laterCut(t, &f, Box{reg.Min, reg.Max}); k > 0 && later < area {
				area = later
				line = append(line, match.LineMove{Side: hunter, Move: fmt.Sprintf("a cut foreseen in %d ticks leaves about %d cells", k, later), Place: match.AtCell(f.Hunter.Y, f.Hunter.X)})
			}
		case open >= 0 && !in:
			area = max(area, open)
			line = append(line, match.LineMove{Side: hunter, Move: fmt.Sprintf("shut out of the prey's region: the hunter catches nothing until the wall comes down (worth the %d cells of no wall)", open), Place: match.AtCell(f.Hunter.Y, f.Hunter.X)})
		}
		return judged{value: -area, line: line, plain: plain, hunterIn: in}, true
	}
	if safe != nil {
		_, p, _ := s.Orders(HunterAction(s, NoWall), a)
		if k := safe[clamp1(p.DY)+1][clamp1(p.DX)+1]; k < horizon {
			return judged{value: 0, line: append(line, match.LineMove{Side: hunter, Move: fmt.Sprintf("caught within %d ticks whatever the prey does, if the hunter builds nothing", k+1), Place: match.AtCell(f.Hunter.Y, f.Hunter.X)})}, true
		}
	}
	return judged{value: area, line: append(line, regionMove(&f, mover, area))}, true
}

// regionMove is a line's last entry: the prey's cell and its region.
func regionMove(f *Field, prey match.Side, area int) match.LineMove {
	return match.LineMove{Side: prey, Move: fmt.Sprintf("prey at %d,%d, its region %d cells", f.Prey.X, f.Prey.Y, area), Place: match.AtCell(f.Prey.Y, f.Prey.X)}
}

// regions keeps the regions one analysis filled: the options of a tick
// mostly leave the same walls and the prey in the same pocket. Its
// memory (a region is a bitmap of the board) is kept for the next
// analysis (regionPool).
type regions struct {
	filled []filled
	n      int
}

type filled struct {
	walls []Wall
	reg   Region
}

var regionPool = sync.Pool{New: func() any { return new(regions) }}

// of is the prey's region in f, filled once for each pocket of each set
// of walls.
func (rs *regions) of(t *match.Turn, f *Field) *Region {
	for i := range rs.n {
		r := &rs.filled[i]
		if slices.Equal(r.walls, f.Walls()) && r.reg.Has(f.Prey.X, f.Prey.Y) {
			return &r.reg
		}
	}
	if rs.n == len(rs.filled) {
		rs.filled = append(rs.filled, filled{})
	}
	r := &rs.filled[rs.n]
	rs.n++
	r.walls = append(r.walls[:0], f.Walls()...)
	r.reg.Fill(f, f.Prey)
	t.Spend(int64(r.reg.Area))
	return &r.reg
}

// option is a move of the side analysed: a hunter's build (or none) or
// a prey's step.
type option struct{ act Action }

// options are the side's moves this tick: no wall and each wall the
// hunter may ask for (at the walls' cap, in place of the oldest; judge
// drops those the field does not take), or the prey's nine steps.
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
		out = append(out, option{HunterAction(s, kind, del...)})
	}
	return out
}

// acts is the tick's actions: mover's a, the other side's reply.
func acts(mover match.Side, a, reply Action) [2]match.Action {
	var out [2]match.Action
	out[mover], out[mover.Other()] = a, reply
	return out
}

// outcome is a capture's outcome for the mover.
func outcome(hunting bool) string {
	if hunting {
		return "win"
	}
	return "loss"
}

// replyOf is the opponent's reply to every option of the tick: strong's,
// except a prey's out of the hunter's reach, which stands. A prey's step
// never takes it out of its region (the region is its cell's
// eight-connected pocket, and a step goes to one of the eight
// neighbours), so out of reach, where no step decides a capture, no step
// of the prey tells the hunter's walls apart; standing values them as
// any step would (the foresight of waiting reckons with its drift),
// without the lookahead strong's step costs (most of a strong prey's
// time).
func replyOf(s State, side match.Side, horizon int) Action {
	if f := s.Field(); side != s.Hunter() && (f.Tick%2 == 0 || !near(f.Hunter, f.Prey, reach)) {
		return PreyAction(s, 0, 0)
	}
	return strongAct(s, side, horizon)
}

// reach is how near the hunter a prey's step can decide a capture this
// tick: the capture radius, 4, and a step each.
const reach = 6

// strongAct is a fresh strong bot's action for side in s, looking
// horizon ticks ahead as the prey (half as the hunter).
func strongAct(s State, side match.Side, horizon int) Action {
	p := analysisBots.Get().(*player)
	defer analysisBots.Put(p)
	p.fresh(horizon)
	return botAct(p, s, side)
}

// analysisBots are the analysis's strong bots, kept for their memory (a
// region, the lookahead's window, the foresight's profile: kilobytes a
// reply would otherwise allocate); fresh wipes what they remember of a
// game, so that a reply depends on its state alone.
var analysisBots = sync.Pool{New: func() any { return new(player) }}

// fresh makes p a strong bot that has seen nothing of the game yet.
func (p *player) fresh(horizon int) {
	p.strong, p.horizon, p.look = true, horizon, horizon/2
	p.foresight = foresight{}
	p.regOK, p.gen = false, 0
}

// botAct is p's action for side in s: every reply draws from the same
// seed, so that an analysis repeats.
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
