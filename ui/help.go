package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arena-playground/arena/engine/match"

	"github.com/arena-playground/arena/render"
)

// helpKeys lists the shortcuts shown by the help overlay, with the
// games' number keys as the registry has them.
func helpKeys() [][2]string {
	games := match.Games()
	numbers := fmt.Sprintf("%d – %d", games[0].Info().Key, games[len(games)-1].Info().Key)
	return slices.Insert(slices.Clone(keys), 10, [2]string{numbers, "choose the game (on the start view)"})
}

// keys lists the shortcuts shown by the help overlay.
var keys = [][2]string{
	{"Space", "play or pause"},
	{"← →", "one turn back or forward"},
	{", .", "one line of a search's trace back or forward"},
	{"Home End", "first turn, latest turn"},
	{"+ −", "faster, slower (0.25x to 64x)"},
	{"R", "play again from the start"},
	{"N", "new match with a new seed (asks first)"},
	{"T", "show what the bots thought: candidates by value, the line expected"},
	{"A", "analyse the position at a stated depth: the best moves, what refutes the rest"},
	{"V", "play the option picked on the board in a variation (a second click on it too)"},
	{"G", "record the match as a GIF"},
	{"L", "copy the link to this match"},
	{"Enter", "start the match; send your move"},
	{"Backspace", "take back your last cell"},
	{"Esc", "back to the game from a variation; to the start view (asks first); leave the seed field"},
	{"H ?", "show or hide this help"},
	{"drop a file", "play on a course's input.txt or a game's config"},
}

// drawHelp draws the overlay of keys over the whole window: as wide as
// its longest line needs, up to the window's width, each key's words
// wrapped within the card where the window is narrower (a phone).
func drawHelp(c render.Canvas, st style, w, h float64) {
	th := st.th
	c.Fill(rect{W: w, H: h}, render.Alpha(th.Background, 0.8))
	lh := c.LineHeight(st.text) * 1.5
	keyW := 130 * st.u
	keys := helpKeys()
	widest := 0.0
	for _, k := range keys {
		widest = math.Max(widest, c.TextWidth(k[1], st.text))
	}
	cw := math.Min(w-2*st.pad, math.Max(520*st.u, keyW+widest+4*st.pad))
	textW := cw - keyW - 4*st.pad
	rows := 0
	wrapped := make([][]string, len(keys))
	for i, k := range keys {
		wrapped[i] = wrapWords(c, k[1], textW, st.text)
		rows += len(wrapped[i])
	}
	ch := float64(rows+3) * lh
	card := rect{X: (w - cw) / 2, Y: math.Max(st.pad, (h-ch)/2), W: cw, H: ch}
	roundRect(c, card, st.radius*2, th.Panel)
	x, y := card.X+2*st.pad, card.Y+st.pad
	c.Text("Keys", x, y, st.title, render.Left, th.Text)
	y += lh * 1.4
	for i, k := range keys {
		c.Text(k[0], x, y, st.bold, render.Left, th.Accent)
		for _, line := range wrapped[i] {
			c.Text(line, x+keyW, y, st.text, render.Left, th.Text)
			y += lh
		}
	}
	c.Text(fit(c, "Mouse and touch: click the buttons, drag the timeline, click the board to play.", st.small, cw-4*st.pad), x, y+lh*0.3, st.small, render.Left, th.TextDim)
}

// wrapWords breaks s into lines no wider than width in face f.
func wrapWords(c render.Canvas, s string, width float64, f render.Face) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && c.TextWidth(try, f) > width {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return append(lines, line)
}
