package ebitencanvas_test

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/render/ebitencanvas"
	"github.com/arena-playground/arena/ui"
)

// TestAppScreenMatchesWholeFrames plays a match of each game in the app,
// with keys pressed as a person would (steps, jumps, speed, help), on one
// kept screen that the app redraws only where it changed; every few
// frames the same frame is drawn whole on a fresh image: the two must
// agree to the pixel. (Here, not in package ui: reading pixels back
// needs Ebitengine's game loop, which this package's TestMain runs.)
func TestAppScreenMatchesWholeFrames(t *testing.T) {
	script := map[int][]ebiten.Key{
		3: {ebiten.KeyArrowRight}, 6: {ebiten.KeyArrowRight}, 9: {ebiten.KeyEqual, ebiten.KeyEqual, ebiten.KeyEqual},
		14: {ebiten.KeyEnd}, 18: {ebiten.KeyHome}, 21: {ebiten.KeySpace}, 24: {ebiten.KeyPeriod}, 27: {ebiten.KeyH},
		30: {ebiten.KeyEscape}, 33: {ebiten.KeyArrowLeft}, 36: {ebiten.KeySpace},
	}
	for _, c := range []ui.Options{
		{Link: ui.Link{Game: "life", P1: "greedy", P2: "random", Seed: 3}},
		{Link: ui.Link{Game: "colosseum", Preset: "7", P1: "greedy", P2: "random", Seed: 3}},
		{Link: ui.Link{Game: "mapcolor", Preset: "voronoi", P1: "course", P2: "greedy", Seed: 5}},
		{Link: ui.Link{Game: "evasion", P1: "greedy", P2: "random", Seed: 3}},
		{Link: ui.Link{Game: "pathgame", Preset: "gen-300", P1: "greedy", P2: "random", Seed: 5}},
	} {
		t.Run(c.Game, func(t *testing.T) {
			frame := 0
			c.Start = true
			c.Presses = func() ([]ebiten.Key, [][2]float64) { return script[frame], nil }
			a := ui.New(c)
			w, h := a.Layout(960, 600)
			kept := ebiten.NewImage(w, h)
			// The match is computed first: what the panel shows of it
			// must not change between the two draws of a frame.
			for !a.Status().Done {
				if err := a.Update(); err != nil {
					t.Fatal(err)
				}
			}
			for frame = range 45 {
				if err := a.Update(); err != nil {
					t.Fatal(err)
				}
				a.Draw(kept)
				if frame%3 != 2 {
					continue
				}
				fresh := ebiten.NewImage(w, h)
				a.Redraw()
				a.Draw(fresh)
				if n, at := ebitencanvas.Differ(kept, fresh); n > 0 {
					if dir := os.Getenv("ARENA_DIFF_DIR"); dir != "" {
						for name, img := range map[string]*ebiten.Image{"kept": kept, "fresh": fresh} {
							f, _ := os.Create(filepath.Join(dir, c.Game+"-"+name+".png"))
							png.Encode(f, img)
							f.Close()
						}
					}
					t.Fatalf("frame %d: %d pixels of the kept screen differ from the whole frame's, the first at %v (status %+v)", frame, n, at, a.Status())
				}
				fresh.Deallocate()
			}
		})
	}
}
