package main

import (
	"fmt"
	"syscall/js"
)

// drawn tells the page a frame was drawn: the first one lifts the
// loading screen (as arena.wasm does), and arenaTest.status() counts
// them, as the page benchmark waits for frames by that count.
func drawn(n int) {
	if n == 1 {
		js.Global().Set("arenaTest", js.ValueOf(map[string]any{}))
		js.Global().Get("arenaTest").Set("status", js.FuncOf(func(js.Value, []js.Value) any {
			return fmt.Sprintf(`{"draws":%d}`, count)
		}))
		js.Global().Call("arenaLoaded")
	}
	count = n
}

var count int
