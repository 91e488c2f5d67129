package ui

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// Human is how a person plays one game in the window: it turns clicks and
// keys on the board into an action, and draws the choice so far. Each
// game plugs into the playground with its drawer and one of these.
type Human interface {
	// Start begins choosing side's action in state s.
	Start(s match.State, side match.Side)
	// Click handles a click at (x, y) on the board drawn in r.
	Click(x, y float64, r rect)
	// Key handles a key press and reports whether it used it.
	Key(k ebiten.Key) bool
	// Draw draws the choice so far over the board drawn in r.
	Draw(c render.Canvas, r rect, th *render.Theme)
	// Prompt says what to do next, in one line.
	Prompt() string
	// Action returns the chosen action, or why it cannot be sent yet. It
	// only returns actions the state accepts: a person cannot forfeit by
	// a slip of the mouse.
	Action() (match.Action, error)
	// Suggest returns a place on the board drawn in r where a click makes
	// progress (a legal move), for the test hook.
	Suggest(r rect) (rect, bool)
	// Done reports whether the choice is complete and goes at once, with
	// no Enter (Colosseum: the wall's side was picked).
	Done() bool
}

// humans makes the Human of each game that people can play.
var humans = map[string]func() Human{}

// You is the name of the person in player lists and specs.
const You = play.Person

// request is a turn a person has to play.
type request struct {
	state match.State
	side  match.Side
}
