package ui

import (
	"context"
	"math"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

// Playback speeds: a multiplier of the game's rate at 1x.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16}

// playback is a match being computed on its own goroutine and a playhead
// moving over what has been computed: stepping and scrubbing read the
// recorded states and never ask the bots again.
type playback struct {
	setup   match.Setup
	runner  *match.Runner
	cancel  context.CancelFunc
	humans  [2]*humanBot // nil for a bot
	rec     *match.Record
	t       float64 // playhead, in turns
	playing bool
	speed   int // index in speeds
	total   int // turns the game lasts at most, for the timeline; 0 if unknown
	events  []render.Event
	scanned int // states scanned for events
}

// maxTurns is implemented by configs that know how long a game lasts.
type maxTurns interface{ MaxTurns() int }

func newPlayback(setup match.Setup, yield func()) (*playback, error) {
	p := &playback{setup: setup, playing: true, speed: 2}
	for _, side := range match.Sides {
		if setup.Players[side].Name == You {
			p.humans[side] = newHumanBot()
			setup.Bots[side] = p.humans[side]
		}
	}
	r, err := match.NewRunner(setup)
	if err != nil {
		return nil, err
	}
	r.Yield = yield
	p.runner, p.rec = r, r.Record()
	if m, ok := p.rec.Config.(maxTurns); ok {
		p.total = m.MaxTurns()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func() {
		defer r.Close()
		for !r.Done() {
			if r.Step(ctx) != nil {
				return
			}
			if yield != nil {
				yield()
			}
		}
	}()
	return p, nil
}

// stop cancels the match; its goroutine ends at the bots' next check.
func (p *playback) stop() { p.cancel() }

// span is the last computed playback time.
func (p *playback) span() float64 { return render.Span(p.rec) }

// length is the timeline's length: the game's turns, or what is known.
func (p *playback) length() float64 { return max(float64(p.total), p.span(), 1) }

// atEnd reports whether the playhead is on the latest computed state.
func (p *playback) atEnd() bool { return p.t >= p.span() }

// tick refreshes the record and moves the playhead by dt seconds.
func (p *playback) tick(dt float64) {
	p.rec = p.runner.Record()
	if p.scanned < len(p.rec.States) {
		p.events = append(p.events, render.Events(p.rec, p.scanned)...)
		p.scanned = len(p.rec.States)
		if p.rec.Result != nil {
			p.events = append(p.events, render.Forfeits(p.rec)...)
		}
	}
	if !p.playing {
		return
	}
	// A turn lasts its pace: a map-colouring decision replays its search.
	rate := render.Rate(p.rec.Game.Info().Name)
	p.t = math.Min(p.t+rate*speeds[p.speed]*dt/render.Pace(p.rec, int(p.t)), p.span())
	if p.atEnd() && p.rec.Result != nil {
		p.playing = false
	}
}

// seek moves the playhead, within what is computed.
func (p *playback) seek(t float64) { p.t = math.Max(0, math.Min(t, p.span())) }

// step moves the playhead to the next or previous whole turn and pauses.
func (p *playback) step(dir int) {
	p.playing = false
	if dir > 0 {
		p.seek(math.Floor(p.t) + 1)
	} else {
		p.seek(math.Ceil(p.t) - 1)
	}
}

// toggle plays or pauses; playing from the end starts again.
func (p *playback) toggle() {
	if !p.playing && p.atEnd() && p.rec.Result != nil {
		p.t = 0
	}
	p.playing = !p.playing
}

// faster changes the speed by dir steps.
func (p *playback) faster(dir int) { p.speed = max(0, min(len(speeds)-1, p.speed+dir)) }

// pending returns the turn a person has to play now, if any.
func (p *playback) pending() (request, *humanBot, bool) {
	for _, h := range p.humans {
		if h == nil {
			continue
		}
		if r, ok := h.waiting(); ok {
			return r, h, true
		}
	}
	return request{}, nil, false
}

// stepLine moves the playhead by one step of the current turn (a line of
// its search's trace) and pauses. Past the last step is the next turn.
func (p *playback) stepLine(dir int) {
	p.playing = false
	k := int(math.Floor(p.t))
	if dir < 0 && p.t == float64(k) && k > 0 {
		k-- // stepping back from a settled turn goes into the one before
	}
	n, part := render.Steps(p.rec, k)
	f := p.t - float64(k)
	i := min(math.Round(f/part*float64(n)), float64(n))
	if dir < 0 && f >= part {
		i = float64(n) // between the last step and the next turn
	}
	i += float64(dir)
	if i > float64(n) {
		p.seek(float64(k + 1))
		return
	}
	p.seek(float64(k) + max(0, i)/float64(n)*part)
}
