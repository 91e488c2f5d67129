// Package play runs matches of the games that package engine/match
// describes: a player's [Spec] and the [Kind]s of players outside arena
// (registered by package players), how this machine hosts programs
// ([Hosting]), the [Runner] that plays simultaneous and alternating
// turns, the [Record] of a match and its [Replay], [Series] of games, and
// the wire a page's worker and the desktop's match loop speak ([Serve],
// [Follower], [Message]).
//
// The runner never looks inside a state or an action: it asks the sides
// to move, asks each side's bot for an action within its budget and
// clock, checks it and applies the actions until the game is over. A bot
// that panics, overruns its clock or answers nonsense loses the game (or,
// where the game's rules say so, has its move replaced: a game that is a
// [Substituter]); the reason is kept in the [Result].
//
// A match is a pure function of its [Setup]: game, config, seed, players
// and their budgets, so the same setup gives the same replay on every
// machine.
package play
