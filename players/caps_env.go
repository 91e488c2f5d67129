//go:build !js

package players

// capsEnv carries a program's caps to the launcher on Unix (Windows gives
// a program's caps to its job instead): arena's own binary,
// started in the program's place, sets them on itself and then becomes
// the program (exec), so that the program runs under its caps from its
// first instruction. Setting them from outside once it runs (prlimit)
// would leave it a moment to fork children that have none.
const capsEnv = "ARENA_PLAYER_CAPS"
