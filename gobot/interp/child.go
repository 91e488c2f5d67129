//go:build !js

package interp

import (
	"fmt"
	"os"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/players"
)

// A binary that imports this package plays go: bots (players' go: kind)
// and is their interpreter: started in its box with players.GoBotEnv=1,
// it serves a match's lines on its standard input and output, and exits,
// before its main runs. Package box's launcher (whose init runs first)
// has made the box; the interpreter then refuses itself the files,
// programs and sockets it never needs (box.ConfineInterpreter).
func init() {
	players.RegisterGoInterpreter(Check)
	if os.Getenv(players.GoBotEnv) != "1" {
		return
	}
	os.Unsetenv(players.GoBotEnv)
	if !noSeccomp {
		box.ConfineInterpreter() // whether the kernel has seccomp is box.Contain's to say
	}
	if err := Serve(os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena: the bot's interpreter:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
