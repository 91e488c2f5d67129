//go:build !js

package interp

import (
	"fmt"
	"os"

	"github.com/arena-playground/arena/players"
)

// A binary that imports this package plays go: bots (players' go: kind)
// and is their interpreter: started with players.GoBotEnv=1, it serves a
// match's lines on its standard input and output, and exits, before its
// main runs. Under caps, the launcher (players' init, which runs first)
// starts it again capped, and it serves then.
func init() {
	players.RegisterGoInterpreter(Check)
	if os.Getenv(players.GoBotEnv) != "1" || os.Getenv(players.CapsEnv) != "" {
		return
	}
	os.Unsetenv(players.GoBotEnv)
	if !noSeccomp {
		confine() // whether the kernel has seccomp is players.Contain's to say
	}
	if err := Serve(os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena: the bot's interpreter:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
