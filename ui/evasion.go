package ui

import (
	"fmt"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

func init() { humans["evasion"] = func() Human { return &evasionHuman{pace: &evasionPace} } }

// Evasion is played in real time: each tick goes when its time is up, at
// a rate the person picks, with what the keys say then. The pace and the
// keys pressed carry from tick to tick (a Human lives for one tick).
var evasionPace = pace{rate: 2}

// evasionRates are the tick rates a person can pick, in ticks a second.
var evasionRates = []float64{2, 5, 10, 20, 30, 60}

type pace struct {
	rate    int // index in evasionRates
	paused  bool
	pressed evasion.Point // prey keys pressed since the prey last moved
	build   evasion.Kind  // the hunter's wall, once asked for
	hasWall bool
}

// evasionHuman plays either role. The prey: arrow keys or WASD, two for a
// diagonal, or a click toward where to go. The hunter: 1 to 4 for a
// horizontal, vertical, diagonal or counterdiagonal wall at the next
// tick (the reply's codes), a click on a wall to delete it. Space pauses,
// [ and ] change the tick rate.
type evasionHuman struct {
	pace   *pace
	s      evasion.State
	f      evasion.Field
	side   match.Side
	hunter bool
	start  time.Time
	toward *evasion.Point // the prey's click target
	del    []int
	note   string
}

func (h *evasionHuman) Start(s match.State, side match.Side) {
	h.s, h.side = s.(evasion.State), side
	h.f = h.s.Field()
	h.hunter = h.s.Hunter() == side
	h.start = time.Now()
}

func (h *evasionHuman) Click(x, y float64, r rect) {
	l := render.EvasionLayout(r)
	c, ok := l.CellAt(x, y)
	if !ok {
		return
	}
	h.note = ""
	if !h.hunter {
		h.toward = &c
		return
	}
	best, bestD := -1, 4*4+1 // a click within 4 cells of a wall picks it
	for i, w := range h.f.Walls() {
		w.Cells(func(x, y int) {
			if d := (x-c.X)*(x-c.X) + (y-c.Y)*(y-c.Y); d < bestD {
				best, bestD = i, d
			}
		})
	}
	switch {
	case best < 0:
		h.note = "no wall there"
	case slices.Contains(h.del, best):
		h.del = slices.DeleteFunc(h.del, func(i int) bool { return i == best })
	default:
		h.del = append(h.del, best)
	}
}

// preyKeys maps keys to the prey's step, y up.
var preyKeys = map[ebiten.Key]evasion.Point{
	ebiten.KeyArrowUp: {X: 0, Y: 1}, ebiten.KeyW: {X: 0, Y: 1},
	ebiten.KeyArrowDown: {X: 0, Y: -1}, ebiten.KeyS: {X: 0, Y: -1},
	ebiten.KeyArrowLeft: {X: -1, Y: 0}, ebiten.KeyA: {X: -1, Y: 0},
	ebiten.KeyArrowRight: {X: 1, Y: 0}, ebiten.KeyD: {X: 1, Y: 0},
}

func (h *evasionHuman) Key(k ebiten.Key) bool {
	p := h.pace
	switch k {
	case ebiten.KeySpace:
		p.paused = !p.paused
		h.start = time.Now()
		return true
	case ebiten.KeyBracketLeft:
		p.rate = max(0, p.rate-1)
		return true
	case ebiten.KeyBracketRight:
		p.rate = min(len(evasionRates)-1, p.rate+1)
		return true
	}
	if !h.hunter {
		d, ok := preyKeys[k]
		if ok {
			p.pressed.X = clampStep(p.pressed.X + d.X)
			p.pressed.Y = clampStep(p.pressed.Y + d.Y)
			h.toward = nil
		}
		return ok
	}
	switch k {
	case ebiten.Key1, ebiten.Key2, ebiten.Key3, ebiten.Key4:
		p.build, p.hasWall = evasion.Kind(k-ebiten.Key1), true
		return true
	case ebiten.Key0, ebiten.KeyBackspace:
		p.hasWall, h.del = false, nil
		return true
	}
	return false
}

func clampStep(v int) int { return max(-1, min(1, v)) }

// step is the prey's move: the keys pressed since it last moved and the
// keys held now, or toward the cell clicked.
func (h *evasionHuman) step() evasion.Point {
	d := h.pace.pressed
	for k, s := range preyKeys {
		if ebiten.IsKeyPressed(k) {
			d.X, d.Y = clampStep(d.X+s.X), clampStep(d.Y+s.Y)
		}
	}
	if h.toward != nil {
		d = evasion.Point{X: sign(h.toward.X - h.f.Prey.X), Y: sign(h.toward.Y - h.f.Prey.Y)}
	}
	return d
}

func sign(v int) int { return clampStep(v) }

func (h *evasionHuman) Draw(c render.Canvas, r rect, th *render.Theme) {
	l := render.EvasionLayout(r)
	col := th.Player[h.side]
	if !h.hunter {
		if d := h.step(); d != (evasion.Point{}) {
			from := l.At(h.f.Prey)
			to := l.At(evasion.Point{X: h.f.Prey.X + 12*d.X, Y: h.f.Prey.Y + 12*d.Y})
			c.Line(from, to, max(2, l.Cell), col)
		}
		return
	}
	for _, i := range h.del {
		if i < len(h.f.Walls()) {
			l.DrawWall(c, &h.f.Walls()[i], th.Collision)
		}
	}
}

func (h *evasionHuman) Prompt() string {
	p := h.pace
	rate := fmt.Sprintf("%g ticks/s", evasionRates[p.rate])
	if p.paused {
		rate = "paused"
	}
	var what string
	if h.hunter {
		wall := "no wall"
		if p.hasWall {
			wall = p.build.String() + " wall next"
		}
		what = fmt.Sprintf("%s hunts: 1-4 wall (horizontal, vertical, diagonal, counter), click a wall to delete · %s", h.side, wall)
		if len(h.del) > 0 {
			what += fmt.Sprintf(", deleting %d", len(h.del))
		}
	} else {
		what = fmt.Sprintf("%s flees: arrows or WASD (two for a diagonal), or click where to go", h.side)
	}
	what += " · Space " + map[bool]string{true: "goes on", false: "pauses"}[p.paused] + " · [ ] " + rate
	if h.note != "" {
		what += " · " + h.note
	}
	return what
}

func (h *evasionHuman) Action() (match.Action, error) {
	p := h.pace
	var a evasion.Action
	if h.hunter {
		kind := evasion.NoWall
		if p.hasWall && h.f.Timer == 0 {
			kind, p.hasWall = p.build, false // asked once the cooldown allows
		}
		a = evasion.HunterAction(h.s, kind, h.del...)
	} else {
		d := h.step()
		a = evasion.PreyAction(h.s, d.X, d.Y)
		if h.f.Tick%2 == 1 { // the prey moves on odd ticks: the keys are used
			p.pressed = evasion.Point{}
		}
	}
	return a, h.s.Check(h.side, a)
}

// Suggest points at the hunter's first wall, or toward the field's
// centre from the prey.
func (h *evasionHuman) Suggest(r rect) (rect, bool) {
	l := render.EvasionLayout(r)
	at := evasion.Point{X: evasion.Size / 2, Y: evasion.Size / 2}
	if h.hunter && len(h.f.Walls()) > 0 {
		w := h.f.Walls()[0]
		at = evasion.Point{X: w.X1, Y: w.Y1}
	}
	return l.CellRect(at.X, at.Y), true
}

// Done is true once the tick's time is up, unless the person paused.
func (h *evasionHuman) Done() bool {
	if h.pace.paused {
		return false
	}
	return time.Since(h.start) >= time.Duration(float64(time.Second)/evasionRates[h.pace.rate])
}
