// Command blank is an Ebitengine program that draws nothing: the frame
// rate a browser or a window gives Ebitengine itself, which `make measure`
// builds and measures in the same run as the page and the window, and
// reports their rates against.
//
//	blank -frames 300   (a window: prints its frame rate after 300 frames)
//
// Built for js/wasm it stands in for arena.wasm on the page's own
// index.html, whose frame counter the page benchmark reads.
package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

type blank struct {
	frames, n int
	start     time.Time
	done      bool
}

func (b *blank) Update() error {
	if b.done {
		return ebiten.Termination
	}
	return nil
}

func (b *blank) Draw(*ebiten.Image) {
	b.n++
	drawn(b.n)
	if b.frames > 0 && b.n == b.frames {
		secs := time.Since(b.start).Seconds()
		fmt.Printf("%d frames in %.1f s: %.1f frames a second\n", b.n, secs, float64(b.n)/secs)
		b.done = true
	}
}

func (b *blank) Layout(w, h int) (int, int) { return w, h }

func main() {
	frames := flag.Int("frames", 0, "print the frame rate after this many frames and exit (0: run on)")
	flag.Parse()
	ebiten.SetWindowSize(1280, 800)
	ebiten.SetWindowTitle("blank")
	if err := ebiten.RunGame(&blank{frames: *frames, start: time.Now()}); err != nil && err != ebiten.Termination {
		fmt.Println("blank:", err)
	}
}
