//go:build js && wasm

package serve

import (
	"io"
	"runtime/debug"
	"syscall/js"
)

// Main serves the bot compiled into this program in the page's bot
// worker (botworker.js), as the interpreter's worker does (Worker); what
// the bot prints (to the worker's standard output, which botworker.js
// keeps) goes in the replies.
func Main(act Act) {
	debug.SetMaxStack(maxStack)
	printed := func() string {
		if f := js.Global().Get("arenaTakePrints"); f.Type() == js.TypeFunction {
			return f.Invoke().String()
		}
		return ""
	}
	bot := Bot{Act: act, Where: compiledWhere, Printed: printed}
	Worker(func(r io.Reader, w io.Writer) {
		Serve(r, w, nil, func(string, string, io.Writer) (Bot, error) { return bot, nil })
	})
}

// Worker runs serve on the lines the match's worker posts to this bot
// worker (through arenaBotReady's handle), posting each line serve
// writes back to it.
func Worker(serve func(r io.Reader, w io.Writer)) {
	in, feed := io.Pipe()
	lines := make(chan string, 64)
	go func() {
		for l := range lines {
			feed.Write([]byte(l + "\n"))
		}
	}()
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			lines <- args[0].String()
		}
		return nil
	})
	js.Global().Call("arenaBotReady", handle)
	serve(in, lineWriter{})
}

// lineWriter posts each line written to the match's worker.
type lineWriter struct{}

func (lineWriter) Write(b []byte) (int, error) {
	js.Global().Call("postMessage", string(b[:len(b)-1]))
	return len(b), nil
}
