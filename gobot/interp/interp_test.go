package interp_test

import (
	"io"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/interp"
)

const head = "package bot\n\nimport \"github.com/arena-playground/arena/engine/match\"\n\n"

// TestCheckSaysWhereAndWhy: each source that cannot play is refused at
// its line, as the Go compiler says it, before any of it runs.
func TestCheckSaysWhereAndWhy(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"syntax", head + "func Act(t *match.Turn) (match.Action, error) {\n\treturn nil nil\n}\n", "bot.go:6:13: expected"},
		{"undefined", head + "func Act(t *match.Turn) (match.Action, error) {\n\treturn x, nil\n}\n", "bot.go:6:9: undefined: x"},
		{"import", "package bot\n\nimport \"os\"\n", `bot.go:3:8: import "os": a bot may import only`},
		{"unsafe", "package bot\n\nimport \"unsafe\"\n", `bot.go:3:8: import "unsafe"`},
		{"no Act", "package bot\n\nfunc Move() {}\n", "bot.go: the bot has no func Act"},
		{"reaches a game", head + "func Act(t *match.Turn) (match.Action, error) {\n\tg, _ := match.Lookup(\"life\")\n\treturn g, nil\n}\n", "bot.go:6:10: match.Lookup is not for bots: a game's bots and files"},
		{"makes a player", "package bot\n\nimport (\n\t\"github.com/arena-playground/arena/engine/match\"\n\t\"github.com/arena-playground/arena/engine/play\"\n)\n\nfunc Act(t *match.Turn) (match.Action, error) {\n\ts, _ := play.ParseSpec(\"cmd:sh -c 'id > pwned.txt'\")\n\t_ = s\n\treturn nil, nil\n}\n", `bot.go:5:2: import "github.com/arena-playground/arena/engine/play": a bot may import only`},
		{"renamed", "package bot\n\nimport m \"github.com/arena-playground/arena/engine/match\"\n\nfunc Act(t *m.Turn) (m.Action, error) {\n\t_, err := m.Lookup(\"x\")\n\treturn nil, err\n}\n", "bot.go:6:12: m.Lookup is not for bots: a game's bots and files"},
		{"a game's files", "package bot\n\nimport (\n\t\"github.com/arena-playground/arena/engine/life\"\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\nvar g = life.Game{}\n\nfunc Act(t *match.Turn) (match.Action, error) { return nil, nil }\n", "bot.go:8:9: life.Game is not for bots: it is not part of the bot API"},
		{"reads the protocol", "package bot\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\nfunc Act(t *match.Turn) (match.Action, error) {\n\tvar s string\n\tfmt.Scanln(&s)\n\treturn nil, nil\n}\n", "bot.go:11:2: fmt.Scanln is not for bots: it reads the interpreter's standard input"},
		{"unseeded", "package bot\n\nimport (\n\t\"math/rand/v2\"\n\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\nfunc Act(t *match.Turn) (match.Action, error) {\n\treturn rand.IntN(3), nil\n}\n", "bot.go:10:9: rand.IntN is not for bots: it draws from the unseeded global source"},
		{"dot import", "package bot\n\nimport . \"github.com/arena-playground/arena/engine/match\"\n", `bot.go:3:8: import . "github.com/arena-playground/arena/engine/match": a bot names what it imports by its package`},
		{"a local name like a package's", head + "func Act(t *match.Turn) (match.Action, error) {\n\tmatch := struct{ Lookup int }{}\n\treturn match.Lookup, nil\n}\n", ""},
		{"runs nothing", head + "var x = func() int { for {} }()\n\nfunc Act(t *match.Turn) (match.Action, error) { return nil, nil }\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := interp.Check("bot.go", c.src)
			if c.name == "no Act" { // only Compile looks for Act
				_, err = interp.Compile("bot.go", c.src, io.Discard)
			}
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Check: %v; want nil (a check runs nothing)", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("Check: %v; want %q", err, c.want)
			}
		})
	}
}

// TestMaxSource: a source of MaxSource bytes compiles, one byte more is
// refused by name with the limit.
func TestMaxSource(t *testing.T) {
	src := head + "func Act(t *match.Turn) (match.Action, error) { return nil, nil }\n"
	pad := interp.MaxSource - len(src) - len("\n//\n")
	src += "\n//" + strings.Repeat("x", pad) + "\n"
	if len(src) != interp.MaxSource {
		t.Fatalf("built %d bytes", len(src))
	}
	if _, err := interp.Compile("big.go", src, io.Discard); err != nil {
		t.Fatalf("a source of %d bytes: %v", len(src), err)
	}
	err := interp.Check("big.go", src+" ")
	if err == nil || !strings.Contains(err.Error(), "a bot's source may have at most 1048576") {
		t.Fatalf("a source of %d bytes: %v", len(src)+1, err)
	}
}

// TestServeSaysWhereABotPanicked plays the lines of a match through
// Serve: the bot's panic is its reply's error, naming the function the
// panic came from, and the bot answers its next move.
func TestServeSaysWhereABotPanicked(t *testing.T) {
	src := head + "func Act(t *match.Turn) (match.Action, error) {\n\treturn deeper(t), nil\n}\n\nfunc deeper(t *match.Turn) match.Action {\n\tvar m map[string]int\n\tm[\"x\"] = t.State.Turn()\n\treturn nil\n}\n"
	g, _ := match.Lookup("colosseum")
	greedy, _ := play.ParseSpec("greedy")
	st, err := play.NewStart(play.Setup{Game: g, Seed: 3, Players: [2]play.Spec{greedy, greedy}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := gobot.NewProtocol(g, "bot.go", src)
	p.Begin(st, match.P1)
	s0, _ := g.Start(match.DefaultConfig(g), 3)
	in := string(p.Opening()) + string(p.Request(s0, match.P1, 1, 0)) + string(p.Request(s0, match.P1, 2, 0))
	var out strings.Builder
	if err := interp.Serve(strings.NewReader(in), &out, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d replies to 3 requests: %q", len(lines), lines)
	}
	if err := p.Opened([]byte(lines[0])); err != nil {
		t.Fatalf("the opening: %v", err)
	}
	for _, l := range lines[1:] {
		_, _, err := p.Reply([]byte(l))
		if err == nil || err.Error() != "the bot panicked in bot.deeper (its body from line 10): assignment to entry in nil map" {
			t.Fatalf("reply %s: %v", l, err)
		}
	}
}
