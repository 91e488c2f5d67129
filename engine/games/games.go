// Package games registers every arena game with engine/match. Front ends
// import it for its side effect and then find games by name:
//
//	import _ "github.com/arena-playground/arena/engine/games"
//	g, err := match.Lookup("life")
package games

import (
	_ "github.com/arena-playground/arena/engine/colosseum"
	_ "github.com/arena-playground/arena/engine/evasion"
	_ "github.com/arena-playground/arena/engine/life"
	_ "github.com/arena-playground/arena/engine/mapcolor"
	_ "github.com/arena-playground/arena/engine/pathgame"
)
