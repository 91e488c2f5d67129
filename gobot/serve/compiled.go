package serve

import (
	"fmt"
	"runtime"
	"strings"
)

// BotPackage is the import path a compiled bot's file is built in (see
// gobot/build): its functions' names start with it.
const BotPackage = "arenabot/bot"

// maxStack bounds a compiled bot's goroutine's stack as the interpreter
// bounds its own: a recursion without end is a stack overflow at 64 MB,
// said as such, before it is an allocation past the memory cap.
const maxStack = 64 << 20

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
