//go:build !linux

package players

// Contain says what this system gives to keep programs apart: outside
// Linux, process groups (or Windows' job objects) and no more.
func Contain() Containment {
	return Containment{Weaker: "programs run in process groups only, with no namespace of their own: an entrant may see and signal the others"}
}
