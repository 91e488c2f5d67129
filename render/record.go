package render

import (
	"image"
	"io"
	"math"

	"github.com/arena-playground/arena/engine/play"
)

// GIFOptions shape a recording.
type GIFOptions struct {
	Size           int     // the frame is Size x Size pixels
	FPS            int     // frames per second
	TurnsPerSecond float64 // playback speed; 0: the game's RecordRate
	HoldSeconds    float64 // how long the last frame stays before the loop
	Theme          *Theme
	// From and To bound the recorded turns; To <= 0 means the end.
	From, To int
	// Yield, when set, is called between frames so that a recording in
	// the browser leaves frames to the page; Progress, when set, is told
	// how many frames are done. Neither changes the GIF.
	Yield    func()
	Progress func(done, total int)
	// Thinking draws what the bots thought over the board (see
	// DrawThinking), in a palette with the theme's scale.
	Thinking bool
}

// DefaultGIF is what `arena record` and the GIF buttons use: 480 pixels,
// 30 frames per second, the game's speed (for Life, one frame per turn),
// and the result held 3 seconds. A 500-iteration Life match stays under
// 2 MB because only the changes of each frame are stored; slower speeds
// (-speed 10: three frames a turn) show each turn's animation, at about
// twice the size.
var DefaultGIF = GIFOptions{Size: 480, FPS: 30, HoldSeconds: 3, Theme: Dark}

// framesPerTurn is the number of frames that show one turn of rec: less
// than one when turns go faster than frames (Evasion's long sessions).
func (o GIFOptions) framesPerTurn(rec *play.Record) float64 {
	rate := o.TurnsPerSecond
	if rate <= 0 {
		rate = RecordRate(rec)
	}
	return float64(o.FPS) / rate
}

// frameTimes returns the playback times of the frames, from the first
// turn to the last. Each turn gets frames in proportion to its pace,
// at least one while a turn lasts a frame or more; when turns are
// shorter, frames fall at even steps of the paced playback and skip the
// turns between them (a turn held longer still gets its frames).
func (o GIFOptions) frameTimes(rec *play.Record) []float64 {
	fpt := o.framesPerTurn(rec)
	from, to := o.span(rec)
	var times []float64
	if fpt >= 1 {
		for k := from; k < to; k++ {
			nk := max(1, int(math.Round(fpt*Pace(rec, k))))
			for j := range nk {
				times = append(times, float64(k)+float64(j)/float64(nk))
			}
		}
		return append(times, float64(to))
	}
	step := 1 / fpt // paced turns a frame
	pos, next := 0.0, 0.0
	for k := from; k < to; k++ {
		p := Pace(rec, k)
		for ; next < pos+p; next += step {
			times = append(times, float64(k)+(next-pos)/p)
		}
		pos += p
	}
	return append(times, float64(to))
}

// WriteGIF records the whole match as an animated GIF. Frames are drawn
// on one goroutine and encoded on another.
func WriteGIF(w io.Writer, rec *play.Record, o GIFOptions) error {
	if _, err := DrawerFor(rec.Game.Info().Name); err != nil {
		return err
	}
	times := o.frameTimes(rec)
	n := len(times)
	type frame struct {
		img   *Image
		delay int
	}
	free := make(chan *Image, 3)
	for range cap(free) {
		free <- NewImage(o.Size, o.Size)
	}
	frames := make(chan frame, cap(free))
	size := float64(o.Size)
	go func() {
		defer close(frames)
		for i := range n {
			img := <-free
			DrawFrame(img, Rect{0, 0, size, size}, rec, times[i], o.Theme, FrameOptions{Thinking: o.Thinking})
			// Delays in hundredths of a second, rounded so that they add up.
			delay := int(math.Round(float64(i+1)*100/float64(o.FPS))) - int(math.Round(float64(i)*100/float64(o.FPS)))
			if i == n-1 {
				delay = int(math.Round(o.HoldSeconds * 100))
			}
			frames <- frame{img, delay}
			if o.Yield != nil {
				o.Yield()
			}
		}
	}()
	pal := o.Theme.PaletteFor(rec.Game.Info().Name)
	if o.Thinking {
		pal = o.Theme.ThinkingPaletteFor(rec.Game.Info().Name)
	}
	g := NewGIFWriter(w, o.Size, o.Size, pal)
	var err error
	for f := range frames {
		if err == nil {
			err = g.Add(f.img.RGBA, f.delay)
		}
		free <- f.img
		if o.Progress != nil {
			o.Progress(g.Frames(), n)
		}
		if o.Yield != nil {
			o.Yield()
		}
	}
	if err != nil {
		return err
	}
	return g.Close()
}

// span returns the turns to record, clamped to the match.
func (o GIFOptions) span(rec *play.Record) (from, to int) {
	last := int(Span(rec))
	to = last
	if o.To > 0 {
		to = min(o.To, last)
	}
	from = min(max(o.From, 0), to)
	return from, to
}

// Still draws one frame of the match at time t, size pixels square, for
// a PNG (the caller encodes it: image/png registers its decoder with the
// image package, and the page, which links render, writes no PNG).
func Still(rec *play.Record, t float64, size int, th *Theme, o FrameOptions) (*image.RGBA, error) {
	img := NewImage(size, size)
	if err := DrawFrame(img, Rect{0, 0, float64(size), float64(size)}, rec, t, th, o); err != nil {
		return nil, err
	}
	return img.RGBA, nil
}
