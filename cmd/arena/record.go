package main

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/atomicfile"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/render"
)

func runRecord(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("record", stdout)
	m := matchFlags{log: stderr}
	m.register(fs, "p1", "p2")
	replay := fs.String("replay", "", "record this replay `file` instead of playing a match")
	out := fs.String("o", "", "the output `file`: .gif for the whole match, .png for one frame")
	size := fs.Int("size", render.DefaultGIF.Size, "frame width and height in pixels")
	fps := fs.Int("fps", render.DefaultGIF.FPS, "GIF frames per second")
	speed := fs.Float64("speed", 0, "turns per second of playback (default: the game's: 30 for Life and Colosseum, a whole map-colouring game in 30 s at most)")
	from := fs.Int("from", 0, "for a GIF: the first `turn` to record")
	to := fs.Int("to", 0, "for a GIF: the last `turn` to record (default: the end)")
	thinking := fs.Bool("thinking", false, "draw what the bots thought over the board: the options each weighed, coloured by value, and the line it expected")
	at := fs.Float64("at", -1, "for a PNG: the `turn` to show, a fraction showing its animation, e.g. 120.5 (default: the last)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(*out))
	switch {
	case *out == "":
		return usagef("-o is required: a .gif or .png file")
	case ext != ".gif" && ext != ".png":
		return usagef("-o %s: want a .gif or .png file", *out)
	case *size < 64 || *size > 4096:
		return usagef("-size %d: want 64 to 4096 pixels", *size)
	case *fps < 1 || *fps > 100:
		return usagef("-fps %d: want 1 to 100", *fps)
	case !(*speed >= 0) || math.IsInf(*speed, 0): // NaN fails every comparison
		return usagef("-speed %v: want a positive number of turns per second", *speed)
	case math.IsNaN(*at) || math.IsInf(*at, 0) || *at < 0 && *at != -1:
		return usagef("-at %v: want a turn, 0 or more", *at)
	case *from < 0 || *to < 0 || (*to > 0 && *to <= *from):
		return usagef("-from %d -to %d: want 0 <= from < to", *from, *to)
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o %v", err) // before a match is played for nothing
	}
	rec, err := recordSource(m, *replay)
	if err != nil {
		return err
	}
	if last := int(render.Span(rec)); *from > last || *to > last || *at > float64(last) {
		return usagef("-from %d, -to %d, -at %v: the match ends at turn %d", *from, *to, *at, last)
	}
	start := time.Now()
	opts := render.GIFOptions{Size: *size, FPS: *fps, TurnsPerSecond: *speed, HoldSeconds: render.DefaultGIF.HoldSeconds, Theme: render.Dark,
		From: *from, To: *to, Thinking: *thinking}
	err = atomicfile.Write(*out, func(w io.Writer) error {
		if ext == ".png" {
			t := render.Span(rec)
			if *at >= 0 {
				t = *at
			}
			img, err := render.Still(rec, t, *size, opts.Theme, render.FrameOptions{Thinking: *thinking})
			if err != nil {
				return err
			}
			return png.Encode(w, img)
		}
		return render.WriteGIF(w, rec, opts)
	})
	if err != nil {
		return err
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s, %d turns, %.1f KB in %.2f s\n", *out, rec.Result, len(rec.Turns), float64(st.Size())/1024, time.Since(start).Seconds())
	return nil
}

// recordSource plays the match the flags describe, or loads a replay.
func recordSource(m matchFlags, replay string) (*play.Record, error) {
	if replay == "" {
		setup, err := m.setup("p1", "p2")
		if err != nil {
			return nil, err
		}
		return play.Play(context.Background(), setup)
	}
	if m.p1 != "" || m.p2 != "" || m.config != "" || m.preset != "" {
		return nil, usagef("-replay replaces -p1, -p2, -config and -preset")
	}
	return loadReplayFile(replay)
}

// loadReplayFile reads and checks a replay file: the one way the commands
// that take -replay open it.
func loadReplayFile(file string) (*play.Record, error) {
	data, err := safefile.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return play.LoadReplay(file, data)
}
