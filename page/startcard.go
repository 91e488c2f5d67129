package page

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image/color"
	"image/png"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/ui/startcard"
)

// startCardMarker is where index.html takes the start card.
const startCardMarker = "<!-- the start card: page.Build writes it here (page/startcard.go) -->"

// The two layouts the HTML card is written for, in CSS pixels: a window
// of 1000x640 or more (the program's zoom is 1 there), and a phone's
// (under ui's compact width, 600). Between the two the program zooms
// out a little, and its card is a little smaller than the HTML's.
var cardLayouts = []struct {
	w, h    float64
	compact bool
	media   string // the CSS media query it holds under
}{
	{1280, 800, false, ""},
	{390, 844, true, "(max-width: 599px)"},
}

// startCard writes into index.html, at its marker, the start view's card
// as the program draws it: the theme's colours, the card's box, its
// title, its intro and each game's still where startcard lays them out
// (a still is the game's board drawn by its drawer, as a PNG), the rows
// greyed, and the loading line. A first visit paints it before any of
// the program is compiled, and the program draws the same card in the
// same place when it starts (TestPagePaintsBeforeItsProgram).
func startCard(index []byte) ([]byte, error) {
	if !bytes.Contains(index, []byte(startCardMarker)) {
		return nil, fmt.Errorf("index.html has no %q", startCardMarker)
	}
	th := render.Dark
	games := match.Games()
	var css, body strings.Builder
	hex := func(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
	fmt.Fprintf(&css, ":root{--bg:%s;--panel:%s;--text:%s;--dim:%s;--accent:%s}\n", hex(th.Background), hex(th.Panel), hex(th.Text), hex(th.TextDim), hex(th.Accent))
	metrics := render.NewImage(1, 1)
	var stills [2][]string // each layout's stills, as data URLs
	for i, l := range cardLayouts {
		st := startcard.StyleAt(1, l.compact)
		card := startcard.Layout(metrics, st, l.w, l.h, 1, len(games))
		top := "max(" + px(st.Pad) + ", " + fmt.Sprintf("%gvh", 100*startcard.TopShare) + ")"
		if l.compact {
			top = px(st.Pad)
		}
		rule := fmt.Sprintf("#card{--cw:min(calc(100vw - %s), %s);top:%s;--pad:%s;--gap:%s}\n", px(2*st.Pad), px(startcard.MaxWidth), top, px(st.Pad), px(st.Gap)) +
			fmt.Sprintf("#card h1{font-size:%s;line-height:%s}\n", px(st.Title.Size), px(metrics.LineHeight(st.Title))) +
			fmt.Sprintf("#card .intro{top:%s;font-size:%s;line-height:%s}\n", px(card.IntroY-card.Box.Y), px(st.Text.Size), px(metrics.LineHeight(st.Text))) +
			fmt.Sprintf("#card .stills{top:%s;height:%s}\n", px(card.Stills[0].Y-card.Box.Y), px(card.Stills[0].H)) +
			fmt.Sprintf("#card .rows{top:%s}\n", px(card.Rows-card.Box.Y))
		if l.media != "" {
			rule = "@media " + l.media + "{\n" + rule + "}\n"
		}
		css.WriteString(rule)
		for _, g := range games {
			img, err := startcard.Image(g, int(card.Stills[0].W), int(card.Stills[0].H), th)
			if err != nil {
				return nil, fmt.Errorf("%s's still: %v", g.Info().Name, err)
			}
			var b bytes.Buffer
			if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
				return nil, err
			}
			stills[i] = append(stills[i], "data:image/png;base64,"+base64.StdEncoding.EncodeToString(b.Bytes()))
		}
	}
	body.WriteString(`<div id="card"><h1>arena</h1><p class="intro">` + html.EscapeString(startcard.Intro) + `</p><div class="stills">`)
	for i, g := range games {
		info := g.Info()
		fmt.Fprintf(&body, `<span title="%d %s"><img class="wide" alt="" src="%s"><img class="narrow" alt="" src="%s"></span>`,
			info.Key, html.EscapeString(info.Label()), stills[0][i], stills[1][i])
	}
	body.WriteString(`</div><div class="rows">`)
	for _, label := range []string{"Game", "P1", "P2", "Board", "Seed"} {
		fmt.Fprintf(&body, `<div class="row"><b>%s</b><i></i><i></i><i></i></div>`, label)
	}
	body.WriteString(`<div class="row"><b></b><i class="start">Start</i></div></div>`)
	body.WriteString(`<div class="load"><div id="bar"><div id="fill"></div></div><div id="msg">Loading the playground…</div></div></div>`)
	out := "<style>\n" + css.String() + "</style>\n" + body.String()
	return bytes.Replace(index, []byte(startCardMarker), []byte(out), 1), nil
}

// px writes a length in CSS pixels.
func px(v float64) string { return fmt.Sprintf("%gpx", v) }
