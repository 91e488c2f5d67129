package gobot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
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
		{"a name outside the API", head + "func Act(t *match.Turn) (match.Action, error) {\n\tmatch.ReadFile(\"x\")\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:2: match.ReadFile is not for bots"},
		{"a variable not used", head + "func Act(t *match.Turn) (match.Action, error) {\n\tx := 1\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:2: declared and not used: x"},
		{"an import not used", "package bot\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/arena-playground/arena/engine/colosseum\"\n\t\"github.com/arena-playground/arena/engine/match\"\n)\n\n" + act, `bot.go:4:2: "fmt" imported and not used`},
		{"a missing return", head + "func Act(t *match.Turn) (match.Action, error) {\n\tif t.State.Turn() > 0 {\n\t\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n\t}\n}\n", "bot.go:12:1: missing return"},
		{"a type error", head + "func Act(t *match.Turn) (match.Action, error) {\n\tvar n int = \"x\"\n\t_ = n\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:"},
		{"no Act", head + "var _ = colosseum.MaxSize\n\nfunc Move(t *match.Turn) (match.Action, error) { return nil, nil }\n", "bot.go: the bot has no func Act(t *match.Turn) (match.Action, error)"},
		{"another Act", head + "var _ = colosseum.MaxSize\n\nfunc Act(t *match.Turn) match.Action { return nil }\n", "bot.go:10:1: Act is func(t *match.Turn) match.Action; want func Act"},
		{"a literal beside other values", head + "func Act(t *match.Turn) (match.Action, error) {\n\tm, n := colosseum.Move{}, 1\n\t_, _ = m, n\n\treturn t.State.(colosseum.State).Moves(nil)[0], nil\n}\n", "bot.go:9:2: a composite literal beside other values"},
		{"a directive", head + "//go:linkname x runtime.x\nvar x int\n\n" + act, "bot.go:8:1: //go:linkname is a compiler directive: a bot has none"},
		{"a line directive", head + "//line other.go:1\n" + act, "bot.go:8:1: //line is a compiler directive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bot.go")
			if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			spec, _ := match.ParseSpec("go:" + file)
			g, _ := match.Lookup("colosseum")
			var errs [2]string
			for i, interpret := range []bool{true, false} {
				bot, _, _, err := match.NewBot(g, spec, match.Hosting{Interpret: interpret})
				if err != nil {
					errs[i] = strings.ReplaceAll(err.Error(), filepath.Dir(file)+string(filepath.Separator), "")
				}
				if c, ok := bot.(match.Closer); ok {
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
