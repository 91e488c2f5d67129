package match

import (
	"context"
	"errors"
	"time"
)

// runOnce is the program runner that package players registers; a build
// without it (the page) runs no program.
var runOnce func(ctx context.Context, command, dir string, limit time.Duration) error

// RegisterRunOnce sets the runner behind RunOnce. Package players calls it
// from its init function, so that the match loop's package starts no
// process itself.
func RegisterRunOnce(f func(ctx context.Context, command, dir string, limit time.Duration) error) {
	runOnce = f
}

// RunOnce runs the program of a "cmd:" spec once, in dir, for at most
// limit, and says why when it fails: the time limit, the exit status and
// the last line it wrote. Games whose courses ran programs once per move
// on files ([Commander]: map colouring) call it each move.
func RunOnce(ctx context.Context, command, dir string, limit time.Duration) error {
	if runOnce == nil {
		return errors.New("this build of arena runs no programs (package players is not in it)")
	}
	return runOnce(ctx, command, dir, limit)
}
