// Package cleanup undoes what a process would leave behind if a signal
// ended it: temporary files and directories half written, and the
// process groups of the programs it started (which Ctrl-C does not
// reach: each program leads a group of its own). Code that makes such a
// thing registers its undoing with Add and removes it once done; a
// command's main calls OnSignals.
package cleanup

import "sync"

var (
	mu    sync.Mutex
	next  int
	undos = map[int]func(){}
)

// Add registers f to run if a signal ends the process. The returned
// function unregisters it (without running it); call it once what f
// undoes is gone or kept for good.
func Add(f func()) (done func()) {
	mu.Lock()
	defer mu.Unlock()
	id := next
	next++
	undos[id] = f
	return func() {
		mu.Lock()
		defer mu.Unlock()
		delete(undos, id)
	}
}

// Pending returns how many undoings are registered, for tests.
func Pending() int {
	mu.Lock()
	defer mu.Unlock()
	return len(undos)
}

// Run runs and unregisters every undoing.
func Run() {
	mu.Lock()
	fs := undos
	undos = map[int]func(){}
	mu.Unlock()
	for _, f := range fs {
		f()
	}
}
