package ui

import (
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
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
const You = "you"

// request is a turn a person has to play.
type request struct {
	state match.State
	side  match.Side
}

// humanBot is the match's Bot for a person: it posts the turn for the
// window and waits for the action. The clock does not rule it.
type humanBot struct {
	mu      sync.Mutex
	req     *request
	actions chan match.Action
}

func newHumanBot() *humanBot { return &humanBot{actions: make(chan match.Action, 1)} }

// Act waits for the person, or for the match to be cancelled.
func (h *humanBot) Act(t *match.Turn) (match.Action, error) {
	h.mu.Lock()
	h.req = &request{t.State, t.Side}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.req = nil
		h.mu.Unlock()
	}()
	select {
	case a := <-h.actions:
		return a, nil
	case <-t.Context().Done():
		return nil, t.Context().Err()
	}
}

// waiting returns the turn the person has to play, if any.
func (h *humanBot) waiting() (request, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.req == nil {
		return request{}, false
	}
	return *h.req, true
}

// send passes the person's action to the waiting match.
func (h *humanBot) send(a match.Action) {
	h.mu.Lock()
	h.req = nil
	h.mu.Unlock()
	h.actions <- a
}

// Untimed exempts the person from the game's clock.
func (h *humanBot) Untimed() bool { return true }
