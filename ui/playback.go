package ui

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// Playback speeds: a multiplier of the game's rate at 1x.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

// playback is a match being computed elsewhere (see Host) and a playhead
// moving over what has arrived: each turn is rebuilt and checked here from
// the stream, and stepping and scrubbing read the rebuilt states without
// asking the bots again.
type playback struct {
	setup   play.Setup
	feed    Feed
	follow  *play.Follower
	rec     *play.Record
	failed  error   // why the stream stopped before the match ended
	played  [2]int  // each side's last turn a person's move was sent for, -1: none
	t       float64 // playhead, in turns
	playing bool
	speed   int // index in speeds
	total   int // turns the game lasts at most, for the timeline; 0 if unknown
	events  []render.Event
	scanned int      // states scanned for events
	queued  [][]byte // messages received but not yet followed (see receiveFor)
	// hold is a turn where playing stops once it is reached (a link's
	// turn parameter); -1: none.
	hold float64
	// live follows the newest turn as it arrives: set by going to the
	// end (the ⏭ button, End) while the match is computed, left by any
	// other move of the playhead, so that a viewer who went back is
	// never pulled forward.
	live bool
}

// maxTurns is implemented by configs that know how long a game lasts.
type maxTurns interface{ MaxTurns() int }

// newPlayback starts computing the match on host, first playing moves as
// given (a link's).
func newPlayback(setup play.Setup, moves [][2]json.RawMessage, host Host) (*playback, error) {
	st, err := play.NewStart(setup, moves)
	if err != nil {
		return nil, err
	}
	f, err := play.NewFollower(setup)
	if err != nil {
		return nil, err
	}
	p := &playback{setup: setup, follow: f, rec: f.Record(), playing: true, speed: 2, played: [2]int{-1, -1}, hold: -1}
	if m, ok := p.rec.Config.(maxTurns); ok {
		p.total = m.MaxTurns()
	}
	p.feed = host.Compute(st)
	return p, nil
}

// clockEvery is the most messages receiveFor follows between readings of
// the clock.
const clockEvery = 16

// clockStride is how many messages receiveFor follows before it reads the
// clock again, having spent spent of budget on n: clockEvery while that
// many more, at the pace so far, fit in what is left (Evasion's ticks,
// microseconds each), else one (following a 4096x4096 Life generation
// is some 5 ms in the page, and a bigger board's more: 16 of them would
// hold a frame for 80 ms or more).
func clockStride(spent, budget time.Duration, n int) int {
	if spent*clockEvery < (budget-spent)*time.Duration(n) {
		return clockEvery
	}
	return 1
}

// stop ends the computation of the match.
func (p *playback) stop() { p.feed.Stop() }

// span is the last computed playback time.
func (p *playback) span() float64 { return render.Span(p.rec) }

// length is the timeline's length: the game's turns, or what is known.
func (p *playback) length() float64 { return max(float64(p.total), p.span(), 1) }

// atEnd reports whether the playhead is on the latest computed state.
func (p *playback) atEnd() bool { return p.t >= p.span() }

// receive takes the messages that arrived. The first one refused stops the
// stream: the turns before it stay, and the error says why. It returns
// the error when this call found it.
func (p *playback) receive() error { return p.receiveFor(0) }

// receiveFor follows the match's new messages for about budget (0: all of
// them) and keeps the rest for the next frame: a bot that computes faster
// than a frame rebuilds and checks its turns would otherwise hold a frame
// for all of them. The clock is read after the first message, then as
// often as clockStride says: in the page a reading is a call out to
// JavaScript, and one a message was a seventh of following an Evasion
// session's turns.
func (p *playback) receiveFor(budget time.Duration) error {
	if p.failed != nil {
		return nil
	}
	start := time.Now()
	p.queued = append(p.queued, p.feed.Poll()...)
	n, check := 0, 1 // check: how many are followed when the clock is next read
	for _, data := range p.queued {
		if budget > 0 && n == check {
			spent := time.Since(start)
			if spent > budget {
				break
			}
			check = n + clockStride(spent, budget, n)
		}
		n++
		m, err := play.DecodeMessage(data)
		if err == nil {
			err = p.follow.Add(m)
		}
		if err != nil {
			p.failed = fmt.Errorf("the match stopped after %d turns: %w", len(p.follow.Record().Turns), err)
			p.feed.Stop()
			p.queued = nil
			break
		}
	}
	if p.queued != nil {
		p.queued = append(p.queued[:0], p.queued[n:]...)
	}
	p.rec = p.follow.Record()
	if p.scanned < p.rec.Len() {
		p.events = append(p.events, render.Events(p.rec, p.scanned)...)
		p.scanned = p.rec.Len()
		if p.rec.Result != nil {
			p.events = append(p.events, render.Forfeits(p.rec)...)
		}
	}
	return p.failed
}

// tick moves the playhead by dt seconds of wall-clock time: a slow frame
// moves it further, so playback keeps the game's pace whatever the frame
// rate.
func (p *playback) tick(dt float64) {
	if p.live {
		p.t = p.span()
		if p.rec.Result != nil || p.failed != nil {
			p.live, p.playing = false, false
		}
		return
	}
	if !p.playing {
		return
	}
	if p.hold >= 0 {
		// A link's turn: the playhead goes there as fast as the match is
		// computed, not at playing speed (turn 250 of Life is a minute
		// and a half of playing), and stops there, or at the end.
		p.t = math.Min(p.hold, p.span())
		if p.t >= p.hold || p.rec.Result != nil || p.failed != nil {
			p.playing, p.hold = false, -1
		}
		return
	}
	// A turn lasts its pace: a map-colouring decision replays its search.
	rate := render.Rate(p.rec.Game.Info().Name) * speeds[p.speed]
	for dt > 0 && p.t < p.span() {
		k := math.Floor(p.t)
		pace := render.Pace(p.rec, int(k))
		// Move within turn k, and carry what is left into the next turn.
		left := (k + 1 - p.t) * pace / rate
		if dt < left {
			p.t += dt * rate / pace
			break
		}
		p.t, dt = k+1, dt-left
	}
	p.t = math.Min(p.t, p.span())
	if p.atEnd() && (p.rec.Result != nil || p.failed != nil) {
		p.playing = false
	}
}

// seek moves the playhead, within what is computed, and stops
// following the newest turn.
func (p *playback) seek(t float64) {
	p.live = false
	p.t = math.Max(0, math.Min(t, p.span()))
}

// end goes to the newest turn; while the match is computed, the playhead
// then follows each turn as it arrives (live), until it is moved.
func (p *playback) end() {
	p.seek(p.span())
	p.live = p.rec.Result == nil && p.failed == nil
}

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
	p.playing, p.live = !p.playing, false
}

// faster changes the speed by dir steps.
func (p *playback) faster(dir int) { p.speed = max(0, min(len(speeds)-1, p.speed+dir)) }

// pending returns the turn a person has to play now, if any.
func (p *playback) pending() (request, bool) {
	turn, side, ok := p.follow.Asking()
	if !ok || turn != len(p.rec.Turns) || turn == p.played[side] {
		return request{}, false
	}
	return request{p.rec.Last(), side}, true
}

// play sends a person's move for the pending turn.
func (p *playback) play(req request, a match.Action) error {
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	p.feed.Act(play.Act{Turn: req.state.Turn(), Side: req.side, Action: data})
	p.played[req.side] = req.state.Turn()
	return nil
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
