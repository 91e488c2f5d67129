//go:build arena_widened_tables

package interp

import (
	"os"
	"reflect"

	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unrestricted"

	"github.com/arena-playground/arena/gobot"
)

// A build with the tag arena_widened_tables hands bots os, os/exec and net
// besides the bot API, as a mistake in the review would: only the test
// that shows the kernel refusing what such tables would allow builds it
// (cmd/arena's TestKernelRefusesWhatTablesLeak). It is a variable's
// initialisation, not an init function, so that it is done before the
// child's init (child.go) serves.
var _ = widen()

func widen() bool {
	widened = map[string]map[string]reflect.Value{
		"os/os":           stdlib.Symbols["os/os"],
		"net/net":         stdlib.Symbols["net/net"],
		"os/exec/exec":    unrestricted.Symbols["os/exec/exec"],
		"io/fs/fs":        stdlib.Symbols["io/fs/fs"],
		"time/time":       stdlib.Symbols["time/time"],
		"syscall/syscall": stdlib.Symbols["syscall/syscall"],
	}
	gobot.Imports = append(gobot.Imports, "os", "os/exec", "net")
	// The test shows each wall alone: Landlock without the filter.
	noSeccomp = os.Getenv("ARENA_TEST_NO_SECCOMP") == "1"
	return true
}
