//go:build unix && !linux && !darwin

package box

// seatbelt is macOS's: the BSDs have no Seatbelt.
func seatbelt(*plan, Profile) {}

// Contain says what the BSDs give here: a watched process group.
func Contain() Containment {
	return Containment{Weaker: "programs run in process groups and directories of their own, as arena's user, with no namespace, Landlock or profile: an entrant may read and write what arena's user may"}
}
