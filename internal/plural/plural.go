// Package plural writes a count with its noun, which agrees with it:
// "1 game", "2 games", "1 round" (not "1 games" or "(1 rounds)").
package plural

import "strconv"

// Of is n with one (its singular) or many (its plural).
func Of(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

// S is n with noun, made plural by an s where n is not 1.
func S(n int, noun string) string { return Of(n, noun, noun+"s") }
