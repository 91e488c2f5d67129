//go:build !js

package serve

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Main serves the bot compiled into this program on the standard input
// and output, and exits when the match ends the
// input. The program gobot/build makes for a go: file calls it from its
// main. What the bot prints (fmt.Println writes to os.Stdout) goes to the
// standard error, where arena reads it as it reads an interpreted bot's:
// the standard output carries the replies alone.
func Main(act Act) {
	replies := os.Stdout
	os.Stdout = os.Stderr
	debug.SetMaxStack(maxStack)
	bot := Bot{Act: act, Where: compiledWhere}
	err := Serve(os.Stdin, replies, os.Stderr, func(string, string, io.Writer) (Bot, error) { return bot, nil })
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena: the bot's process:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
