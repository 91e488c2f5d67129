package render

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Drawer draws the matches of one game. Playback time t counts turns: at a
// whole number k it shows State(k); between k and k+1 it animates what
// happened in Turns[k].
type Drawer interface {
	// Board draws the board at time t, fitted and centred in r.
	Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme)
	// Panel draws the game's own figures at time t (banks, clocks, charts).
	Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme)
	// Caption names the moment: "iteration 12 of 500".
	Caption(rec *play.Record, t float64) string
}

// Pacer is implemented by drawers whose turns take unequal time to show
// (map colouring replays each decision's search).
type Pacer interface {
	// Pace is how many ordinary turns turn k lasts.
	Pace(rec *play.Record, k int) float64
}

// Stepper is implemented by drawers whose turns have steps of their own
// (the lines of a search's trace), for stepping through them.
type Stepper interface {
	// Steps is the number of steps of turn k, and the part of the turn
	// (0 to 1) they are spread over: step i shows at i/n of that part.
	Steps(rec *play.Record, k int) (n int, part float64)
}

// Router is implemented by drawers of games whose expected lines are one
// side's route (the shortest path's walk), not the two sides' moves in
// turn: every place of such a line is drawn in the side's colour.
type Router interface {
	Route()
}

// Rater is implemented by drawers whose turns are watched at a rate of
// their own: a Life iteration shows for a fifth of a second, a
// map-colouring decision (its search replayed) for a second or more.
type Rater interface {
	// Rate is the playground's 1x speed, in turns per second.
	Rate() float64
	// RecordRate is the default speed of a recording of rec.
	RecordRate(rec *play.Record) float64
}

// Default rates of drawers that are not Raters, in turns per second.
const (
	defaultRate       = 5
	defaultRecordRate = 30
)

// Rate returns the playground's 1x speed of a game, in turns per second.
func Rate(game string) float64 {
	if r, ok := drawers[game].(Rater); ok {
		return r.Rate()
	}
	return defaultRate
}

// RecordRate returns the default speed of a recording of rec, in turns
// per second.
func RecordRate(rec *play.Record) float64 {
	if r, ok := drawers[rec.Game.Info().Name].(Rater); ok {
		return r.RecordRate(rec)
	}
	return defaultRecordRate
}

// Pace returns how many ordinary turns turn k lasts: 1 unless the game's
// drawer says otherwise.
func Pace(rec *play.Record, k int) float64 {
	if p, ok := drawers[rec.Game.Info().Name].(Pacer); ok {
		return max(p.Pace(rec, k), 0.1)
	}
	return 1
}

// Steps returns the number of steps of turn k and the part of the turn
// they are spread over: one step over the whole turn unless the game's
// drawer has finer ones.
func Steps(rec *play.Record, k int) (n int, part float64) {
	if s, ok := drawers[rec.Game.Info().Name].(Stepper); ok {
		if n, part := s.Steps(rec, k); n > 0 && part > 0 {
			return n, min(part, 1)
		}
	}
	return 1, 1
}

var drawers = map[string]Drawer{}

// register adds a game's drawer; drawers register from init.
func register(game string, d Drawer) { drawers[game] = d }

// DrawerFor returns the drawer of a game.
func DrawerFor(game string) (Drawer, error) {
	d, ok := drawers[game]
	if !ok {
		return nil, fmt.Errorf("render: no drawer for game %q", game)
	}
	return d, nil
}

// Span returns the last playback time of a record: its number of turns.
func Span(rec *play.Record) float64 { return float64(rec.Len() - 1) }

// Moment splits playback time t into the state index k and the fraction
// f of the turn after it, clamped to the record.
func Moment(rec *play.Record, t float64) (k int, f float64) {
	last := rec.Len() - 1
	if t <= 0 {
		return 0, 0
	}
	if t >= float64(last) {
		return last, 0
	}
	k = int(math.Floor(t))
	return k, t - float64(k)
}

// Frame draws a whole picture of the match at time t into r, as GIF
// frames and PNGs show it: a header with the players, their scores and the
// moment, the board, and the game's panel below it.
func Frame(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) error {
	return DrawFrame(c, r, rec, t, th, FrameOptions{})
}

// FrameOptions add to what a frame shows.
type FrameOptions struct {
	// Thinking draws what the bots noted over the board (DrawThinking),
	// with the scale's legend below it.
	Thinking bool
}

// DrawFrame is Frame with options.
func DrawFrame(c Canvas, r Rect, rec *play.Record, t float64, th *Theme, o FrameOptions) error {
	d, err := DrawerFor(rec.Game.Info().Name)
	if err != nil {
		return err
	}
	c.Fill(r, th.Background)
	unit := min(r.W, r.H) / 480
	header, rest := r.CutTop(math.Round(54 * unit))
	board, panel := rest.CutBottom(math.Round(100 * unit))
	var legend Rect
	var legends [2]string // each side's marks, what they stand for
	rows := 0
	if o.Thinking {
		if k, ok := Thinking(rec, t); ok {
			for _, side := range match.Sides {
				if legends[side] = MarkLegend(rec, k, side); legends[side] != "" {
					rows++
				}
			}
		}
		board, legend = board.CutBottom(math.Round(16*unit) + math.Round(13*unit)*float64(rows))
	}
	drawHeader(c, header, rec, t, d.Caption(rec, t), th, unit)
	d.Board(c, board.Inset(math.Round(6*unit)), rec, t, th)
	if o.Thinking {
		DrawThinking(c, board.Inset(math.Round(6*unit)), rec, t, th)
		face := Face{math.Round(11 * unit), Regular}
		x := DrawScaleLegend(c, legend.X+math.Round(8*unit), legend.Y, math.Round(16*unit), face, th)
		row := math.Round(16 * unit)
		c.Text("  each bot's options, worst to best; numbers: the line it expects", x, legend.Y+(row-c.LineHeight(face))/2, face, Left, th.TextDim)
		y := legend.Y + row
		small := Face{math.Round(10 * unit), Regular}
		for side, l := range legends {
			if l != "" {
				c.Text(Fit(c, l, small, legend.W-16*unit), legend.X+math.Round(8*unit), y, small, Left, th.Player[side])
				y += math.Round(13 * unit)
			}
		}
	}
	d.Panel(c, panel.Inset(math.Round(6*unit)), rec, t, th)
	drawResult(c, board, rec, t, th, unit)
	return nil
}

// shownState is the state whose figures are shown at time t: the next
// one once the animation of a turn is mostly done.
func shownState(rec *play.Record, t float64) match.State { return rec.State(Shown(rec, t)) }

// Shown returns the index of the state that the scores and the panels
// show at time t: a turn's result once most of its animation has played.
func Shown(rec *play.Record, t float64) int {
	k, f := Moment(rec, t)
	if f >= 0.65 {
		k++
	}
	return k
}

// drawHeader writes the players in their colours with their scores, the
// moment between them, and a bar split by the scores.
func drawHeader(c Canvas, r Rect, rec *play.Record, t float64, caption string, th *Theme, unit float64) {
	c.Fill(r, th.Panel)
	scores := shownState(rec, t).Outcome().Scores
	name := Face{math.Round(15 * unit), Bold}
	small := Face{math.Round(12 * unit), Regular}
	pad := math.Round(10 * unit)
	top := r.Y + math.Round(6*unit)
	for _, side := range match.Sides {
		label := fmt.Sprintf("%s %s", side, rec.Players[side])
		score := scores[side].String()
		if side == match.P1 {
			c.Text(label, r.X+pad, top, name, Left, th.Player[side])
			c.Text(score, r.X+pad, top+c.LineHeight(name), Face{name.Size, Bold}, Left, th.Text)
		} else {
			c.Text(label, r.X+r.W-pad, top, name, Right, th.Player[side])
			c.Text(score, r.X+r.W-pad, top+c.LineHeight(name), Face{name.Size, Bold}, Right, th.Text)
		}
	}
	c.Text(caption, r.X+r.W/2, top+c.LineHeight(name)*0.55, small, Center, th.TextDim)
	// The bar, as in the original's window: split in proportion to the scores.
	bar := Rect{r.X, r.Y + r.H - math.Round(5*unit), r.W, math.Round(5 * unit)}
	total := scores[0].Float() + scores[1].Float()
	split := 0.5
	if total > 0 {
		split = scores[0].Float() / total
	}
	left, right := bar.CutLeft(math.Round(bar.W * split))
	c.Fill(left, th.Player[0])
	c.Fill(right, th.Player[1])
}

// drawResult shows how the match ended over the board, once playback
// reaches the end.
func drawResult(c Canvas, r Rect, rec *play.Record, t float64, th *Theme, unit float64) {
	if rec.Result == nil || t < Span(rec) {
		return
	}
	res := rec.Result
	title, col := "Draw", th.Text
	if res.Winner != match.NoSide {
		title, col = fmt.Sprintf("%s %s wins", res.Winner, rec.Players[res.Winner]), th.Player[res.Winner]
	}
	big := Face{math.Round(22 * unit), Bold}
	small := Face{math.Round(12 * unit), Regular}
	reason := Fit(c, res.Reason, small, r.W*0.9)
	h := c.LineHeight(big) + c.LineHeight(small) + math.Round(16*unit)
	band := Rect{r.X, r.Y + (r.H-h)/2, r.W, h}
	c.Fill(band, Alpha(th.Panel, 0.92))
	c.Text(title, r.X+r.W/2, band.Y+math.Round(6*unit), big, Center, col)
	c.Text(reason, r.X+r.W/2, band.Y+math.Round(8*unit)+c.LineHeight(big), small, Center, th.Text)
}

// Fit shortens s with an ellipsis until it fits in width w.
func Fit(c Canvas, s string, f Face, w float64) string {
	if c.TextWidth(s, f) <= w {
		return s
	}
	// The longest prefix that fits with the ellipsis, by bisection.
	r := []rune(s)
	lo, hi := 1, len(r)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if c.TextWidth(string(r[:mid])+"…", f) <= w {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}

// Wrap writes s in lines no wider than w, the first with its top at y,
// and returns the y below the last.
func Wrap(c Canvas, s string, x, y, w float64, f Face, col color.RGBA) float64 {
	line := ""
	for _, word := range strings.Fields(s) {
		try := strings.TrimSpace(line + " " + word)
		if line != "" && c.TextWidth(try, f) > w {
			c.Text(line, x, y, f, Left, col)
			y += c.LineHeight(f)
			line = word
			continue
		}
		line = try
	}
	if line != "" {
		c.Text(Fit(c, line, f, w), x, y, f, Left, col)
		y += c.LineHeight(f)
	}
	return y
}

// CostText writes a cost for people: see [match.Score.String].
func CostText(v float64) string { return match.Cost(v).String() }
