package ui

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/pathgame"
	"github.com/arena-playground/arena/render"
)

func init() { humans["pathgame"] = func() Human { return &pathHuman{} } }

// pathHuman plays the shortest-path game. As the player: click a
// neighbour of your node (they are ringed) and you step there. As the
// adversary: click an edge and it is raised; the edge under the pointer
// says what the raise would do. The node under the pointer shows its id
// and k, its hops to Y.
type pathHuman struct {
	s      pathgame.State
	g      *pathgame.Graph
	round  pathgame.Round
	side   match.Side
	role   pathgame.Role
	paths  pathgame.Paths
	chosen match.Action
	note   string
}

func (h *pathHuman) Start(s match.State, side match.Side) {
	h.s = s.(pathgame.State)
	h.g, h.round, h.side, h.chosen, h.note = h.s.Graph(), h.s.Round(), side, nil, ""
	h.role = h.s.RoleOf(side)
	h.paths.Compute(h.g, h.round.Costs())
}

// reach is how near a click must be, in pixels.
func (h *pathHuman) reach(r rect) float64 { return max(8, min(r.W, r.H)/60) }

func (h *pathHuman) Click(x, y float64, r rect) {
	b := render.NewPathBoard(r, h.g)
	h.note = ""
	if h.role == pathgame.Player {
		n, ok := b.NodeAt(h.g, x, y, h.reach(r))
		switch {
		case !ok:
			h.note = "click a ringed node"
		case !h.neighbour(n):
			h.note = fmt.Sprintf("%s is not next to %s", h.g.IDs[n], h.g.IDs[h.round.Pos])
		default:
			h.chosen = pathgame.Move(h.g, h.round.Pos, n)
		}
		return
	}
	if e, ok := b.EdgeAt(h.g, x, y, h.reach(r)/2); ok {
		h.chosen = pathgame.RaiseEdge(h.g, e)
		return
	}
	h.note = "click an edge"
}

func (h *pathHuman) neighbour(n int) bool {
	_, ok := h.g.EdgeBetween(h.round.Pos, n)
	return ok
}

func (h *pathHuman) Key(ebiten.Key) bool { return false }

func (h *pathHuman) Draw(c render.Canvas, r rect, th *render.Theme) {
	b := render.NewPathBoard(r, h.g)
	col := th.Player[h.side]
	rad := max(4, h.reach(r)/2)
	if h.role == pathgame.Player {
		for _, a := range h.g.Arcs(h.round.Pos) {
			c.Ring(b.At(a.To), rad, 2, col)
		}
	}
	mx, my := ebiten.CursorPosition()
	x, y := float64(mx), float64(my)
	if !r.Contains(x, y) {
		return
	}
	face := render.Face{Size: math.Max(11, math.Round(min(r.W, r.H)/45)), Style: render.Bold}
	label := func(text string, at render.Point) {
		w := c.TextWidth(text, face) + 8
		box := rect{X: min(at.X+10, r.X+r.W-w), Y: at.Y - c.LineHeight(face) - 14, W: w, H: c.LineHeight(face) + 4}
		c.Fill(box, th.Panel)
		c.Text(text, box.X+4, box.Y+2, face, render.Left, th.Text)
	}
	if n, ok := b.NodeAt(h.g, x, y, h.reach(r)); ok {
		label(fmt.Sprintf("%s · k=%s · %s to Y", h.g.IDs[n], kText(h.g.Hops[n]), trim(h.paths.Dist[n])), b.At(n))
		return
	}
	if h.role != pathgame.Adversary {
		return
	}
	if e, ok := b.EdgeAt(h.g, x, y, h.reach(r)/2); ok {
		ed := h.g.Edges[e]
		c.Line(b.At(ed.A), b.At(ed.B), 4, col)
		cost := h.round.Costs()[e]
		f := h.g.Factor(e, h.round.UseMax)
		costs := append([]float64(nil), h.round.Costs()...)
		costs[e] *= f
		var after pathgame.Paths
		after.Compute(h.g, costs)
		gain := after.Dist[h.round.Pos] - h.paths.Dist[h.round.Pos]
		label(fmt.Sprintf("%s-%s: %s → %s (×%.3g); the player's cheapest path +%s", h.g.IDs[ed.A], h.g.IDs[ed.B],
			trim(cost), trim(cost*f), f, trim(gain)), render.Point{X: x, Y: y})
	}
}

func kText(k int64) string {
	if k == pathgame.Unreachable {
		return "∞"
	}
	return fmt.Sprint(k)
}

func trim(f float64) string { return render.CostText(math.Round(f*100) / 100) }

func (h *pathHuman) Prompt() string {
	p := fmt.Sprintf("%s walks: click a ringed neighbour of %s (%s paid, %s to Y at today's costs)", h.side,
		h.g.IDs[h.round.Pos], trim(h.round.Cost), trim(h.paths.Dist[h.round.Pos]))
	if h.role == pathgame.Adversary {
		p = fmt.Sprintf("%s raises: click an edge (the pointer shows what a raise does); the player is at %s", h.side, h.g.IDs[h.round.Pos])
	}
	if h.note != "" {
		p += " · " + h.note
	}
	return p
}

func (h *pathHuman) Action() (match.Action, error) {
	if h.chosen == nil {
		if h.role == pathgame.Player {
			return nil, fmt.Errorf("click a neighbour of %s first", h.g.IDs[h.round.Pos])
		}
		return nil, fmt.Errorf("click an edge first")
	}
	return h.chosen, h.s.Check(h.side, h.chosen)
}

// Suggest points at the next node of the cheapest path, or at the middle
// of its first edge for the adversary.
func (h *pathHuman) Suggest(r rect) (rect, bool) {
	b := render.NewPathBoard(r, h.g)
	next := h.paths.Next[h.round.Pos]
	if next.Edge < 0 {
		return rect{}, false
	}
	p := b.At(next.To)
	if h.role == pathgame.Adversary {
		p = render.Point{X: (b.At(h.round.Pos).X + p.X) / 2, Y: (b.At(h.round.Pos).Y + p.Y) / 2}
	}
	return rect{X: p.X - 1, Y: p.Y - 1, W: 2, H: 2}, true
}

// Done: a click on a node or an edge is the whole move.
func (h *pathHuman) Done() bool { return h.chosen != nil }
