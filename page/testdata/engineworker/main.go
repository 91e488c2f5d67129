//go:build js && wasm

// Command engineworker is the page's match worker as it was before the
// page's program served as its own worker: an engine-only build, kept
// as the reference of BenchmarkWorkerMatch.
package main

import (
	"github.com/arena-playground/arena/cmd/wasm/matchworker"
	_ "github.com/arena-playground/arena/engine/games"
	_ "github.com/arena-playground/arena/players" // the kinds of player that are programs
)

func main() { matchworker.Serve() }
