package gobot_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// TestBothPathsRefuseTheSameFiles makes a go: bot of each file that may
// not play, interpreted and built with Go: both refuse it, with the same
// error, by file and line where the file has one; a file that may play is
// made both ways.
func TestBothPathsRefuseTheSameFiles(t *testing.T) {
	const head = "package bot\n\nimport (\n\t\"github.com/arena-playground/arena/engine/colosseum\"\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\n"
	const act = "func Act(t *match.Turn) (match.Action, error) {\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n"
	for _, c := range []struct{ name, src, want string }{
		{"plays", head + act, ""},
		{"syntax", head + "func Act(t *match.Turn) (match.Action, error) {\n\treturn nil nil\n}\n", "bot.go:9:13:"},
		{"an import outside the API", "package bot\n\nimport (\n\t\"os\"\n\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\nfunc Act(t *match.Turn) (match.Action, error) {\n\tos.Exit(1)\n\treturn nil, nil\n}\n", `bot.go:4:2: import "os": a bot may import only`},
		{"unsafe", "package bot\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\nvar _ = unsafe.Sizeof(0)\n\nfunc Act(t *match.Turn) (match.Action, error) { return nil, nil }\n", `bot.go:4:2: import "unsafe"`},
		{"cgo", "package bot\n\nimport \"C\"\n\nimport \"github.com/arena-playground/arena/engine/match\"\n\nfunc Act(t *match.Turn) (match.Action, error) { return nil, nil }\n", `bot.go:3:8: import "C"`},
		{"a name outside the API", head + "func Act(t *match.Turn) (match.Action, error) {\n\tmatch.Lookup(\"x\")\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:2: match.Lookup is not for bots"},
		{"a variable not used", head + "func Act(t *match.Turn) (match.Action, error) {\n\tx := 1\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:2: declared and not used: x"},
		{"an import not used", "package bot\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/arena-playground/arena/engine/colosseum\"\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\n" + act, `bot.go:4:2: "fmt" imported and not used`},
		{"a missing return", head + "func Act(t *match.Turn) (match.Action, error) {\n\tif t.State.Turn() > 0 {\n\t\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n\t}\n}\n", "bot.go:12:1: missing return"},
		{"a type error", head + "func Act(t *match.Turn) (match.Action, error) {\n\tvar n int = \"x\"\n\t_ = n\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:"},
		{"no Act", head + "var _ = colosseum.MaxSize\n\nfunc Move(t *match.Turn) (match.Action, error) { return nil, nil }\n", "bot.go: the bot has no func Act(t *match.Turn) (match.Action, error)"},
		{"another Act", head + "var _ = colosseum.MaxSize\n\nfunc Act(t *match.Turn) match.Action { return nil }\n", "bot.go:10:1: Act is func(t *match.Turn) match.Action; want func Act"},
		{"a directive", head + "//go:linkname x runtime.x\nvar x int\n\n" + act, "bot.go:8:1: //go:linkname is a compiler directive: a bot has none"},
		{"a line directive", head + "//line other.go:1\n" + act, "bot.go:8:1: //line is a compiler directive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bot.go")
			if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			spec, _ := play.ParseSpec("go:" + file)
			g, _ := match.Lookup("colosseum")
			var errs [2]string
			for i, interpret := range []bool{true, false} {
				bot, _, _, err := play.NewBot(g, spec, play.Hosting{Interpret: interpret})
				if err != nil {
					errs[i] = strings.ReplaceAll(err.Error(), filepath.Dir(file)+string(filepath.Separator), "")
				}
				if c, ok := bot.(play.Closer); ok {
					c.Close()
				}
			}
			if errs[0] != errs[1] {
				t.Fatalf("interpreted: %q\nbuilt with Go: %q", errs[0], errs[1])
			}
			if c.want == "" && errs[0] != "" || c.want != "" && !strings.Contains(errs[0], c.want) {
				t.Fatalf("both: %q; want %q", errs[0], c.want)
			}
		})
	}
}

// TestBothPathsAssignAlike plays a file whose first move assigns several
// values at once, a call, a method, a builtin, a receive or a composite
// literal among them (where yaegi v0.16.1, given the file as written,
// leaves the other values unassigned), and shifts a constant by a
// variable beside a uint8 and a uint64, the count an int or a
// colosseum.Dir (where yaegi panics), interpreted and built with Go:
// both say what Go's rules give.
func TestBothPathsAssignAlike(t *testing.T) {
	const src = `package bot

import (
	"fmt"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

type pair struct{ a, b int }

func seven() int { return 7 }

func (p pair) sum() int { return p.a + p.b }

func Act(t *match.Turn) (match.Action, error) {
	t.Spend(3)
	x, y := 1, 1
	x, y = 2, seven()
	var d, n int64
	d, n = int64(x), t.Nodes()
	p, k := pair{3, 4}, 5
	var s []int
	s, k = append(s, k), p.sum()
	c := make(chan int, 1)
	c <- 9
	var r, q = <-c, len(s)
	f := func() int {
		u, v := 0, 0
		u, v = 10, seven()
		return u + v
	}
	w, z := f(), x
	t.Note.Depth, t.Note.Nodes = x, t.Nodes()
	var bits uint8 = 7
	var wide uint64 = 7
	e := 40
	on, far := bits&(1<<x), wide|1<<e
	side := colosseum.Down
	down := bits&(1<<side) != 0
	nine := uint16(1) << (1 << (x + 1)) // the count's constant stays an int
	t.Note.Text = fmt.Sprint(x, y, d, n, p, k, s, r, q, w, z, t.Note.Depth, on, far, down, nine)
	return t.State.(colosseum.State).Moves(nil)[0], nil
}
`
	const want = "2 7 2 3 {3 4} 7 [5] 9 1 17 2 2 4 1099511627783 true 256"
	file := filepath.Join(t.TempDir(), "bot.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, _ := play.ParseSpec("go:" + file)
	random, _ := play.ParseSpec("random")
	g, _ := match.Lookup("colosseum")
	for _, interpret := range []bool{true, false} {
		s := play.Setup{Game: g, Seed: 1, Players: [2]play.Spec{spec, random}, Hosting: play.Hosting{Interpret: interpret}}
		rec, err := play.Play(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		note := rec.Turns[0].Notes[0].Get()
		if note == nil || note.Text != want {
			t.Errorf("interpreted %v: the first move's note is %+v; want the text %q", interpret, note, want)
		}
	}
}
