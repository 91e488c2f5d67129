//go:build js && wasm

package main

import (
	"io"

	"github.com/arena-playground/arena/gobot/interp"
	"github.com/arena-playground/arena/gobot/serve"
)

// main serves the gauntlet's worker where gauntlet.js runs it (see
// serveGauntlet); in a bot's worker, it serves the lines the match's
// worker posts (gobot.Request) with interp.Serve, posting each reply back
// (serve.Worker); the bot's prints go in the replies, as a worker has no
// standard error a person reads.
func main() {
	if inGauntlet() {
		serveGauntlet()
		return
	}
	serve.Worker(func(r io.Reader, w io.Writer) { interp.Serve(r, w, nil) })
}
