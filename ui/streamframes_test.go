package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/play"
)

// recordingHost computes with the desktop's host and keeps every message
// its feed gave, to be given again by a streamedHost.
type recordingHost struct {
	Host
	msgs *[][]byte
}

func (h recordingHost) Compute(st play.Start) Feed {
	return &recordingFeed{Feed: h.Host.Compute(st), msgs: h.msgs}
}

type recordingFeed struct {
	Feed
	msgs *[][]byte
}

func (f *recordingFeed) Poll() [][]byte {
	m := f.Feed.Poll()
	*f.msgs = append(*f.msgs, m...)
	return m
}

// streamedHost gives a recorded match's messages again, per messages a
// Poll: a match computed faster than the frames draw it.
type streamedHost struct {
	msgs            [][]byte
	perFrame, every int
}

func (h streamedHost) Compute(play.Start) Feed {
	return &streamedFeed{msgs: h.msgs, per: h.perFrame, every: h.every}
}

type streamedFeed struct {
	msgs              [][]byte
	per, every, polls int
}

func (f *streamedFeed) Poll() [][]byte {
	f.polls++
	if f.polls%f.every != 0 {
		return nil
	}
	n := min(f.per, len(f.msgs))
	m := f.msgs[:n:n]
	f.msgs = f.msgs[n:]
	return m
}
func (f *streamedFeed) Act(play.Act) {}
func (f *streamedFeed) Stop()        { f.msgs = nil }

// BenchmarkStreamFrames measures the Go side of the page's frames while a
// match streams in faster than they draw it: each frame's Update follows
// what came (receiveBudget at most) and its Draw shows the newest turn,
// as BenchmarkPageFrames' streams do in the browser. It reports Go's time
// a frame, natively and as a share of a 60 Hz frame: on the page's thread
// (WebAssembly, some three times slower) it adds to every frame.
func BenchmarkStreamFrames(b *testing.B) {
	for _, c := range []struct {
		name, game, preset, p1, p2 string
		file                       []byte // a config opened as a dropped file
		perFrame, every            int    // messages every so many frames (as the page's streams come)
	}{
		{"life-4096", "life", "", "random", "random", life4096, 1, 4},
		{"evasion", "evasion", "2-1", "strong", "greedy", nil, 400, 1},
		{"evasion-session", "evasion", "", "greedy", "strong", nil, 330, 1},
		{"pathgame", "pathgame", "", "strong", "greedy", nil, 4, 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			link := Link{Game: c.game, Preset: c.preset, P1: c.p1, P2: c.p2, Seed: 3, Start: true}
			var msgs [][]byte
			opts := func(h Host) Options {
				o := Options{Link: link, Host: h}
				if c.file != nil {
					o.File, o.FileData = c.name+".json", c.file
				}
				return o
			}
			a := New(opts(recordingHost{Host: defaultHost(play.ServeOptions{}), msgs: &msgs}))
			for a.match.pb.rec.Result == nil {
				a.match.pb.receive()
			}
			a.showStart()
			screen := ebiten.NewImage(1280, 800)
			frames, turns, calls := 0, 0, 0
			for b.Loop() {
				a := New(opts(streamedHost{msgs: msgs, perFrame: c.perFrame, every: c.every}))
				a.Layout(1280, 800)
				calls0 := a.canvas.Canvas().Calls()
				for a.match.pb.rec.Result == nil {
					if err := a.Update(); err != nil {
						b.Fatal(err)
					}
					a.Draw(screen)
					frames++
				}
				turns += len(a.match.pb.rec.Turns)
				calls += a.canvas.Canvas().Calls() - calls0
				a.showStart()
			}
			ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(frames)
			b.ReportMetric(ms, "ms/frame")
			b.ReportMetric(ms/(1000.0/60), "x-60hz-frame") // the share of a 60 Hz frame it takes natively
			b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
			b.ReportMetric(float64(turns)/float64(b.N), "turns/op")
			b.ReportMetric(float64(calls)/float64(frames), "draw-calls/frame")
		})
	}
}
