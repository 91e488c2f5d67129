package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// tally is a toy game for testing the match loop: each turn the sides to
// move (both, or alternately one) pick a digit 0-9; after Turns turns the
// larger sum wins.
type tally struct{}

type tallyConfig struct {
	Turns        int  `json:"turns"`
	Simultaneous bool `json:"simultaneous"`
	ClockMs      int  `json:"clock_ms"`
}

func (c *tallyConfig) Variant() string { return "standard" }

type tallyState struct {
	cfg  *tallyConfig
	turn int
	sum  [2]int
}

func (tally) Info() match.Info {
	return match.Info{Name: "tally", Title: "toy game", Key: 99, Variants: []string{"standard"}}
}
func (tally) Presets() []match.Preset {
	return []match.Preset{{Name: "default", Config: &tallyConfig{Turns: 6, Simultaneous: true}}}
}
func (tally) LoadConfig(file string, data []byte) (match.Config, error) {
	var c tallyConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fileerr.JSONError(file, data, err)
	}
	return &c, nil
}
func (tally) Start(cfg match.Config, seed uint64) (match.State, error) {
	return tallyState{cfg: cfg.(*tallyConfig)}, nil
}
func (tally) DecodeAction(data []byte) (match.Action, error) {
	var n int
	err := json.Unmarshal(data, &n)
	return n, err
}
func (tally) Clock(cfg match.Config, side match.Side) match.Clock {
	if ms := cfg.(*tallyConfig).ClockMs; ms > 0 {
		return &match.PerMove{First: time.Duration(ms) * time.Millisecond, Each: time.Duration(ms) * time.Millisecond}
	}
	return nil
}
func (tally) Bots() []match.BotInfo {
	digit := func(d int) func(match.Options) (match.Bot, error) {
		return func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { return d, nil }), nil
		}
	}
	return []match.BotInfo{
		{Name: "random", Description: "random digit", New: func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { return t.Rand.IntN(10), nil }), nil
		}},
		{Name: "nine", Description: "always 9", New: digit(9)},
		{Name: "one", Description: "always 1", New: digit(1)},
		{Name: "eleven", Description: "always 11, which is illegal", New: digit(11)},
		{Name: "panic", Description: "panics", New: func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { panic("boom") }), nil
		}},
		{Name: "error", Description: "returns an error", New: func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { return nil, errors.New("cannot think") }), nil
		}},
		{Name: "nil", Description: "returns nothing", New: func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { return nil, nil }), nil
		}},
		{Name: "sleepy", Description: "sleeps 30ms", New: func(match.Options) (match.Bot, error) {
			return match.BotFunc(func(t *match.Turn) (match.Action, error) { time.Sleep(30 * time.Millisecond); return 1, nil }), nil
		}},
		{Name: "counter", Description: "spends nodes until told to stop", Options: []match.OptionInfo{match.OptNodes, match.OptTime, {Name: "depth"}},
			Budget: match.Budget{Nodes: 50},
			New: func(o match.Options) (match.Bot, error) {
				if _, err := o.Int("depth", 1); err != nil {
					return nil, err
				}
				return match.BotFunc(func(t *match.Turn) (match.Action, error) {
					for t.Spend(1) {
					}
					t.Note.Nodes = t.Nodes()
					return 0, nil
				}), nil
			}},
	}
}

func (s tallyState) Turn() int { return s.turn }
func (s tallyState) ToMove() match.Movers {
	switch {
	case s.turn >= s.cfg.Turns:
		return match.Nobody
	case s.cfg.Simultaneous:
		return match.Both
	}
	return match.Only(match.Side(s.turn % 2))
}
func (s tallyState) Check(side match.Side, a match.Action) error {
	n, ok := a.(int)
	if !ok || n < 0 || n > 9 {
		return fmt.Errorf("%v is not a digit", a)
	}
	return nil
}
func (s tallyState) Apply(acts [2]match.Action) match.State {
	n := tallyState{cfg: s.cfg, turn: s.turn + 1, sum: s.sum}
	for side, a := range acts {
		if a != nil {
			n.sum[side] += a.(int)
		}
	}
	return n
}
func (s tallyState) Outcome() match.Outcome {
	o := match.Outcome{Winner: match.NoSide, Scores: [2]match.Score{match.Count(int64(s.sum[0])), match.Count(int64(s.sum[1]))}, Reason: "larger sum"}
	if s.sum[0] > s.sum[1] {
		o.Winner = match.P1
	} else if s.sum[1] > s.sum[0] {
		o.Winner = match.P2
	}
	return o
}

func init() { match.Register(tally{}) }

func spec(t *testing.T, s string) Spec {
	t.Helper()
	sp, err := ParseSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func play(t *testing.T, cfg *tallyConfig, p1, p2 string) *Record {
	t.Helper()
	return playClocked(t, cfg, p1, p2, false)
}

// playClocked plays with the game's clock on built-in bots too, when all.
func playClocked(t *testing.T, cfg *tallyConfig, p1, p2 string, all bool) *Record {
	t.Helper()
	rec, err := Play(context.Background(), Setup{Game: tally{}, Config: cfg, Seed: 7, Players: [2]Spec{spec(t, p1), spec(t, p2)}, ClockAll: all})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestParseSpec(t *testing.T) {
	sp, err := ParseSpec("strong:nodes=200k,seed=3")
	if err != nil || sp.Name != "strong" || len(sp.Options) != 2 || sp.String() != "strong:nodes=200k,seed=3" || sp.External() {
		t.Errorf("ParseSpec = %+v, %v", sp, err)
	}
	for _, bad := range []string{"", ":nodes=3", "strong:", "strong:nodes", "strong:=3", "strong:nodes=1,", "toy:", "toy: "} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) accepted", bad)
		}
	}
}

// A registered kind owns the specs that start with its name: ParseSpec
// reads them as the kind says, String writes them back, and NewBot asks
// the kind for the player, whatever the game's own bots are called.
func TestKindsRegisterThemselves(t *testing.T) {
	sp, err := ParseSpec("toy:any words: at all")
	if err != nil || sp.Name != "toy" || sp.Command != "any words: at all" || sp.String() != "toy:any words: at all" || !sp.External() || !sp.Timed() {
		t.Fatalf("ParseSpec(toy:...) = %+v (%s), %v", sp, sp, err)
	}
	b, info, _, err := NewBot(tally{}, sp, Hosting{})
	if err != nil || info.Name != "toy" {
		t.Fatalf("NewBot(%s) = %v, %+v", sp, err, info)
	}
	if a, err := b.Act(&match.Turn{}); err != nil || a != (toyAction("any words: at all")) {
		t.Errorf("the toy player played %v, %v", a, err)
	}
	if k, ok := LookupKind("toy"); !ok || k.Example != "toy:WORDS" {
		t.Errorf("LookupKind(toy) = %+v, %v", k, ok)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second kind named toy was registered")
		}
	}()
	RegisterKind(Kind{Name: "toy", New: func(match.Game, Spec, Hosting) (match.Bot, error) { return nil, nil }})
}

type toyAction string

func init() {
	RegisterKind(Kind{Name: "toy", Example: "toy:WORDS", Description: "plays its words", New: func(g match.Game, sp Spec, _ Hosting) (match.Bot, error) {
		return match.BotFunc(func(*match.Turn) (match.Action, error) { return toyAction(sp.Command), nil }), nil
	}})
}

func TestNewBotRefusesWithValidList(t *testing.T) {
	cases := []struct{ spec, want string }{
		{"strnog", `unknown bot "strnog" for tally (valid: random, nine, one, eleven, panic, error, nil, sleepy, counter)`},
		{"counter:nodez=5", `bot counter: unknown option "nodez" (valid: seed, nodes, time, depth)`},
		{"nine:nodes=5", `bot nine: unknown option "nodes" (valid: seed)`},
		{"counter:nodes=lots", `option nodes="lots": want a positive whole number`},
		{"counter:time=-1s", `option time="-1s": want a positive duration`},
		{"counter:seed=x", `option seed="x": want a whole number`},
		{"counter:depth=deep", `option depth="deep": want a whole number`},
	}
	for _, c := range cases {
		_, _, _, err := NewBot(tally{}, spec(t, c.spec), Hosting{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewBot(%s) = %v, want %q", c.spec, err, c.want)
		}
	}
	_, _, o, err := NewBot(tally{}, spec(t, "counter:nodes=2k,time=500ms,seed=4"), Hosting{})
	if err != nil || o.Budget.Nodes != 2000 || o.Budget.Time != 500*time.Millisecond || o.Seed != 4 || !o.HasSeed {
		t.Errorf("options = %+v, %v", o, err)
	}
}

func TestPlayAlternatingAndSimultaneous(t *testing.T) {
	rec := play(t, &tallyConfig{Turns: 5}, "nine", "one")
	if rec.Result.Winner != match.P1 || rec.Result.Scores != [2]match.Score{match.Count(27), match.Count(2)} || rec.Len() != 6 {
		t.Errorf("alternating: %+v, %d states", rec.Result, rec.Len())
	}
	for k, tl := range rec.Turns {
		if mover := match.Side(k % 2); tl.Actions[mover] == nil || tl.Actions[mover.Other()] != nil {
			t.Errorf("turn %d: actions %v, want only %s", k, tl.Actions, mover)
		}
	}
	rec = play(t, &tallyConfig{Turns: 4, Simultaneous: true}, "one", "nine")
	if rec.Result.Winner != match.P2 || rec.Result.Scores != [2]match.Score{match.Count(4), match.Count(36)} {
		t.Errorf("simultaneous: %+v", rec.Result)
	}
}

// TestFailingBotsForfeit: a panic, an error, no action, an illegal action
// and an overrun clock each lose the game for that side alone, with the
// reason recorded; when both sides fail in one turn it is a draw.
func TestFailingBotsForfeit(t *testing.T) {
	cases := []struct {
		bot, want string
		cfg       tallyConfig
	}{
		{"panic", "bot crashed: boom", tallyConfig{Turns: 4}},
		{"error", "cannot think", tallyConfig{Turns: 4}},
		{"nil", "bot returned no action", tallyConfig{Turns: 4}},
		{"eleven", "11 is not a digit", tallyConfig{Turns: 4}},
		{"sleepy", "out of time", tallyConfig{Turns: 4, ClockMs: 5}},
	}
	for _, c := range cases {
		for _, side := range match.Sides {
			players := [2]string{"one", "one"}
			players[side] = c.bot
			rec := playClocked(t, &c.cfg, players[0], players[1], true)
			r := rec.Result
			if r.Winner != side.Other() || len(r.Forfeits) != 1 || r.Forfeits[0].Side != side ||
				!strings.Contains(r.Forfeits[0].Reason, c.want) {
				t.Errorf("%s as %s: result %+v, want a forfeit saying %q", c.bot, side, r, c.want)
			}
		}
	}
	// By default the clock rules programs only: a built-in bot's match
	// does not depend on how busy the machine is.
	if r := play(t, &tallyConfig{Turns: 4, ClockMs: 5}, "sleepy", "one").Result; len(r.Forfeits) != 0 || r.Scores != [2]match.Score{match.Count(2), match.Count(2)} {
		t.Errorf("sleepy under a 5 ms clock by default: %+v, want no forfeit", r)
	}
	rec := play(t, &tallyConfig{Turns: 3, Simultaneous: true}, "eleven", "panic")
	if r := rec.Result; r.Winner != match.NoSide || len(r.Forfeits) != 2 || r.Turns != 0 {
		t.Errorf("both fail: %+v, want a draw with two forfeits", r)
	}
	if !strings.Contains(rec.Result.String(), "P1 forfeits at turn 0") {
		t.Errorf("result text %q", rec.Result.String())
	}
}

func TestPanicSiteNamesTheBot(t *testing.T) {
	rec := play(t, &tallyConfig{Turns: 2}, "panic", "one")
	if reason := rec.Result.Forfeits[0].Reason; !strings.Contains(reason, "match_test.go") {
		t.Errorf("reason %q does not point at the bot's code", reason)
	}
}

func TestNodeBudget(t *testing.T) {
	rec := play(t, &tallyConfig{Turns: 2}, "counter", "counter:nodes=120")
	if n := rec.Turns[0].Notes[match.P1].Get().Nodes; n != 50 {
		t.Errorf("default budget: spent %d nodes, want 50", n)
	}
	if n := rec.Turns[1].Notes[match.P2].Get().Nodes; n != 120 {
		t.Errorf("nodes=120: spent %d nodes", n)
	}
}

func TestCancelledMatchStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Play(ctx, Setup{Game: tally{}, Config: &tallyConfig{Turns: 3}, Players: [2]Spec{spec(t, "counter:time=1h"), spec(t, "one")}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Play with a cancelled context = %v", err)
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct{ k, n, lo, hi float64 }{
		{170, 200, 0.7946, 0.8936},
		{200, 200, 0.9812, 1},
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
	} {
		lo, hi := Wilson(c.k, c.n)
		if diff(lo, c.lo) > 1e-3 || diff(hi, c.hi) > 1e-3 {
			t.Errorf("Wilson(%v, %v) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestSeriesAlternatesSides(t *testing.T) {
	res, err := Series{Game: tally{}, Config: &tallyConfig{Turns: 4, Simultaneous: true}, Seed: 10, Games: 7,
		Bots: [2]Spec{spec(t, "nine"), spec(t, "one")}, Jobs: 3}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Bots[0], res.Bots[1]
	if a.Wins != 7 || b.Losses != 7 || a.Points != 7 || a.Score != 1 || a.Moves != 28 {
		t.Errorf("series: %+v / %+v", a, b)
	}
	for i, g := range res.Log {
		if want := match.Side(i % 2); g.ASide != want || g.Seed != 10+uint64(i) || g.Result.Winner != want {
			t.Errorf("game %d: %+v, want A as %s winning", i, g, want)
		}
	}
}

// lenient is the toy game with rules that play on after a bad move, as
// Colosseum's do: the move is replaced by a 0.
type lenient struct{ tally }

func (lenient) Substitute(match.State, match.Side, *rand.Rand, error) match.Action { return 0 }

// A series counts the moves the rules replaced, per bot and per game
// with the first one's turn and reason, on whichever side the bot sat.
func TestSeriesCountsReplacedMoves(t *testing.T) {
	res, err := Series{Game: lenient{}, Config: &tallyConfig{Turns: 3, Simultaneous: true}, Seed: 1, Games: 2,
		Bots: [2]Spec{spec(t, "nine"), spec(t, "panic")}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Bots[0], res.Bots[1]; a.Replaced != 0 || b.Replaced != 6 || b.Forfeits != 0 {
		t.Fatalf("replaced %d and %d, forfeits %d; want 0, 6 and 0", a.Replaced, b.Replaced, b.Forfeits)
	}
	for i, g := range res.Log {
		b := g.ASide.Other()
		if g.Replaced[b] != 3 || g.Replaced[g.ASide] != 0 || g.ReplacedAt[b] != 0 || !strings.Contains(g.ReplacedWhy[b], "boom") {
			t.Errorf("game %d: replaced %v at %v: %q", i, g.Replaced, g.ReplacedAt, g.ReplacedWhy)
		}
	}
}

// A note equal to the side's last one is kept once: a million-tick
// Evasion game whose hunter says "waiting for the cooldown" each tick
// holds one note, not a million.
func TestSameNotesAreShared(t *testing.T) {
	rec := play(t, &tallyConfig{Turns: 4, Simultaneous: true}, "counter:nodes=5", "nine")
	first := rec.Turns[0].Notes[match.P1]
	if first == nil || first.Get().Nodes != 5 {
		t.Fatalf("first note %+v, want 5 nodes", first)
	}
	for k, turn := range rec.Turns[1:] {
		if turn.Notes[match.P1] != first {
			t.Errorf("turn %d: note %p (%+v), want the first one, %p", k+1, turn.Notes[match.P1], turn.Notes[match.P1], first)
		}
	}
}
