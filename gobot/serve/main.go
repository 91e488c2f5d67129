package serve

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// BotPackage is the import path a compiled bot's file is built in (see
// gobot/build): its functions' names start with it.
const BotPackage = "arenabot/bot"

// maxStack bounds a compiled bot's goroutine's stack as the interpreter
// bounds its own: a recursion without end is a stack overflow at 64 MB,
// said as such, before it is an allocation past the memory cap.
const maxStack = 64 << 20

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

// compiledWhere, called as a panic is recovered, names the bot's
// innermost function on the panicking stack and its line in the bot's
// file ("bot.Act, line 12"): a compiled bot knows the statement, where
// the interpreter knows only the function's body.
func compiledWhere() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, BotPackage+".") {
			return fmt.Sprintf("bot.%s, line %d", strings.TrimPrefix(f.Function, BotPackage+"."), f.Line)
		}
		if !more {
			return ""
		}
	}
}
