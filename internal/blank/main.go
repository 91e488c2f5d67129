// Command blank is an Ebitengine program that draws nothing: the frame
// rate a browser or a window gives Ebitengine itself, which `make measure`
// builds and measures in the same run as the page and the window, and
// reports their rates against.
//
//	blank -frames 300   (a window: prints its frame rate over frames 30 to 300)
//
// Built for js/wasm it stands in for arena.wasm on the page's own
// index.html, whose frame counter the page benchmark reads.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/internal/frameclock"
)

type blank struct {
	frames, n int
	start     time.Time
	clock     frameclock.Clock
	done      bool
}

// warmup is the number of frames let pass before the clock starts (the
// window opening, the first frames), as the desktop's -measure does.
const warmup = 30

func (b *blank) Update() error {
	if b.done {
		return ebiten.Termination
	}
	return nil
}

func (b *blank) Draw(*ebiten.Image) {
	b.n++
	drawn(b.n)
	if b.n < warmup {
		return
	}
	if b.n == warmup {
		b.start = time.Now()
	}
	b.clock.Frame(time.Now())
	if n := b.n - warmup; b.frames > 0 && n == b.frames-warmup {
		secs := time.Since(b.start).Seconds()
		fmt.Printf("%d frames in %.1f s: %.1f frames a second; %s\n", n, secs, float64(n)/secs, &b.clock)
		b.done = true
	}
}

func (b *blank) Layout(w, h int) (int, int) { return w, h }

func main() {
	frames := flag.Int("frames", 0, "print the frame rate after this many frames and exit (0: run on)")
	flag.Parse()
	if *frames != 0 && *frames <= warmup {
		fmt.Fprintf(os.Stderr, "blank: -frames %d: it must be over %d, the frames let pass before the clock starts\n", *frames, warmup)
		os.Exit(2)
	}
	ebiten.SetWindowSize(1280, 800)
	ebiten.SetWindowTitle("blank")
	if err := ebiten.RunGame(&blank{frames: *frames}); err != nil && err != ebiten.Termination {
		fmt.Println("blank:", err)
	}
}
