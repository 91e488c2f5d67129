package evasion

import (
	"context"
	"fmt"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// strong wins a session against each reference bot on the default preset
// and on 2 walls every tick, where only a hunter that replaces a side of
// its box with a tighter one catches a prey that keeps beside it; and
// each reference bot plays every state it meets legally (a refused
// action would be a forfeit).
func TestStrongBeatsReferences(t *testing.T) {
	for _, cfg := range []*Config{Preset(10, 10), Preset(2, 1)} {
		cfg.TickCap = 2000
		for _, ref := range []string{"box", "bfs", "shadow"} {
			t.Run(fmt.Sprintf("%d-%d/%s", cfg.MaxWalls, cfg.Delay, ref), func(t *testing.T) {
				t.Parallel()
				rec, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: cfg, Seed: 2,
					Players: [2]play.Spec{{Name: ref}, {Name: "strong"}}})
				if err != nil {
					t.Fatal(err)
				}
				r := rec.Result
				if len(r.Forfeits) > 0 {
					t.Errorf("%d/%d %s: forfeits %+v", cfg.MaxWalls, cfg.Delay, ref, r.Forfeits)
				}
				if r.Winner != match.P2 {
					t.Errorf("%d/%d strong vs %s: %s", cfg.MaxWalls, cfg.Delay, ref, r)
				}
			})
		}
	}
}

// mix plays one bot's hunter and another's prey, and names what it knows
// when asked for a bot it does not.
func TestMix(t *testing.T) {
	cfg := Preset(10, 10)
	cfg.TickCap = 3000
	play := func(a, b string) *play.Result {
		var players [2]play.Spec
		for i, spec := range []string{a, b} {
			var err error
			if players[i], err = play.ParseSpec(spec); err != nil {
				t.Fatal(err)
			}
		}
		rec, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: cfg, Seed: 5, Players: players})
		if err != nil {
			t.Fatal(err)
		}
		return rec.Result
	}
	// box's hunter against greedy's prey, greedy's hunter against
	// shadow's prey: the two games of box vs greedy and greedy vs shadow.
	mixed := play("mix", "greedy") // strong's hunter and prey by default
	whole := play("strong", "greedy")
	if mixed.Scores != whole.Scores {
		t.Errorf("mix with its defaults scored %v, strong %v", mixed.Scores, whole.Scores)
	}
	a := play("mix:hunter=box,prey=shadow", "greedy")
	b, c := play("box", "greedy"), play("shadow", "greedy")
	if a.Scores[1] != b.Scores[1] || a.Scores[0] != c.Scores[0] {
		t.Errorf("mix of box's hunter and shadow's prey scored %v; box %v, shadow %v", a.Scores, b.Scores, c.Scores)
	}
	mix := Game{}.Bots()[len(Game{}.Bots())-1]
	_, err := mix.New(match.Options{Extra: map[string]string{"prey": "nobody"}})
	if err == nil || err.Error() != `option prey="nobody": want one of random, greedy, strong, box, bfs, shadow` {
		t.Errorf("mix:prey=nobody: %v", err)
	}
}
