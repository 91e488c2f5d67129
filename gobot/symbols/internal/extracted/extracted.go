// Package extracted holds the tables that yaegi extract writes for arena's
// bot API and the standard packages a bot may import: every exported name
// of each package, reviewed or not. Package symbols hands a bot only the
// names it reviewed; nothing else imports these tables.
package extracted

import "reflect"

// Symbols are the extracted tables, by yaegi's import path key.
var Symbols = map[string]map[string]reflect.Value{}

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name extracted errors fmt math math/bits math/rand/v2 sort strconv strings time container/heap
// The games' tables are extracted for each game engine/games lists, the
// one list of them.
//go:generate sh -c "go run github.com/traefik/yaegi/cmd/yaegi extract -name extracted github.com/arena-playground/arena/engine/match $(go list -f '{{join .Imports \" \"}}' github.com/arena-playground/arena/engine/games)"
