// Package match is the game API and the match loop that every arena game
// shares: the registry of games and their bots, bot specs with options,
// budgets and clocks, the loop that plays simultaneous and alternating
// turns, results, replays and series of games.
//
// A game plugs in by implementing [Game] and [State] and calling [Register]
// from its package's init function. The match loop never looks inside a
// state or an action: it asks the sides to move ([State.ToMove]), asks each
// side's [Bot] for an [Action] within its [Budget] and [Clock], checks the
// action ([State.Check]), and applies the actions ([State.Apply]) until the
// game is over. A bot that panics, overruns its clock or returns an invalid
// action loses the game (or, in games whose rules say so, has its move
// replaced, see [Substituter]); the reason is recorded in the [Result].
//
// A game that courses played with programs describes its wire protocol
// here too ([Protocol], [SessionProtocol], [FileProtocol], [PythonAgents]);
// the players that speak it with programs are kinds registered from
// package players ([RegisterKind]), so that this package starts no process
// and opens no socket.
//
// A match is a pure function of its [Setup]: game, config, seed, bots and
// their budgets. Bots draw randomness only from the source the match gives
// them, and budgets that must reproduce are counted in nodes, so the same
// setup gives the same [Replay] on every machine.
package match
