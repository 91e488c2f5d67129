// Package bot is an Evasion bot, in both roles: the hunter builds walls
// to close the prey in, the prey runs.
//
// Act is called for every tick with t.State, the position (an
// evasion.State), t.Side, the side to move, t.Rand, the bot's own random
// source, and t.Spend, which counts the work done and says when the
// budget is spent. It returns evasion.HunterAction(state, wall) as the
// hunter (evasion.NoWall: build nothing) and evasion.PreyAction(state,
// dx, dy) as the prey. s.Field() is the board, a value that can be
// forked and stepped to try a move.
package bot

import (
	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
)

// Act plays greedy's rule, simply: the hunter builds the wall after which
// the prey's region is smallest, when it may build and a wall shrinks it;
// the prey takes the step that leaves it farthest from the hunter a few
// ticks on, the hunter running straight.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(evasion.State)
	f := s.Field()
	if t.Side == s.Hunter() {
		return evasion.HunterAction(s, hunt(t, f)), nil
	}
	bestX, bestY, far := 0, 0, -1
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			t.Spend(1)
			try := f.Fork()
			caught := false
			for tick := 0; tick < 4 && !caught; tick++ {
				caught = try.Step(evasion.HunterMove{Build: evasion.NoWall}, evasion.PreyMove{DX: dx, DY: dy})
			}
			d := try.Distance2()
			if caught {
				d = -1
			}
			// Mark the step (around the prey's cell, its direction 0 to 8)
			// with the distance it leaves: Thinking (the T key) draws it.
			t.Note.Mark(match.AtMove(f.Prey.Y, f.Prey.X, 3*(dy+1)+dx+1), float64(d), "")
			if d > far {
				bestX, bestY, far = dx, dy, d
			}
		}
	}
	return evasion.PreyAction(s, bestX, bestY), nil
}

// hunt is the wall after which the prey's region is smallest, or NoWall.
func hunt(t *match.Turn, f evasion.Field) evasion.Kind {
	if f.Timer > 0 || len(f.Walls()) >= f.MaxWalls {
		return evasion.NoWall
	}
	best, least := evasion.NoWall, area(f)
	for k := evasion.Horizontal; k <= evasion.Counterdiagonal; k++ {
		t.Spend(1)
		try := f.Fork()
		try.Step(evasion.HunterMove{Build: k}, evasion.PreyMove{})
		a := area(try)
		// Mark the wall through the hunter's cell with the room it leaves
		// the prey, less being better: Thinking (the T key) draws it.
		t.Note.Mark(match.AtMove(f.Hunter.Y, f.Hunter.X, int(k)), -float64(a), "")
		if a < least {
			best, least = k, a
		}
	}
	return best
}

// area is the number of cells the prey can reach.
func area(f evasion.Field) int {
	var r evasion.Region
	r.Fill(&f, f.Prey)
	return r.Area
}
