//go:build !linux && !js

package box

import (
	"fmt"
	"io"
)

// TryAttacks says what this system's box is: the attacks arena box
// check tries are Linux's (namespaces, Landlock, seccomp, cgroups); on
// this system the box's tests run the portable path's.
func TryAttacks(out io.Writer) (int, error) {
	fmt.Fprintf(out, "this machine: %s\n", Contain())
	fmt.Fprintln(out, "arena box check tries its attacks on Linux only: on this system, see docs/limits.md for what holds")
	return 0, nil
}
