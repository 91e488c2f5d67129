// Package startcard is what the start view's card is before the program
// draws it: its words, its geometry and the still of each game. The
// window's start view (package ui) lays itself out by it, and the page's
// server writes the same card in HTML and CSS (package page), so that a
// first visit paints the start view before its WebAssembly arrives and
// the program takes over with nothing moving. It imports no Ebitengine:
// the server that writes the HTML links none.
package startcard

import (
	"image"
	"image/color"
	"math"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// Intro is the card's line under the title.
const Intro = "Bots from AI courses play each other, or you. Pick a game, two players and a seed."

// The card's geometry, in units (a CSS pixel at the zoom of a window of
// 1000x640 or more, and on a phone).
const (
	MaxWidth      = 760  // the card's widest
	TopShare      = 0.08 // the card's top, a share of the window's height (a phone: its padding)
	LabelWidth    = 90   // the rows' labels' column (a phone: "Board"'s width and a padding)
	StillH        = 64   // a game's still (a phone: StillHCompact)
	StillHCompact = 28   // a phone's start view keeps Start on an 844-pixel screen with nine bots a seat
)

// StillSetup is the match a game's still shows the start of: its
// default board, seed 1, greedy on both sides (the same still each
// build).
func StillSetup(g match.Game) (play.Setup, error) {
	return play.NewSetup(g.Info().Name, "", 1, "greedy", "greedy")
}

// Record is the record of a still: the match's first state.
func Record(g match.Game) (*play.Record, error) {
	s, err := StillSetup(g)
	if err != nil {
		return nil, err
	}
	f, err := play.NewFollower(s)
	if err != nil {
		return nil, err
	}
	return f.Record(), nil
}

// Draw draws g's still in r: its board at the start, as the match view
// draws it, on the panel's colour.
func Draw(c render.Canvas, r render.Rect, rec *play.Record, th *render.Theme) error {
	d, err := render.DrawerFor(rec.Game.Info().Name)
	if err != nil {
		return err
	}
	c.Fill(r, th.Background)
	d.Board(c, r.Inset(2), rec, 0, th)
	return nil
}

// Image is g's still as an image w x h pixels, for the page's HTML.
func Image(g match.Game, w, h int, th *render.Theme) (*image.RGBA, error) {
	rec, err := Record(g)
	if err != nil {
		return nil, err
	}
	img := render.NewImage(w, h)
	if err := Draw(img, render.Rect{W: float64(w), H: float64(h)}, rec, th); err != nil {
		return nil, err
	}
	return img.RGBA, nil
}

// Style is what the card's layout takes of the window's style, in device
// pixels: the padding and the gap between things, and the title's and
// the text's faces. ui's style is made with these numbers (its test
// holds it to them), and the page's server lays out the HTML with them.
type Style struct {
	Pad, Gap    float64
	Title, Text render.Face
	Compact     bool
}

// StyleAt is the style at u device pixels a unit: ui's newStyle's
// numbers for the card.
func StyleAt(u float64, compact bool) Style {
	s := Style{Pad: math.Round(12 * u), Gap: math.Round(8 * u), Compact: compact,
		Title: render.Face{Size: math.Round(TitleSize * u), Style: render.Bold},
		Text:  render.Face{Size: math.Round(TextSize * u), Style: render.Regular}}
	if compact {
		s.Pad, s.Gap = math.Round(8*u), math.Round(6*u)
	}
	return s
}

// The card's text sizes, in units.
const (
	TitleSize = 30
	TextSize  = 14
)

// Card is the top of the start card in a window w x h device pixels: its
// box (its height is the caller's), where the intro starts, each game's
// still, and the y below the stills where the rows begin.
type Card struct {
	Box    render.Rect
	IntroY float64
	Stills []render.Rect
	Rows   float64
}

// Layout lays out the card's top for n games at u device pixels a unit,
// measuring its text on c.
func Layout(c render.Canvas, st Style, w, h, u float64, n int) Card {
	cw := math.Min(w-2*st.Pad, MaxWidth*u)
	top := math.Max(st.Pad, h*TopShare)
	if st.Compact {
		top = st.Pad
	}
	card := Card{Box: render.Rect{X: (w - cw) / 2, Y: top, W: cw}}
	card.IntroY = top + st.Pad + c.LineHeight(st.Title)
	y := render.Wrap(measure{c}, Intro, card.Box.X+st.Pad, card.IntroY, cw-2*st.Pad, st.Text, color.RGBA{}) + 2*st.Pad
	if st.Compact {
		y -= st.Pad
	}
	sh := StillH * u
	if st.Compact {
		sh = StillHCompact * u
	}
	inner := cw - 2*st.Pad
	sw := (inner - float64(n-1)*st.Gap) / float64(n) // as the HTML's flex shares the row
	for i := range n {
		card.Stills = append(card.Stills, render.Rect{X: card.Box.X + st.Pad + float64(i)*(sw+st.Gap), Y: y, W: sw, H: sh})
	}
	card.Rows = y + sh + st.Pad
	return card
}

// measure is a canvas that measures as c does and draws nothing.
type measure struct{ render.Canvas }

func (measure) Text(string, float64, float64, render.Face, render.Align, color.RGBA) {}
