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

// life4096 is Life on 4096x4096 as the page's stream benchmark opens it
// (a dropped config): one screen pixel for several cells.
var life4096 = []byte(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": 4096, "cols": 4096, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": 16, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`)

func BenchmarkDraw(b *testing.B) {
	for _, c := range []struct {
		name, game, preset, p1, p2 string
		file                       []byte // a config opened as a dropped file
	}{
		{"life-4096", "life", "", "random", "random", life4096},
		{"life", "life", "", "greedy", "random", nil},
		{"colosseum", "colosseum", "9", "greedy", "random", nil},
		{"mapcolor-usa", "mapcolor", "usa", "course", "course", nil},
		{"mapcolor-voronoi", "mapcolor", "voronoi", "course", "greedy", nil},
		{"evasion", "evasion", "", "strong", "greedy", nil},
		{"pathgame", "pathgame", "gen-300", "strong", "greedy", nil},
		{"pathgame-1000", "pathgame", "gen-1000", "strong", "greedy", nil},
	} {
		for _, cached := range []bool{true, false} {
			name := c.name
			if !cached {
				name += "/uncached"
			}
			b.Run(name, func(b *testing.B) {
				o := Options{Link: Link{Game: c.game, Preset: c.preset, P1: c.p1, P2: c.p2, Seed: 5, Start: true}}
				if c.file != nil {
					o.File, o.FileData = c.name+".json", c.file
				}
				a := New(o)
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
