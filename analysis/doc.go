// Package analysis turns the game analysers' values into what a student
// reads: the expected points a position is worth to the mover (Scale),
// a game's report (each decision's expected points lost against the best
// option, its label, and each side's accuracy), and the figures those
// rest on, fitted from arena's own games.
//
// A value in a game's unit (cells, points, a walk's cost) means nothing
// across games; expected points do: 1 a win, ½ a draw, 0 a loss. Where
// the analysis proves the result (a search that saw every end) the
// expected points are that result; elsewhere they are a logistic map of
// the value, fitted per game (Fit) from games between arena's bots.
package analysis
