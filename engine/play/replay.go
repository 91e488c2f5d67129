package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
	"io"
	"time"
)

// Replay file identification. A change that older arenas cannot read
// raises ReplayVersion.
const (
	ReplayFormat  = "arena-replay"
	ReplayVersion = 1
)

// Replay is the file form of a match: enough to rebuild every state
// exactly (game, variant, config, seed, players and each turn's actions),
// the bots' notes, and the result. It leaves out thinking times, so the
// same setup writes the same bytes on every machine.
type Replay struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Game    string    `json:"game"`
	Variant string    `json:"variant"`
	Seed    uint64    `json:"seed"`
	Players [2]string `json:"players"`
	// Clock is "cpu" where the programs' moves were charged the CPU time
	// they used (Hosting.CPUClock); absent for the wall clock.
	Clock string `json:"clock,omitempty"`
	// ClockFactor is each side's stretched clock (an accommodation: 1.5),
	// 0 where it is not; absent where neither is.
	ClockFactor [2]float64      `json:"clock_factor,omitzero"`
	Config      json.RawMessage `json:"config"`
	Turns       []ReplayTurn    `json:"turns"`
	Result      *Result         `json:"result"` // null for an unfinished match
}

// ReplayTurn is one turn of a replay.
type ReplayTurn struct {
	Actions  [2]json.RawMessage `json:"actions"` // null for a side that did not move
	Notes    [2]*KeptNote       `json:"notes,omitzero"`
	Replaced [2]string          `json:"replaced,omitzero"`
	// ThinkMs are each side's thinking times, in milliseconds, in a
	// replay written WithTimes (a class ladder's: a student reads where
	// their program spent its clock); absent from the others, whose bytes
	// are the same on every machine.
	ThinkMs [2]float64 `json:"think_ms,omitzero"`
}

// Moves are the replay's turns without the bots' notes: each side's
// action and, where the match replaced it, why ({"actions": [...],
// "replaced": [...]} as JSON, replaced left out where nothing was). The
// page's test hook gives them, and tests compare them with arena play's.
func (r *Replay) Moves() []ReplayTurn {
	moves := make([]ReplayTurn, len(r.Turns))
	for i, t := range r.Turns {
		moves[i] = ReplayTurn{Actions: t.Actions, Replaced: t.Replaced}
	}
	return moves
}

// WithTimes is the replay with each turn's thinking times, from its
// record.
func (rp *Replay) WithTimes(r *Record) *Replay {
	for k := range rp.Turns {
		if k < len(r.Turns) {
			for side, d := range r.Turns[k].Think {
				rp.Turns[k].ThinkMs[side] = float64(d.Microseconds()) / 1000
			}
		}
	}
	return rp
}

// Replay converts the record to its file form.
func (r *Record) Replay() (*Replay, error) {
	cfg, err := json.Marshal(r.Config)
	if err != nil {
		return nil, fmt.Errorf("replay: config: %w", err)
	}
	rp := &Replay{Format: ReplayFormat, Version: ReplayVersion, Game: r.Game.Info().Name,
		Variant: r.Config.Variant(), Seed: r.Seed, Players: r.Players, Clock: r.Clock, ClockFactor: r.ClockFactor, Config: cfg, Result: r.Result}
	for k, t := range r.Turns {
		rt, err := t.encode()
		if err != nil {
			return nil, fmt.Errorf("replay: turn %d: %w", k, err)
		}
		rp.Turns = append(rp.Turns, rt)
	}
	return rp, nil
}

// encode writes a turn in its file form.
func (t TurnLog) encode() (ReplayTurn, error) {
	rt := ReplayTurn{Notes: t.Notes, Replaced: t.Replaced}
	for side, a := range t.Actions {
		if a == nil {
			rt.Actions[side] = json.RawMessage("null")
			continue
		}
		var err error
		if rt.Actions[side], err = json.Marshal(a); err != nil {
			return rt, fmt.Errorf("%s action: %w", match.Side(side), err)
		}
	}
	return rt, nil
}

// WriteTo writes the replay as JSON with one turn per line, so that files
// diff well and errors point at a turn's line.
func (rp *Replay) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	field := func(name string, v any, last bool) error {
		j, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("replay: %s: %w", name, err)
		}
		fmt.Fprintf(&b, "  %q: %s", name, j)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	b.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
	}{{"format", rp.Format}, {"version", rp.Version}, {"game", rp.Game}, {"variant", rp.Variant},
		{"seed", rp.Seed}, {"players", rp.Players}, {"clock", rp.Clock}, {"clock_factor", rp.ClockFactor}, {"config", rp.Config}} {
		if f.name == "clock" && rp.Clock == "" || f.name == "clock_factor" && rp.ClockFactor == [2]float64{} {
			continue
		}
		if err := field(f.name, f.v, false); err != nil {
			return 0, err
		}
	}
	b.WriteString("  \"turns\": [")
	for k, t := range rp.Turns {
		j, err := json.Marshal(t)
		if err != nil {
			return 0, fmt.Errorf("replay: turn %d: %w", k, err)
		}
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(j)
	}
	if len(rp.Turns) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n")
	if err := field("result", rp.Result, true); err != nil {
		return 0, err
	}
	b.WriteString("}\n")
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// LoadReplay reads a replay file and rebuilds the match: every state,
// checked turn by turn. A damaged file, a replay of another version, an
// action the rules refuse or a result that does not follow from the turns
// is an error naming the file and the line.
func LoadReplay(file string, data []byte) (*Record, error) {
	var rp Replay
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, fileerr.JSONError(file, data, err)
	}
	at := func(path []any, format string, args ...any) error {
		return fileerr.Errorf(file, data, path, format, args...)
	}
	if rp.Format != ReplayFormat {
		return nil, at([]any{"format"}, "not an arena replay: format is %q, want %q", rp.Format, ReplayFormat)
	}
	if rp.Version != ReplayVersion {
		return nil, at([]any{"version"}, "replay version %d: this arena reads version %d", rp.Version, ReplayVersion)
	}
	g, err := match.Lookup(rp.Game)
	if err != nil {
		return nil, at([]any{"game"}, "%v", err)
	}
	if len(rp.Config) == 0 || string(rp.Config) == "null" {
		return nil, at([]any{"config"}, "missing config")
	}
	cfg, err := g.LoadConfig(file, rp.Config)
	if err != nil {
		return nil, shiftLines(err, fileerr.JSONLine(data, "config")-1)
	}
	if rp.Clock != "" && rp.Clock != CPUClock {
		return nil, at([]any{"clock"}, "clock %q: want %q or none (the wall clock)", rp.Clock, CPUClock)
	}
	if cfg.Variant() != rp.Variant {
		return nil, at([]any{"variant"}, "variant %q does not match the config's %q", rp.Variant, cfg.Variant())
	}
	s, err := g.Start(cfg, rp.Seed)
	if err != nil {
		return nil, at([]any{"config"}, "%v", err)
	}
	r := newRecord(g, cfg, rp.Seed, rp.Players, s, 0)
	rec := &r
	for k, rt := range rp.Turns {
		if err := rec.addTurn(rt, rt.think()); err != nil {
			return nil, at([]any{"turns", k}, "%v", err)
		}
	}
	if err := checkResult(rec, rp.Result); err != nil {
		return nil, at([]any{"result"}, "%v", err)
	}
	rec.Result = rp.Result
	rec.Clock = rp.Clock
	for side, f := range rp.ClockFactor {
		if f < 0 || f > MaxClockFactor {
			return nil, at([]any{"clock_factor", side}, "clock factor %g: want 0 (none) to %d", f, MaxClockFactor)
		}
	}
	rec.ClockFactor = rp.ClockFactor
	return rec, nil
}

// think is a replay turn's thinking times, where it keeps them; none
// that is not a time a move could take.
func (rt ReplayTurn) think() [2]time.Duration {
	var d [2]time.Duration
	for side, ms := range rt.ThinkMs {
		if ms > 0 && ms < 24*3600*1000 {
			d[side] = time.Duration(ms * float64(time.Millisecond))
		}
	}
	return d
}

// addTurn decodes, checks and applies one recorded turn. It is the one
// path by which actions that come from outside the match loop (a replay
// file, a link, a match computed on another thread) become states, so
// that each is checked as the rules check a bot's action.
func (r *Record) addTurn(rt ReplayTurn, think [2]time.Duration) error {
	s, k := r.Last(), len(r.Turns)
	if s.ToMove() == match.Nobody {
		return fmt.Errorf("turn %d: the game was already over", k)
	}
	log := TurnLog{Notes: rt.Notes, Replaced: rt.Replaced, Think: think}
	for _, side := range match.Sides {
		raw := rt.Actions[side]
		if !s.ToMove().Has(side) {
			if len(raw) != 0 && string(raw) != "null" {
				return fmt.Errorf("turn %d: %s acted out of turn", k, side)
			}
			continue
		}
		a, err := r.Game.DecodeAction(raw)
		if err != nil {
			return fmt.Errorf("turn %d: %s action %s: %v", k, side, raw, err)
		}
		if err := s.Check(side, a); err != nil {
			return fmt.Errorf("turn %d: %s action is not legal: %v", k, side, err)
		}
		log.Actions[side] = a
	}
	r.push(s.Apply(log.Actions), &log)
	return nil
}

// checkResult verifies that the recorded result follows from the turns.
func checkResult(rec *Record, res *Result) error {
	last := rec.Last()
	switch {
	case res == nil && last.ToMove() == match.Nobody:
		return fmt.Errorf("the game is over at turn %d but the replay records no result", last.Turn())
	case res == nil:
		return nil // an unfinished match
	case len(res.Forfeits) > 0:
		for _, f := range res.Forfeits {
			if f.Turn != last.Turn() {
				return fmt.Errorf("%s forfeits at turn %d, but the turns end at %d", f.Side, f.Turn, last.Turn())
			}
		}
		if last.ToMove() == match.Nobody {
			return fmt.Errorf("a forfeit is recorded after the game ended at turn %d", last.Turn())
		}
		return nil
	case last.ToMove() != match.Nobody:
		return fmt.Errorf("the turns end at %d before the game is over, and no forfeit is recorded", last.Turn())
	}
	want := last.Outcome()
	if res.Winner != want.Winner || res.Scores != want.Scores {
		return fmt.Errorf("recorded result %q does not match the replayed game (%s with scores %v)",
			res.String(), (&Result{Outcome: want}).String(), want.Scores)
	}
	return nil
}

// shiftLines moves the line of a FileError about an embedded document by
// the line where that document starts.
func shiftLines(err error, by int) error {
	if fe, ok := err.(*fileerr.FileError); ok && fe.Line > 0 {
		c := *fe
		c.Line += by
		if c.Line != fe.Line {
			c.Col = 0 // columns were relative to the embedded document's first line
		}
		return &c
	}
	return err
}

// SaveReplay is a convenience for writing a record's replay to w.
func SaveReplay(w io.Writer, r *Record) error {
	rp, err := r.Replay()
	if err != nil {
		return err
	}
	_, err = rp.WriteTo(w)
	return err
}

// Unmarked is a copy of the replay whose notes hold no marks and no
// expected line, as replays were before bots marked the board; a note
// that held nothing else is dropped. Tests compare a marking bot's play
// with a replay of before, and a course can keep its replays small.
func (rp *Replay) Unmarked() *Replay {
	c := *rp
	c.Turns = make([]ReplayTurn, len(rp.Turns))
	for i, t := range rp.Turns {
		for side, n := range t.Notes {
			if n == nil {
				continue
			}
			u := *n.Get()
			u.Marks, u.MarksLeft, u.Expects = nil, 0, nil
			t.Notes[side] = Kept(&u)
			if u.Empty() {
				t.Notes[side] = nil
			}
		}
		c.Turns[i] = t
	}
	return &c
}
