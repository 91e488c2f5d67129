package render

import (
	"bufio"
	"compress/lzw"
	"errors"
	"image"
	"io"
)

// GIFWriter writes an animated GIF as frames arrive, so that a long match
// never sits in memory. Each frame is quantised with the theme palette's
// lookup table and compared with the frame before it; only the rectangle
// that changed is written, with the pixels that did not change inside it
// transparent (disposal "leave in place"), which LZW compresses to almost
// nothing. The palette's size sets the width of the LZW codes.
type GIFWriter struct {
	w        *bufio.Writer
	pal      *Palette
	width    int
	height   int
	prev     []uint8 // what the viewer shows after the frames so far
	cur      []uint8
	patch    []uint8
	frames   int
	codeBits int // bits per palette index
	err      error
	lzwBlock blockWriter
}

// NewGIFWriter starts a GIF of the given size that loops forever.
func NewGIFWriter(w io.Writer, width, height int, pal *Palette) *GIFWriter {
	g := &GIFWriter{w: bufio.NewWriterSize(w, 1<<16), pal: pal, width: width, height: height,
		prev: make([]uint8, width*height), cur: make([]uint8, width*height)}
	g.lzwBlock.w = g.w
	for 1<<g.codeBits < len(pal.Colors) || g.codeBits < 2 {
		g.codeBits++
	}
	b := g.w
	b.WriteString("GIF89a")
	le16(b, width)
	le16(b, height)
	b.WriteByte(0xf0 | uint8(g.codeBits-1)) // global colour table of 2^codeBits entries
	b.WriteByte(0)                          // background colour index
	b.WriteByte(0)                          // square pixels
	for i := range 1 << g.codeBits {
		var r, gg, bb uint32
		if i < len(pal.Colors) {
			r, gg, bb, _ = pal.Colors[i].RGBA()
		}
		b.Write([]byte{uint8(r >> 8), uint8(gg >> 8), uint8(bb >> 8)})
	}
	b.Write([]byte{0x21, 0xff, 0x0b}) // application extension: loop forever
	b.WriteString("NETSCAPE2.0")
	b.Write([]byte{0x03, 0x01, 0x00, 0x00, 0x00})
	return g
}

func le16(w io.ByteWriter, v int) {
	w.WriteByte(uint8(v))
	w.WriteByte(uint8(v >> 8))
}

// Frames returns the number of frames written.
func (g *GIFWriter) Frames() int { return g.frames }

// Add appends a frame shown for delay hundredths of a second. img must
// have the GIF's size and be opaque.
func (g *GIFWriter) Add(img *image.RGBA, delay int) error {
	if g.err != nil {
		return g.err
	}
	if img.Rect.Dx() != g.width || img.Rect.Dy() != g.height {
		return errors.New("render: GIF frame of the wrong size")
	}
	// Quantise, and find the rectangle that changed.
	x0, y0, x1, y1 := g.width, g.height, -1, -1
	for y := range g.height {
		row := img.Pix[y*img.Stride : y*img.Stride+4*g.width]
		cur := g.cur[y*g.width : (y+1)*g.width]
		prev := g.prev[y*g.width : (y+1)*g.width]
		changed := false
		for x := range cur {
			i := g.pal.Index(row[4*x], row[4*x+1], row[4*x+2])
			cur[x] = i
			if i != prev[x] || g.frames == 0 {
				changed = true
				x0, x1 = min(x0, x), max(x1, x)
			}
		}
		if changed {
			y0, y1 = min(y0, y), y
		}
	}
	if x1 < 0 { // nothing changed: a 1x1 transparent frame keeps the timing
		x0, y0, x1, y1 = 0, 0, 0, 0
	}
	w, h := x1-x0+1, y1-y0+1
	g.patch = g.patch[:0]
	tr := g.pal.Transparent
	for y := y0; y <= y1; y++ {
		cur, prev := g.cur[y*g.width+x0:y*g.width+x1+1], g.prev[y*g.width+x0:y*g.width+x1+1]
		for x, i := range cur {
			if g.frames > 0 && i == prev[x] {
				i = tr
			}
			g.patch = append(g.patch, i)
		}
	}
	if g.frames > 0 {
		// An unchanged pixel may also be written as itself: do so where
		// that lengthens a run of the colour beside it.
		for y := y0; y <= y1; y++ {
			row := g.patch[(y-y0)*w : (y-y0+1)*w]
			cur := g.cur[y*g.width+x0 : y*g.width+x1+1]
			for x := 1; x < w; x++ {
				if row[x] == tr && row[x-1] != tr && cur[x] == row[x-1] {
					row[x] = cur[x]
				}
			}
			for x := w - 2; x >= 0; x-- {
				if row[x] == tr && row[x+1] != tr && cur[x] == row[x+1] {
					row[x] = cur[x]
				}
			}
		}
	}
	g.writeFrame(x0, y0, w, h, delay)
	g.prev, g.cur = g.cur, g.prev
	g.frames++
	return g.err
}

// writeFrame writes a graphic control extension and an image of g.patch.
func (g *GIFWriter) writeFrame(x, y, w, h, delay int) {
	b := g.w
	b.Write([]byte{0x21, 0xf9, 0x04, 1<<2 | 1}) // leave in place; transparent index given
	le16(b, delay)
	b.WriteByte(g.pal.Transparent)
	b.WriteByte(0)
	b.WriteByte(0x2c)
	le16(b, x)
	le16(b, y)
	le16(b, w)
	le16(b, h)
	b.WriteByte(0)                 // no local colour table, not interlaced
	b.WriteByte(uint8(g.codeBits)) // LZW minimum code size
	lw := lzw.NewWriter(&g.lzwBlock, lzw.LSB, g.codeBits)
	if _, err := lw.Write(g.patch); err != nil {
		g.err = err
	}
	if err := lw.Close(); err != nil && g.err == nil {
		g.err = err
	}
	g.lzwBlock.flush()
	b.WriteByte(0) // block terminator
}

// Close writes the trailer and flushes.
func (g *GIFWriter) Close() error {
	if g.err != nil {
		return g.err
	}
	g.w.WriteByte(0x3b)
	return g.w.Flush()
}

// blockWriter cuts the LZW stream into the GIF's sub-blocks of at most 255
// bytes, each preceded by its length.
type blockWriter struct {
	w   *bufio.Writer
	buf [255]byte
	n   int
}

func (b *blockWriter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		k := copy(b.buf[b.n:], p)
		b.n += k
		p = p[k:]
		if b.n == len(b.buf) {
			b.flush()
		}
	}
	return total, nil
}

func (b *blockWriter) flush() {
	if b.n == 0 {
		return
	}
	b.w.WriteByte(uint8(b.n))
	b.w.Write(b.buf[:b.n])
	b.n = 0
}
