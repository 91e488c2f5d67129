// Package render draws games onto a Canvas: the board of a state at any
// moment of its playback (fading between turns), the panels around it,
// whole GIF frames. It knows no rules beyond reading states.
//
// Canvas is a small set of primitives in theme colours. It has two back
// ends: Image, a software rasteriser (freetype's raster and truetype) that
// writes the same pixels on every machine, for PNG, GIF and golden-image
// tests; and the Ebitengine canvas of package render/ebitencanvas, for
// screens.
package render

import (
	"image"
	"image/color"
	"math"
)

// Rect is an axis-aligned rectangle in pixels.
type Rect struct{ X, Y, W, H float64 }

// Inset returns r shrunk by d on every side.
func (r Rect) Inset(d float64) Rect { return Rect{r.X + d, r.Y + d, r.W - 2*d, r.H - 2*d} }

// Contains reports whether (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// CutTop splits r into a band of height h at the top and the rest.
func (r Rect) CutTop(h float64) (top, rest Rect) {
	return Rect{r.X, r.Y, r.W, h}, Rect{r.X, r.Y + h, r.W, r.H - h}
}

// CutBottom splits r into the rest and a band of height h at the bottom.
func (r Rect) CutBottom(h float64) (rest, bottom Rect) {
	return Rect{r.X, r.Y, r.W, r.H - h}, Rect{r.X, r.Y + r.H - h, r.W, h}
}

// CutLeft splits r into a band of width w at the left and the rest.
func (r Rect) CutLeft(w float64) (left, rest Rect) {
	return Rect{r.X, r.Y, w, r.H}, Rect{r.X + w, r.Y, r.W - w, r.H}
}

// CutRight splits r into the rest and a band of width w at the right.
func (r Rect) CutRight(w float64) (rest, right Rect) {
	return Rect{r.X, r.Y, r.W - w, r.H}, Rect{r.X + r.W - w, r.Y, w, r.H}
}

// Point is a position in pixels.
type Point struct{ X, Y float64 }

// Style is a typeface of the Go font family.
type Style uint8

// The typefaces.
const (
	Regular Style = iota
	Bold
	Mono
)

// Face is a typeface at a size in pixels.
type Face struct {
	Size  float64
	Style Style
}

// Align places text horizontally around its anchor.
type Align uint8

// Horizontal alignments.
const (
	Left Align = iota
	Center
	Right
)

// Canvas is what drawers draw on. Colours are non-premultiplied RGBA; an
// alpha below 255 blends over what is there. Rectangles snap to whole
// pixels so that grids stay crisp on both back ends.
type Canvas interface {
	// Fill paints a rectangle.
	Fill(r Rect, c color.RGBA)
	// Stroke paints a rectangle's outline of the given width, inside r.
	Stroke(r Rect, width float64, c color.RGBA)
	// Line paints a segment with round ends.
	Line(a, b Point, width float64, c color.RGBA)
	// Polyline paints connected segments.
	Polyline(pts []Point, width float64, c color.RGBA)
	// Polygon fills a closed polygon.
	Polygon(pts []Point, c color.RGBA)
	// Circle fills a disc.
	Circle(centre Point, radius float64, c color.RGBA)
	// Ring paints a circle's outline of the given width.
	Ring(centre Point, radius, width float64, c color.RGBA)
	// Text writes one line whose box has its top at y and is aligned on x.
	Text(s string, x, y float64, f Face, align Align, c color.RGBA)
	// TextWidth measures a line of text.
	TextWidth(s string, f Face) float64
	// LineHeight is the height of a line of text in face f.
	LineHeight(f Face) float64
	// Pixels draws a small opaque image scaled to fill r, each pixel a
	// sharp block, over what is there with opacity alpha (1: covering
	// it): large boards draw as one image of a pixel per cell, and a
	// turn's change as the next board's image faded in over the last's.
	// img must not change once drawn: a canvas may know it by its
	// address (the screen's record) and keep what it made of it (its GPU
	// copy).
	Pixels(r Rect, img *image.RGBA, alpha float64)
}

// Layers is implemented by canvases that keep drawings between frames
// (the screen's): what stands still is recorded once and reused, so that
// a frame costs what changed.
type Layers interface {
	// Layer shows what draw draws on the canvas within r. The drawing is
	// kept under name and reused without calling draw while key (a
	// comparable value naming everything the drawing depends on) and r
	// stay the same. draw must stay within r.
	Layer(name string, key any, r Rect, draw func())
}

// Layer draws through c's layers when it has them, and directly when it
// has not (the software canvas, whose every frame is drawn anew).
func Layer(c Canvas, name string, key any, r Rect, draw func()) {
	if l, ok := c.(Layers); ok {
		l.Layer(name, key, r, draw)
		return
	}
	draw()
}

// TextFloor is implemented by canvases with a smallest readable text size
// (a phone's screen); drawers that size text from the space they are
// given keep to it. Recordings have none, so their frames stay as they
// were designed.
type TextFloor interface {
	MinTextSize() float64
}

// textSize returns size, raised to c's smallest readable size if it has
// one.
func textSize(c Canvas, size float64) float64 {
	if f, ok := c.(TextFloor); ok {
		return math.Max(size, f.MinTextSize())
	}
	return size
}
