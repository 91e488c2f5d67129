//go:build !(js && wasm)

// Command botworker interprets a bot written in Go in the page (see
// package gobot), in a Web Worker of its own, started by the match's
// worker when the match has a go: player. It carries the interpreter,
// which the page's first load does not: `go run ./cmd/wasm` builds it
// beside the page's programs as gobot.wasm, and the page fetches it when
// the editor opens. A bot that loops for ever or runs out of memory takes
// only this worker down, which the match's worker then ends.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "botworker runs in the browser: go run ./cmd/wasm builds it for js/wasm and serves it")
	os.Exit(2)
}
