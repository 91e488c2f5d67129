//go:build !js

package interp

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/gobot"
)

// A binary that imports this package is the go: bots' interpreter
// (players/gointerp makes it play them too): started in its box with
// gobot.InterpreterEnv=1,
// it serves a match's lines on its standard input and output, and exits,
// before its main runs. Package box's launcher (whose init runs first)
// has made the box; the interpreter then refuses itself the files,
// programs and sockets it never needs (box.ConfineInterpreter).
// maxStack bounds a bot's goroutine's stack: an interpreted frame takes a
// few kilobytes, so a search tens of thousands of calls deep still fits.
const maxStack = 64 << 20

func init() {
	if os.Getenv(gobot.InterpreterEnv) != "1" {
		return
	}
	os.Unsetenv(gobot.InterpreterEnv)
	// A recursion without end is a stack overflow at 64 MB, said as
	// such, before it is an allocation past the memory cap (the runtime's
	// own limit, 1 GB, would be).
	debug.SetMaxStack(maxStack)
	if !noSeccomp {
		box.ConfineInterpreter() // whether the kernel has seccomp is box.Contain's to say
	}
	if err := Serve(os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena: the bot's interpreter:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
