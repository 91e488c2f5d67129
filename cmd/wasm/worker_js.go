//go:build js && wasm

package main

import "syscall/js"

// inWorker reports whether the program runs as a match's worker: the
// page's program is also the workers' (one module, compiled once and
// posted to each worker), and worker.js says so by defining
// arenaWorkerReady before it runs the program, which then serves
// matches (matchworker.Serve) instead of drawing.
func inWorker() bool {
	return js.Global().Get("arenaWorkerReady").Type() == js.TypeFunction
}
