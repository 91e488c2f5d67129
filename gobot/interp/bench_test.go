package interp_test

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/interp"
	colosseumbot "github.com/arena-playground/arena/gobot/templates/colosseum"
	evasionbot "github.com/arena-playground/arena/gobot/templates/evasion"
	lifebot "github.com/arena-playground/arena/gobot/templates/life"
	mapcolorbot "github.com/arena-playground/arena/gobot/templates/mapcolor"
	pathgamebot "github.com/arena-playground/arena/gobot/templates/pathgame"
)

var compiled = map[string]interp.Act{
	"colosseum": colosseumbot.Act,
	"evasion":   evasionbot.Act,
	"life":      lifebot.Act,
	"mapcolor":  mapcolorbot.Act,
	"pathgame":  pathgamebot.Act,
}

// position is a state and the side to move in it.
type position struct {
	s    match.State
	side match.Side
}

// positions are the states of a greedy-against-greedy match of game (at
// most 60, spread over it), where a bot moves.
func positions(tb testing.TB, game string) []position {
	g, _ := match.Lookup(game)
	greedy, _ := play.ParseSpec("greedy")
	s := play.Setup{Game: g, Seed: 7, Players: [2]play.Spec{greedy, greedy}}
	if game == "evasion" {
		p, _ := match.LookupPreset(g, "2-1")
		s.Config = p.Config
	}
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		tb.Fatal(err)
	}
	var all []position
	for _, st := range rec.All() {
		for _, side := range match.Sides {
			if st.ToMove().Has(side) {
				all = append(all, position{st, side})
			}
		}
	}
	step := max(1, len(all)/60)
	var out []position
	for i := 0; i < len(all); i += step {
		out = append(out, all[i])
	}
	return out
}

// timePerMove is the mean time act takes over the positions, played
// round and round for at least d.
func timePerMove(act interp.Act, ps []position, d time.Duration) time.Duration {
	start, n := time.Now(), 0
	for time.Since(start) < d || n < len(ps) {
		p := ps[n%len(ps)]
		act(match.NewTurn(p.s, p.side, match.BotRand(7, p.side, match.Options{}), match.Budget{}))
		n++
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkTemplates times each game's template on the positions of a
// match, interpreted and compiled, in the same run: x-compiled is the
// interpreted bot's time a move as a multiple of the compiled one's.
// Under GOOS=js GOARCH=wasm (node, V8: the engine of Chromium's workers)
// it is the page's worker's figure.
func BenchmarkTemplates(b *testing.B) {
	for _, game := range []string{"colosseum", "evasion", "life", "mapcolor", "pathgame"} {
		b.Run(game, func(b *testing.B) {
			ps := positions(b, game)
			src, _ := gobot.Template(game)
			act, err := interp.Compile("bot.go", src, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			var in, native time.Duration
			for b.Loop() {
				native = timePerMove(compiled[game], ps, 200*time.Millisecond)
				in = timePerMove(act, ps, 200*time.Millisecond)
			}
			b.ReportMetric(float64(in)/1e6, "interp-ms/move")
			b.ReportMetric(float64(native)/1e6, "compiled-ms/move")
			b.ReportMetric(float64(in)/float64(native), "x-compiled")
		})
	}
}

// BenchmarkSearchNodes counts the nodes a second of a search written in
// the page (testdata/search.go), interpreted and compiled... compiled as
// arena's own strong: x-strong is how many nodes the interpreted search
// reaches in a clock, as a share of the nodes compiled strong reaches in
// it, on the same Colosseum positions.
func BenchmarkSearchNodes(b *testing.B) {
	src, err := os.ReadFile("testdata/search.go")
	if err != nil {
		b.Fatal(err)
	}
	search, err := interp.Compile("search.go", string(src), io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	g, _ := match.Lookup("colosseum")
	strongSpec, _ := play.ParseSpec("strong")
	strong, _, _, err := play.NewBot(g, strongSpec, play.Hosting{})
	if err != nil {
		b.Fatal(err)
	}
	ps := positions(b, "colosseum")
	const budget = 20000
	rate := func(act func(*match.Turn) (match.Action, error)) float64 {
		start, nodes := time.Now(), int64(0)
		for _, p := range ps {
			t := match.NewTurn(p.s, p.side, match.BotRand(7, p.side, match.Options{}), match.Budget{Nodes: budget})
			if _, err := act(t); err != nil {
				b.Fatal(err)
			}
			nodes += t.Nodes()
		}
		return float64(nodes) / time.Since(start).Seconds()
	}
	var in, st float64
	for b.Loop() {
		st = rate(strong.Act)
		in = rate(search)
	}
	b.ReportMetric(in, "interp-nodes/s")
	b.ReportMetric(st, "strong-nodes/s")
	b.ReportMetric(in/st, "x-strong")
}
