// Package symbols holds the tables through which a bot interpreted by
// yaegi reaches compiled Go: the bot API of engine/match and the five
// games, and the few standard packages a bot needs, each name of them
// reviewed. yaegi extract writes every exported name of those packages
// (package extracted, generated rather than taken from yaegi's stdlib,
// whose 156 tables would add 30 MB to the page's bot worker); a bot is
// handed only the names reviewed.txt lists, each under the reason it is
// safe to hand to a bot from anyone: nothing that opens a file, starts a
// program, opens a socket or makes a player from a spec.
package symbols

import (
	_ "embed"
	"fmt"
	"reflect"
	"strings"

	"github.com/arena-playground/arena/gobot/symbols/internal/extracted"
)

// Symbols are the reviewed tables, by import path, for interp.Use.
var Symbols = reviewedTables()

//go:embed reviewed.txt
var reviewedText string

// Review is reviewed.txt read: each name a bot can reach, with the
// reason it is safe.
type Review map[string]string

// Reviewed reads reviewed.txt.
func Reviewed() (Review, error) {
	r := Review{}
	why := ""
	for n, line := range strings.Split(reviewedText, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "# "):
		case strings.HasPrefix(line, "## "):
			_, w, ok := strings.Cut(line, ": ")
			if !ok || strings.TrimSpace(w) == "" {
				return nil, fmt.Errorf("reviewed.txt:%d: a group with no reason: want \"## GROUP: why\"", n+1)
			}
			why = w
		case why == "":
			return nil, fmt.Errorf("reviewed.txt:%d: %s before any group's reason", n+1, line)
		default:
			r[line] = why
		}
	}
	return r, nil
}

// reviewedTables keeps of the extracted tables the names reviewed, and
// yaegi's wrapper of each reviewed interface (_Name), through which a
// bot's own type implements it.
func reviewedTables() map[string]map[string]reflect.Value {
	r, err := Reviewed()
	if err != nil {
		panic(err) // the file is embedded: TestReviewed reads it first
	}
	tables := map[string]map[string]reflect.Value{}
	for key, all := range extracted.Symbols {
		pkg := Short(key[:strings.LastIndex(key, "/")])
		kept := map[string]reflect.Value{}
		for name, v := range all {
			if _, ok := r[pkg+"."+strings.TrimPrefix(name, "_")]; ok {
				kept[name] = v
			}
		}
		tables[key] = kept
	}
	return tables
}

// Refused says why a name a package exports is not handed to a bot, for
// the interpreter's error at the line that names it ("" when it is
// handed, or when the package has no such name).
func Refused(path, name string) string {
	for key, all := range extracted.Symbols {
		if key[:strings.LastIndex(key, "/")] != path {
			continue
		}
		if _, ok := all[name]; !ok || Symbols[key][name].IsValid() {
			return ""
		}
		if why, ok := refusedWhy[Short(path)+"."+name]; ok {
			return why
		}
		return "it is not part of the bot API (gobot/symbols/reviewed.txt lists what is)"
	}
	return ""
}

// refusedWhy names what the names a student is likeliest to reach for
// would do.
var refusedWhy = map[string]string{
	"match.LookupBot":   "it makes players, and a bot reaches nothing outside its game",
	"match.Lookup":      "a game's bots and files are not a bot's to reach",
	"fmt.Scan":          "it reads the interpreter's standard input, which carries the match's protocol",
	"fmt.Scanf":         "it reads the interpreter's standard input, which carries the match's protocol",
	"fmt.Scanln":        "it reads the interpreter's standard input, which carries the match's protocol",
	"time.LoadLocation": "it reads the zone files; use time.UTC or time.FixedZone",
}

func init() {
	for _, name := range []string{"ExpFloat64", "Float32", "Float64", "Int", "Int32", "Int32N", "Int64", "Int64N",
		"IntN", "N", "NormFloat64", "Perm", "Shuffle", "Uint", "Uint32", "Uint32N", "Uint64", "Uint64N", "UintN"} {
		refusedWhy["math/rand/v2."+name] = "it draws from the unseeded global source, so the match would not replay; draw from t.Rand (t.Rand." + name + ")"
	}
}
