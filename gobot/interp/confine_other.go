//go:build !linux && !js

package interp

import "errors"

// confine has no seccomp to ask outside Linux: the bot's tables (package
// gobot/symbols) are its only wall there, and the process caps of the
// platform (players) its bounds.
func confine() error { return errors.New("no Landlock or seccomp outside Linux") }
