package ui

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/arena-playground/arena/engine/play"
)

// A replay file (a tournament's, or `arena play -replay`'s) opens as a
// match already played: it is followed, turn by turn, as a match being
// computed is, so each turn is checked again, and nothing is asked of its
// players, who may be programs this machine does not have.

// replayHost feeds the messages of a finished record.
type replayHost struct{ rec *play.Record }

func (h replayHost) Compute(play.Start) Feed {
	f := &replayFeed{}
	msgs, err := h.rec.Messages()
	if err != nil {
		f.PushError(err.Error())
		return f
	}
	for _, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			f.PushError(err.Error())
			return f
		}
		f.Push(data)
	}
	return f
}

type replayFeed struct{ Inbox }

func (*replayFeed) Act(play.Act) {}
func (f *replayFeed) Stop()      { f.Close() }

// isReplay reports whether data looks like a replay (a JSON object with a
// game, its turns and a result), so that a damaged replay gets the
// replay reader's error, not a config reader's.
func isReplay(data []byte) bool {
	var probe struct {
		Game  *string          `json:"game"`
		Turns *json.RawMessage `json:"turns"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Game != nil && probe.Turns != nil
}

// openReplay shows a replay file's match, the playhead at turn at (-1:
// the start, playing).
func (a *App) openReplay(name string, data []byte, at float64) {
	rec, err := play.LoadReplay(filepath.Base(name), data)
	if err != nil {
		a.toastf("%v", err)
		return
	}
	setup := play.Setup{Game: rec.Game, Config: rec.Config, Seed: rec.Seed}
	for side, p := range rec.Players {
		if sp, err := play.ParseSpec(p); err == nil {
			setup.Players[side] = sp
		} else {
			setup.Players[side] = play.Spec{Name: p}
		}
	}
	v, err := newMatchViewOn(a, setup, nil, replayHost{rec})
	if err != nil {
		a.toastf("%v", err)
		return
	}
	v.replay = true
	if a.match != nil {
		a.match.close()
	}
	a.match = v
	a.canvas.Forget()
	v.pb.receive()
	if at >= 0 {
		v.pb.seek(at)
		v.pb.playing = false
	}
	replay := filePrefix + filepath.Base(name) // a file a link cannot carry
	if name == a.opts.Replay {
		replay = name // the replay the link named
	}
	a.setLink(func(l *Link) {
		l.Game, l.Seed, l.P1, l.P2, l.Preset = rec.Game.Info().Name, rec.Seed, rec.Players[0], rec.Players[1], ""
		l.Replay, l.Moves, l.moves, l.Turn, l.Err = replay, nil, "", -1, nil
	})
	a.start.selectGame(a.opts.Game)
	a.toastf("replay %s: %s", filepath.Base(name), fmt.Sprint(rec.Result))
}
