package games

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Serve, asked for an analysis, sends one for each depth, deeper each
// time, each the very analysis arena analyse -depth D makes of the same
// position (the same values, lines and refutations), then says it is
// done, for each game: the side to move's, or where both move at once
// the side the game's analyser weighs.
func TestServeAnalyses(t *testing.T) {
	for _, c := range []struct {
		game   string
		preset string
		turns  int
		nodes  int64
	}{{"colosseum", "6", 3, 200_000}, {"mapcolor", "", 2, 200_000}, {"life", "", 5, 200_000},
		{"pathgame", "gen-50", 3, 200_000}, {"evasion", "", 40, 1_500}} {
		g, _ := match.Lookup(c.game)
		cfg := match.DefaultConfig(g)
		if c.preset != "" {
			p, _ := match.LookupPreset(g, c.preset)
			cfg = p.Config
		}
		setup := play.Setup{Game: g, Config: cfg, Seed: 5}
		setup.Players[0], _ = play.ParseSpec("greedy")
		setup.Players[1], _ = play.ParseSpec("greedy")
		rec, err := play.Play(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		start, err := play.NewStart(setup, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, turn := range rec.Turns[:c.turns] {
			rt, _ := json.Marshal(turn.Actions)
			var mv [2]json.RawMessage
			json.Unmarshal(rt, &mv)
			start.Moves = append(start.Moves, mv)
		}
		start.Analyse = &play.AnalyseRequest{K: 2, Nodes: c.nodes}
		var msgs []play.Message
		play.Serve(context.Background(), start, nil, func(m play.Message) {
			b, _ := json.Marshal(m) // as the worker sends it
			var back play.Message
			json.Unmarshal(b, &back)
			msgs = append(msgs, back)
		}, play.ServeOptions{})
		if len(msgs) < 3 || msgs[len(msgs)-1].Kind != play.MsgAnalysed {
			t.Fatalf("%s: the messages %+v", c.game, msgs)
		}
		s := rec.State(c.turns)
		for i, m := range msgs[:len(msgs)-1] {
			if m.Kind != play.MsgAnalysis || m.Turn != c.turns || m.Analysis.Depth != i+1 {
				t.Fatalf("%s: message %d: %s at turn %d, depth %d", c.game, i, m.Kind, m.Turn, m.Analysis.Depth)
			}
			want, err := match.Analyse(g, match.NewTurn(s, match.AnalysisSide(g, s), nil, match.Budget{}), 2, i+1)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(want)
			var wantBack match.Analysis
			json.Unmarshal(b, &wantBack)
			got := *m.Analysis
			got.Nodes, wantBack.Nodes = 0, 0 // the budget's count differs: a depth's search, not its figures
			if !reflect.DeepEqual(got, wantBack) {
				t.Errorf("%s: depth %d: served %+v\nanalysed %+v", c.game, i+1, got, wantBack)
			}
		}
	}
}
