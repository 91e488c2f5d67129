package ebitencanvas

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// atlas is one GPU image holding the white block that fills and lines
// are drawn from and the glyphs text is drawn from, packed in shelves.
// Text, fills and lines then come from one source and go out as one
// DrawTriangles call a target, where a DrawImage a glyph went through
// Ebitengine's layers one by one: in the page's WebAssembly, text was
// the largest part of redrawing a streaming match's panel.
type atlas struct {
	img *ebiten.Image
	// The shelf being filled: its next free x, its top and its height.
	x, y, rowH int
	// gen counts the times the atlas was emptied: a face whose glyphs
	// were placed in an earlier generation places them again.
	gen int
}

// atlasSize is the atlas's side: a frame's glyphs (a few faces, a hundred
// runes, up to eight sub-pixel offsets each) take a fraction of it.
const atlasSize = 1024

// whiteAt is a point within the atlas's white block (see triangles).
const whiteAt = 1

// newAtlas makes an atlas. A new image is already clear: clearing it
// again would paint its million pixels once more on the page's first
// frame, which software WebGL pays for in full.
func newAtlas() *atlas {
	a := &atlas{img: ebiten.NewImageWithOptions(image.Rect(0, 0, atlasSize, atlasSize), &ebiten.NewImageOptions{Unmanaged: true})}
	a.start()
	return a
}

// empty clears the atlas but for its white block, and starts a new
// generation.
func (a *atlas) empty() {
	a.img.Clear()
	a.start()
}

// start puts the white block in a clear atlas and starts a generation.
func (a *atlas) start() {
	a.img.SubImage(image.Rect(0, 0, 3, 3)).(*ebiten.Image).Fill(color.White)
	a.x, a.y, a.rowH = 4, 0, 4
	a.gen++
}

// place copies img into the atlas and returns where it is; ok is false
// when the atlas has no room left for it.
func (a *atlas) place(img *image.RGBA) (r image.Rectangle, ok bool) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if a.x+w > atlasSize { // the next shelf
		a.x, a.y, a.rowH = 0, a.y+a.rowH, 0
	}
	if a.x+w > atlasSize || a.y+h > atlasSize {
		return image.Rectangle{}, false
	}
	r = image.Rect(a.x, a.y, a.x+w, a.y+h)
	a.img.SubImage(r).(*ebiten.Image).WritePixels(img.Pix)
	// A pixel between glyphs: none samples its neighbour's edge.
	a.x, a.rowH = a.x+w+1, max(a.rowH, h+1)
	return r, true
}

// fits reports whether an image of w by h could be placed in an empty
// atlas.
func fits(w, h int) bool { return w+4 <= atlasSize && h <= atlasSize-4 }
