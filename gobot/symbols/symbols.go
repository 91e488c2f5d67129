// Package symbols holds the tables through which a bot interpreted by
// yaegi reaches compiled Go: arena's bot API (engine/match and the five
// games) and the few standard packages a bot needs. They are generated
// (go generate) rather than taken from yaegi's stdlib package, whose 156
// tables would add 30 MB to the page's bot worker.
package symbols

import "reflect"

// Symbols are the tables, by import path, for interp.Use.
var Symbols = map[string]map[string]reflect.Value{}

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols errors fmt math math/bits math/rand/v2 sort strconv strings time container/heap
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols github.com/arena-playground/arena/engine/match github.com/arena-playground/arena/engine/colosseum github.com/arena-playground/arena/engine/evasion github.com/arena-playground/arena/engine/life github.com/arena-playground/arena/engine/mapcolor github.com/arena-playground/arena/engine/pathgame
