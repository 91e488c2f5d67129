package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// BenchmarkDraw measures the Go side of drawing one frame of a match at
// 1280x800 (what Draw costs before the GPU): the work a frame asks of
// the page's thread.
// drawFrames is the frames one op of BenchmarkDraw draws.
const drawFrames = 600

func BenchmarkDraw(b *testing.B) {
	for _, c := range []struct{ name, game, preset, p1, p2 string }{
		{"life", "life", "", "greedy", "random"},
		{"colosseum", "colosseum", "9", "greedy", "random"},
		{"mapcolor-usa", "mapcolor", "usa", "course", "course"},
		{"mapcolor-voronoi", "mapcolor", "voronoi", "course", "greedy"},
		{"evasion", "evasion", "", "strong", "greedy"},
		{"pathgame", "pathgame", "gen-300", "strong", "greedy"},
		{"pathgame-1000", "pathgame", "gen-1000", "strong", "greedy"},
	} {
		for _, cached := range []bool{true, false} {
			name := c.name
			if !cached {
				name += "/uncached"
			}
			b.Run(name, func(b *testing.B) {
				a := New(Options{Link: Link{Game: c.game, Preset: c.preset, P1: c.p1, P2: c.p2, Seed: 5, Start: true}})
				defer a.showStart()
				a.Layout(1280, 800)
				a.canvas.Uncached = !cached
				for a.match.pb.rec.Result == nil {
					a.match.pb.receive()
				}
				pb := a.match.pb
				screen := ebiten.NewImage(1280, 800)
				a.Draw(screen)
				b.ResetTimer()
				for b.Loop() {
					// The same frames each op: the first 10 s of the match
					// played at 1x, 60 frames a second (from the start
					// again at its end). Frames later in a match draw more
					// (the shortest path's raised edges), so an op that
					// went on from where the last one stopped would weigh
					// a faster version by later, dearer frames.
					pb.seek(0)
					for range drawFrames {
						if pb.atEnd() {
							pb.seek(0)
						}
						pb.playing = true
						pb.tick(1.0 / 60)
						a.Draw(screen)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*drawFrames), "ms/frame")
			})
		}
	}
}
