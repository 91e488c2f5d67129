// Package match is the game API: what a game and a bot are written
// against, and nothing more. A game implements [Game] and [State], lists
// its bots ([BotInfo]) and presets, and states its clock rules ([Clock]);
// a bot is a [Bot] that reads a [Turn] (the state, its side, its random
// source, its [Budget]) and returns an [Action], noting what it thought
// ([Note], [Mark]). Analysis is a game's optional [Analyser], found
// through [Analysed], with the multi-line search every game shares
// ([MultiPV]).
//
// Nothing here runs a match or a program: package engine/play plays
// matches (specs, the runner, records, replays, the worker's wire), and
// package players runs programs and the protocols they speak. A game
// plugs in by calling [Register] from its init function, and every front
// end finds the games through package engine/games, the one list of them.
//
// A bot draws randomness only from its turn's source ([BotRand]) and a
// budget that must reproduce is counted in nodes, so that a match is a
// pure function of its setup on every machine.
package match
