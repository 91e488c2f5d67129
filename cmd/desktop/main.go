// Command desktop opens the playground in a window. Its flags take the
// same values as the page's URL (?game=life&p1=strong&p2=greedy&seed=7);
// with -record it writes the match's GIF without opening a window (on Linux
// it still needs a display, as every program that links Ebitengine), the
// same bytes as `arena record` with the same arguments.
package main

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	_ "github.com/arena-playground/arena/analysis/reports" // the board's reports of finished matches

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/cmd/desktop/options"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/atomicfile"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/frameclock"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
	_ "github.com/arena-playground/arena/players/gointerp" // go: bots, and this binary as their interpreter
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament/gauntlet"
	"github.com/arena-playground/arena/ui"
)

func main() {
	cleanup.OnSignals()
	o := &options.Parsed // read before Ebitengine opened the display (package options)
	hosting, err := (play.Hosting{Python: o.Python}).WithCaps(o.Caps)
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
	if err := o.Offers.Offer(hosting); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
	serve := play.ServeOptions{Log: untrusted.NewWriter(os.Stderr), Hosting: hosting} // the log: where network players are awaited
	if !o.Quiet {
		serve.Said = serve.Log
	}
	game, p1, p2, preset, seed := &o.Game, &o.P1, &o.P2, &o.Preset, &o.Seed
	turn, thinking, config, replay, record, shot, frames, measure := &o.Turn, &o.Thinking, &o.Config, &o.Replay, &o.Record, &o.Screenshot, &o.Frames, &o.Measure
	offers := o.Offers

	q := url.Values{}
	for k, v := range map[string]string{"game": *game, "p1": *p1, "p2": *p2, "preset": *preset} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if *seed != 0 {
		q.Set("seed", strconv.FormatUint(*seed, 10))
	}
	opts := ui.Options{Link: ui.ParseLink(q)}
	opts.Serve = serve
	opts.Turn = *turn
	opts.Thinking = *thinking
	opts.Analyse = o.Analyse
	opts.Reports = true
	for _, p := range offers {
		opts.Programs = append(opts.Programs, ui.Program{Game: p.Game, Name: p.Name, Spec: p.SpecText(), Kind: p.Spec.Name})
	}
	if len(offers) > 0 {
		opts.Gauntlets = ui.LocalGauntlets{Dir: gauntlet.DefaultDir(), Serve: serve}
	}
	opts.ProgramsHelp = "Your own program here: " + options.Name + " -player GAME/NAME=SPEC, or -p1 SPEC (see docs/playground.md)."
	for _, f := range []string{*config, *replay} {
		if f == "" {
			continue
		}
		data, err := safefile.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "desktop:", err)
			os.Exit(1)
		}
		opts.File, opts.FileData = f, data
	}
	if *record != "" {
		if err := recordGIF(*record, opts); err != nil {
			fmt.Fprintln(os.Stderr, "desktop:", err)
			os.Exit(1)
		}
		return
	}
	opts.Platform = desktop{}
	ebiten.SetWindowSize(o.Size.W, o.Size.H)
	ebiten.SetWindowTitle("arena")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	app := ui.New(opts)
	var g ebiten.Game = app
	if *shot != "" || *measure {
		g = &screenshot{Game: g, app: app, path: *shot, after: *frames, start: time.Now()}
	}
	if err := ebiten.RunGame(g); err != nil && err != ebiten.Termination {
		fmt.Fprintln(os.Stderr, "desktop:", err)
		os.Exit(1)
	}
}

// recordGIF plays the match the window would start and writes its GIF as
// `arena record` does.
func recordGIF(path string, o ui.Options) error {
	setup, err := ui.Setup(o)
	if err != nil {
		return err
	}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		return err
	}
	opts := render.DefaultGIF
	opts.Thinking = o.Thinking
	return atomicfile.Write(path, func(w io.Writer) error { return render.WriteGIF(w, rec, opts) })
}

// desktop is the window's platform: GIFs go to the working directory,
// links to standard output (there is no clipboard to copy to).
type desktop struct{}

func (desktop) SaveGIF(name string, data []byte) (string, error) {
	if err := atomicfile.Write(name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	return "GIF saved to " + abs, nil
}

func (desktop) Share(q url.Values, copy bool) (string, error) {
	link := "?" + q.Encode()
	if copy {
		fmt.Println("link to this match:", link)
		return link + " (printed in the terminal)", nil
	}
	return link, nil
}

// screenshot runs the game for a number of frames, saves what the window
// shows (when given a path) or prints what drawing them cost, and ends:
// the test that looks at the desktop window uses it.
type screenshot struct {
	ebiten.Game
	app   *ui.App
	start time.Time
	path  string
	after int
	n     int
	first int // the frame the measure's clock started at
	// clock keeps the longest and the slow frames from the 30th on,
	// while the match computes too (as the page's count does).
	clock frameclock.Clock
	done  bool
	err   error
}

// warmup is the number of frames -measure lets pass before its clock
// starts (the window opening, the first whole frames), as
// internal/blank does.
const warmup = 30

func (s *screenshot) Update() error {
	if s.done {
		if s.err != nil {
			return s.err
		}
		return ebiten.Termination
	}
	return s.Game.Update()
}

func (s *screenshot) Draw(screen *ebiten.Image) {
	s.Game.Draw(screen)
	s.n++
	if s.path == "" {
		s.measure()
		return
	}
	if s.n < s.after || s.done {
		return
	}
	s.done = true
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	s.err = atomicfile.Write(s.path, func(w io.Writer) error { return png.Encode(w, img) })
}

// measure times the frames drawn once the match is computed (while a bot
// computes, it shares the CPU with the drawing) and past the first 30,
// as many as -frames less those 30, and prints their rate.
func (s *screenshot) measure() {
	if s.done {
		return
	}
	if s.n >= warmup {
		s.clock.Frame(time.Now())
	}
	if s.start.IsZero() {
		if s.n >= warmup && s.app.Status().Done {
			s.start, s.first = time.Now(), s.n
		}
		return
	}
	n := s.n - s.first
	if n < s.after-warmup {
		return
	}
	s.done = true
	st := s.app.Status()
	secs := time.Since(s.start).Seconds()
	fmt.Printf("%d frames in %.1f s: %.1f frames a second; %s; Go draw %.2f ms a frame, longest %.2f ms, %.0f%% of the screen drawn (last 120 frames); turn %.1f, %d computed\n",
		n, secs, float64(n)/secs, &s.clock, st.DrawMs, st.DrawMaxMs, 100*st.Drawn, st.Turn, st.Computed)
}
