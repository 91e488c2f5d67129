package render

import (
	"image/color"
	"slices"
	"sync"
)

// Theme is the set of colours everything is drawn in. Keeping to it lets
// GIFs use a small fixed palette that reproduces every frame exactly.
type Theme struct {
	Background color.RGBA // behind everything
	Panel      color.RGBA // panels and bars
	Board      color.RGBA // an empty board square
	Grid       color.RGBA // grid lines
	Text       color.RGBA
	TextDim    color.RGBA // secondary text
	Accent     color.RGBA // focus, selection
	Player     [2]color.RGBA
	Collision  color.RGBA // contested cells, forfeits
	Mark       color.RGBA // this turn's moves
	// Scale is the colours of a bot's thinking, from the lowest value it
	// gave to the highest (see DrawThinking): dull to bright, none of
	// them a player's.
	Scale [ScaleSteps]color.RGBA

	once  sync.Once
	pal   *Palette
	mu    sync.Mutex
	inked map[string]*Palette // by game, for drawers with inks of their own
}

// Dark is the playground's theme: a slate night with a sky-blue first
// player and an orange second player, a pair that colour-blind viewers
// also tell apart.
var Dark = &Theme{
	Background: rgb(0x0f172a),
	Panel:      rgb(0x1e293b),
	Board:      rgb(0x162032),
	Grid:       rgb(0x26334a),
	Text:       rgb(0xe2e8f0),
	TextDim:    rgb(0x94a3b8),
	Accent:     rgb(0xa78bfa),
	Player:     [2]color.RGBA{rgb(0x38bdf8), rgb(0xfb923c)},
	Collision:  rgb(0xf43f5e),
	Mark:       rgb(0xffffff),
	Scale:      [ScaleSteps]color.RGBA{rgb(0x64748b), rgb(0x8b5cf6), rgb(0xd946ef), rgb(0xfb7185), rgb(0xfde047)},
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// Mix returns a blended a fraction t of the way to b, opaque.
func Mix(a, b color.RGBA, t float64) color.RGBA {
	t = min(max(t, 0), 1)
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}

// Alpha returns c with opacity a (0 to 1).
func Alpha(c color.RGBA, a float64) color.RGBA {
	c.A = uint8(min(max(a, 0), 1)*255 + 0.5)
	return c
}

// Palette returns the theme's GIF palette (see Palette).
func (t *Theme) Palette() *Palette {
	t.once.Do(func() { t.pal = newPalette(t, nil) })
	return t.pal
}

// Inker is implemented by drawers that paint in colours of their own
// besides the theme's (map colouring's named colours).
type Inker interface {
	Inks() []color.RGBA
}

// PaletteFor returns the GIF palette of a game: the theme's, with the
// inks of the game's drawer when it has some. Only games that need them
// pay for the wider LZW codes a larger palette takes.
func (t *Theme) PaletteFor(game string) *Palette {
	ink, ok := drawers[game].(Inker)
	if !ok {
		return t.Palette()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.inked[game]; ok {
		return p
	}
	if t.inked == nil {
		t.inked = map[string]*Palette{}
	}
	p := newPalette(t, ink.Inks())
	t.inked[game] = p
	return p
}

// ThinkingPaletteFor is PaletteFor with the theme's scale among the inks,
// for recordings that draw what bots thought: the palette of a recording
// without it stays as it was.
func (t *Theme) ThinkingPaletteFor(game string) *Palette {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := game + "+thinking"
	if p, ok := t.inked[key]; ok {
		return p
	}
	if t.inked == nil {
		t.inked = map[string]*Palette{}
	}
	var own []color.RGBA
	if ink, ok := drawers[game].(Inker); ok {
		own = ink.Inks()
	}
	p := newPalette(t, append(slices.Clone(own), t.Scale[:]...))
	t.inked[key] = p
	return p
}

// Palette is a GIF palette made from a theme: its colours, the blends that
// fades and antialiased edges produce between them (three steps: more
// would cost LZW code bits in every frame and show no better), a game's
// own inks (see Inker) with a blend toward each ground, and one
// transparent entry for pixels a frame leaves as they were. A lookup table maps any
// colour, at 5 bits per channel, to its nearest entry in constant time.
type Palette struct {
	Colors      color.Palette
	Transparent uint8
	lut         [1 << 15]uint8
}

func newPalette(t *Theme, own []color.RGBA) *Palette {
	grounds := []color.RGBA{t.Background, t.Panel, t.Board}
	inks := []color.RGBA{t.Grid, t.Text, t.TextDim, t.Accent, t.Player[0], t.Player[1], t.Collision, t.Mark}
	seen := map[color.RGBA]bool{}
	var cols []color.RGBA
	add := func(c color.RGBA) {
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	for _, c := range append(grounds, inks...) {
		add(c)
	}
	for _, g := range grounds {
		for _, k := range inks {
			for _, f := range []float64{0.25, 0.5, 0.75} {
				add(Mix(g, k, f))
			}
		}
	}
	// A drawer's own inks, with one blend toward each ground for their
	// edges and fades.
	for _, h := range own {
		add(h)
		for _, g := range grounds {
			add(Mix(g, h, 0.5))
		}
	}
	p := &Palette{}
	for _, c := range cols[:min(len(cols), 255)] {
		p.Colors = append(p.Colors, c)
	}
	p.Transparent = uint8(len(p.Colors))
	p.Colors = append(p.Colors, color.RGBA{})
	for i := range p.lut {
		r, g, b := uint8(i>>10)<<3|4, uint8(i>>5&31)<<3|4, uint8(i&31)<<3|4
		p.lut[i] = p.nearest(r, g, b)
	}
	// A palette colour maps to itself, the theme's own colours winning
	// the cells they share with blends (they come first, so go last).
	for i := int(p.Transparent) - 1; i >= 0; i-- {
		c := p.Colors[i].(color.RGBA)
		p.lut[lutIndex(c.R, c.G, c.B)] = uint8(i)
	}
	return p
}

func lutIndex(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// nearest finds the opaque entry closest to (r, g, b).
func (p *Palette) nearest(r, g, b uint8) uint8 {
	best, bestD := 0, int(^uint(0)>>1)
	for i, c := range p.Colors[:p.Transparent] {
		rc := c.(color.RGBA)
		dr, dg, db := int(rc.R)-int(r), int(rc.G)-int(g), int(rc.B)-int(b)
		// Weighted towards green, as the eye is.
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// Index returns the palette entry for an opaque colour.
func (p *Palette) Index(r, g, b uint8) uint8 {
	return p.lut[lutIndex(r, g, b)]
}
