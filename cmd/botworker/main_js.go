//go:build js && wasm

package main

import (
	"io"
	"syscall/js"

	"github.com/arena-playground/arena/gobot/interp"
)

// main serves the gauntlet's worker where gauntlet.js runs it (see
// serveGauntlet); in a bot's worker, it serves the lines the match's worker posts (gobot.Request) with
// interp.Serve, posting each reply back; the bot's prints go in the
// replies, as a worker has no standard error a person reads.
func main() {
	if inGauntlet() {
		serveGauntlet()
		return
	}
	in, feed := io.Pipe()
	out := lineWriter{}
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
	interp.Serve(in, out, nil)
}

// lineWriter posts each line the interpreter writes to the match's worker.
type lineWriter struct{}

func (lineWriter) Write(b []byte) (int, error) {
	js.Global().Call("postMessage", string(b[:len(b)-1]))
	return len(b), nil
}
