//go:build js && wasm

// Package matchworker is the program in a page's match worker: away from
// the thread that draws (Go's WebAssembly has one thread, and a bot that
// thinks on the page's would take its frames), it serves one match's
// requests. The page's own program runs it when worker.js starts it as a
// worker (cmd/wasm), and so does the engine-only build kept as
// BenchmarkWorkerMatch's reference (page/testdata/engineworker).
package matchworker

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"syscall/js"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/jsbytes"
)

// memoryLimit is the heap size past which the garbage collector works
// harder rather than letting the heap double, in a match's worker. A
// WebAssembly program never gives memory back to the browser, so its
// peak is what it holds: the worker needs the latest state and a few
// snapshots (Serve keeps 16 MB of states), and shares its process with
// the page.
const memoryLimit = 256 << 20

// Request is a play.Request with the sources of the match's go:
// players, which the page's editor holds: what the page posts to a
// match's worker, as a JSON string.
type Request struct {
	play.Request
	Sources map[string]string `json:"sources,omitempty"`
}

// Serve waits for the page's requests: the first start computes its
// match, streaming its messages back as lines of JSON in Uint8Arrays, a
// run of them at a time (batcher); acts are a person's moves.
// It never returns.
func Serve() {
	debug.SetMemoryLimit(memoryLimit)
	acts := make(chan play.Act, 1)
	started := false
	b := newBatcher(jsbytes.Post)
	post := func(m play.Message) {
		data, err := json.Marshal(m)
		if err != nil {
			m = play.Message{Kind: play.MsgError, Error: err.Error()}
			data, _ = json.Marshal(m)
		}
		b.add(m, data)
	}
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var req Request
		if len(args) == 0 || args[0].Type() != js.TypeString || json.Unmarshal([]byte(args[0].String()), &req) != nil {
			post(play.Message{Kind: play.MsgError, Error: "the worker got a request it cannot read"})
			return nil
		}
		switch {
		case req.Start != nil && !started:
			started = true
			for name, src := range req.Sources {
				gobot.Provide(name, src)
			}
			go play.Serve(context.Background(), *req.Start, acts, post, play.ServeOptions{})
		case req.Act != nil:
			select {
			case acts <- *req.Act:
			default: // nobody is waiting for a move
			}
		}
		return nil
	})
	js.Global().Call("arenaWorkerReady", handle)
	select {}
}
