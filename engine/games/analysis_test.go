package games

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Serve, asked for an analysis, sends one for each depth kept, deeper
// each time (whole move pairs where the game alternates), each the very
// analysis arena analyse -depth D makes of the same position (the same
// values, lines and refutations), the last the answer arena analyse
// gives with the same budget, then says it is done, for each game: the side to move's, or where both move at once
// the side the game's analyser weighs.
func TestServeAnalyses(t *testing.T) {
	for _, c := range []struct {
		game   string
		preset string
		turns  int
		nodes  int64
	}{{"colosseum", "6", 3, 200_000}, {"mapcolor", "", 2, 200_000}, {"life", "", 5, 200_000},
		{"pathgame", "gen-50", 3, 200_000}, {"evasion", "", 40, 2_000_000}} {
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
		if len(msgs) < 2 || msgs[len(msgs)-1].Kind != play.MsgAnalysed {
			t.Fatalf("%s: the messages %+v", c.game, msgs)
		}
		s := rec.State(c.turns)
		side := match.AnalysisSide(g, s)
		last := 0
		for i, m := range msgs[:len(msgs)-1] {
			if m.Kind != play.MsgAnalysis || m.Turn != c.turns || m.Analysis.Depth < last || (m.Analysis.Depth == last && i < len(msgs)-2) {
				t.Fatalf("%s: message %d: %s at turn %d, depth %d after %d", c.game, i, m.Kind, m.Turn, m.Analysis.Depth, last)
			}
			last = m.Analysis.Depth
			if m.Analysis.DepthUnit == "plies" && last%2 == 1 && i > 0 && i < len(msgs)-2 {
				t.Errorf("%s: depth %d kept: a search deepened by whole move pairs keeps odd depths only first or at the end", c.game, last)
			}
			want, err := match.Analyse(g, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: 2, Depth: last})
			if err != nil {
				t.Fatal(err)
			}
			got := *m.Analysis
			got.Nodes, want.Nodes = 0, 0 // one search's count on the way, not a depth's own
			if !sameAnalysis(got, *want) {
				t.Errorf("%s: depth %d: served %+v\nanalysed %+v", c.game, last, got, *want)
			}
		}
		// The answer served is the one arena analyse gives with the same
		// budget: the last depth, to the node.
		answer, err := match.Analyse(g, match.NewTurn(s, side, match.BotRand(setup.Seed, side, match.Options{}), match.Budget{Nodes: c.nodes}), match.Query{K: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := *msgs[len(msgs)-2].Analysis; !sameAnalysis(got, *answer) {
			t.Errorf("%s: the answer served %+v\nanalysed %+v", c.game, got, *answer)
		}
	}
}

// sameAnalysis compares analyses as the worker sends them: as JSON.
func sameAnalysis(a, b match.Analysis) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	var xa, ya match.Analysis
	json.Unmarshal(x, &xa)
	json.Unmarshal(y, &ya)
	return reflect.DeepEqual(xa, ya)
}

// Serve, asked for the analysis of a given side's decision with the move
// it played (a report's decision, opened on the board), weighs that side
// where both move at once and values the move played though no option is
// it (Life's placement of several pieces); it refuses a side not to move
// and a move the rules refuse, saying which.
func TestServeAnalysisOfASidesDecision(t *testing.T) {
	serve := func(game string, turns int, req play.AnalyseRequest) []play.Message {
		t.Helper()
		g, _ := match.Lookup(game)
		setup := play.Setup{Game: g, Config: match.DefaultConfig(g), Seed: 5}
		setup.Players[0], _ = play.ParseSpec("greedy")
		setup.Players[1], _ = play.ParseSpec("random")
		rec, err := play.Play(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		start, _ := play.NewStart(setup, nil)
		for _, turn := range rec.Turns[:turns] {
			var mv [2]json.RawMessage
			for side, a := range turn.Actions {
				mv[side], _ = json.Marshal(a)
			}
			start.Moves = append(start.Moves, mv)
		}
		if req.Played == nil && req.Side != nil {
			req.Played, _ = json.Marshal(rec.Turns[turns].Actions[*req.Side])
		}
		start.Analyse = &req
		var msgs []play.Message
		play.Serve(context.Background(), start, nil, func(m play.Message) { msgs = append(msgs, m) }, play.ServeOptions{})
		return msgs
	}
	p1, p2 := match.P1, match.P2
	msgs := serve("life", 5, play.AnalyseRequest{K: 2, Side: &p2})
	if n := len(msgs); n < 2 || msgs[n-1].Kind != play.MsgAnalysed {
		t.Fatalf("life, P2's decision: %+v", msgs)
	}
	an := msgs[len(msgs)-2].Analysis
	if an.Side != match.P2 || an.Played == nil {
		t.Fatalf("life, P2's decision: the analysis is %s's, its move played %+v", an.Side, an.Played)
	}
	for _, c := range []struct {
		game string
		req  play.AnalyseRequest
		want string
	}{
		{"colosseum", play.AnalyseRequest{K: 2, Side: &p1}, "asked for P1's decision, but P2 is to move"},
		{"life", play.AnalyseRequest{K: 2, Side: &p2, Played: json.RawMessage(`[[0, 99]]`)}, "the move played, to analyse at turn 5"},
	} {
		msgs := serve(c.game, 5, c.req)
		if len(msgs) != 1 || msgs[0].Kind != play.MsgError || !strings.Contains(msgs[0].Error, c.want) {
			t.Errorf("%s: %+v, want an error saying %q", c.game, msgs, c.want)
		}
	}
}
