package games

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// maxFuzzTurns bounds a fuzzed game, so that each input runs quickly.
const maxFuzzTurns = 40

// FuzzPlay feeds every game arbitrary configs and actions: a config the
// game accepts starts a game; each line of the actions is offered to the
// side to move (the random bot moves for it when the line is not a legal
// action), and at every turn every built-in bot is asked to move. Nothing
// may panic, every bot answers or refuses with an error, and what a bot
// answers its own game must accept.
func FuzzPlay(f *testing.F) {
	games := match.Games()
	for i, g := range games {
		cfg, err := json.Marshal(match.DefaultConfig(g))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), cfg, sampleActions(f, g))
	}
	f.Fuzz(func(t *testing.T, gi uint8, cfg, actions []byte) {
		g := games[int(gi)%len(games)]
		c, err := g.LoadConfig("fuzz.json", cfg)
		if err != nil || tooBig(c) {
			return
		}
		s, err := g.Start(c, 1)
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(1, 2))
		lines := bufio.NewScanner(bytes.NewReader(actions))
		lines.Buffer(nil, 1<<20)
		for turn := 0; turn < maxFuzzTurns && s.ToMove() != match.Nobody; turn++ {
			line := []byte("null")
			if lines.Scan() {
				line = lines.Bytes()
			}
			var acts [2]match.Action
			for _, side := range match.Sides {
				if !s.ToMove().Has(side) {
					continue
				}
				for _, info := range g.Bots() {
					a := act(t, g, info, s, side, r)
					if info.Name == "random" {
						acts[side] = a
					}
				}
				if a, err := g.DecodeAction(line); err == nil && s.Check(side, a) == nil {
					acts[side] = a
				}
				if acts[side] == nil {
					return // no bot could move: the random bot said why
				}
			}
			s = s.Apply(acts)
			s.Outcome()
		}
	})
}

// act asks a built-in bot to move on a small node budget; its answer, if
// any, must pass the state's check.
func act(t *testing.T, g match.Game, info match.BotInfo, s match.State, side match.Side, r *rand.Rand) match.Action {
	bot, err := info.New(match.Options{Budget: match.Budget{Nodes: 300}})
	if err != nil {
		t.Fatalf("%s: %v", info.Name, err)
	}
	a, err := bot.Act(match.NewTurn(s, side, r, match.Budget{Nodes: 300}))
	if err != nil {
		return nil // a refusal, in words
	}
	if err := s.Check(side, a); err != nil {
		t.Fatalf("%s %s at turn %d: its move %v is refused: %v", g.Info().Name, info.Name, s.Turn(), a, err)
	}
	return a
}

// tooBig skips configs that would make one input run for seconds (a
// 4096x4096 Life board): the fuzzer looks for crashes, not for patience.
func tooBig(c match.Config) bool {
	data, _ := json.Marshal(c)
	var dims struct {
		Game struct{ Rows, Cols int } `json:"game"`
		Size int                      `json:"size"`
	}
	json.Unmarshal(data, &dims)
	return dims.Game.Rows*dims.Game.Cols > 128*128 || dims.Size > 16
}

// sampleActions is a game's opening as action lines, from a match of
// random bots: the seed corpus starts from real play.
func sampleActions(f *testing.F, g match.Game) []byte {
	rec, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 3,
		Players: [2]play.Spec{{Name: "random"}, {Name: "random"}}})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	for k, turn := range rec.Turns {
		if k == maxFuzzTurns {
			break
		}
		a := turn.Actions[rec.State(k).ToMove().Side()]
		data, _ := json.Marshal(a)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
