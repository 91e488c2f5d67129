//go:build !(js && wasm)

// Command worker computes the page's matches in a Web Worker, away from
// the thread that draws: Go's WebAssembly has one thread, and a bot that
// thinks on the page's would take its frames. It is an engine-only build
// (the engine packages, no Ebitengine, no drawing), loaded by worker.js;
// it reads a match.Request, runs match.Serve and posts each match.Message
// back as JSON. `go run ./cmd/wasm` builds it beside the page's program.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "worker runs in the browser: go run ./cmd/wasm builds it for js/wasm and serves it")
	os.Exit(2)
}
