//go:build js

package box

// Contain says what the browser gives: no program runs there at all.
func Contain() Containment {
	return Containment{Weaker: "no program runs in the browser"}
}
