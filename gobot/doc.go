// Package gobot runs bots written in Go by people, not compiled into
// arena: a file given as "go:mybot.go", or the source written in the
// page's editor. The source is interpreted (package gobot/interp, with
// yaegi) in a process of its own: a child process of arena on the command
// line and in the desktop window, a Web Worker of its own in the page. A
// bot that loops for ever or allocates without bound is then ended with
// its process, and the match goes on.
//
// A bot is a file of one package that defines
//
//	func Act(t *match.Turn) (match.Action, error)
//
// against the same API as arena's own bots: t.State is the game's state
// (its legal moves, a copy that can be stepped), t.Side the side to move,
// t.Rand the bot's own random source and t.Spend its budget. It may import
// the games' packages, engine/match and a few standard packages (see
// Imports). Template returns each game's, the source the editor opens on;
// the same file compiles unchanged into arena as a built-in bot.
//
// The interpreter's process keeps its own copy of the match, rebuilt from
// how it began and each turn's actions (play.Mirror), since a state
// does not travel between processes. This package holds what both ends
// share: the lines they exchange (Request, Reply) and the parent's side
// of them (Protocol); it does not import the interpreter, so that the
// page's match worker, which only talks to the bot's worker, stays small.
package gobot
