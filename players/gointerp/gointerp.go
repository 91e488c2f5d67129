// Package gointerp makes a binary that imports it play go: bots with
// arena's interpreter (gobot/interp) where no Go is installed, and be
// their interpreter: it hands the interpreter's check to players. It is
// the one place the two meet, so that the interpreter imports nothing of
// players and players nothing of the interpreter.
//
//	import _ "github.com/arena-playground/arena/players/gointerp"
package gointerp

import (
	"github.com/arena-playground/arena/gobot/interp"
	"github.com/arena-playground/arena/players"
)

func init() { players.RegisterGoInterpreter(interp.Check) }
