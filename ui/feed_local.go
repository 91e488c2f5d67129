//go:build !js

package ui

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/arena-playground/arena/engine/match"
)

// defaultHost computes matches on goroutines: the desktop's host.
func defaultHost() Host { return localHost{} }

// localHost computes each match on a goroutine of this process.
type localHost struct{}

func (localHost) Compute(st match.Start) Feed {
	ctx, cancel := context.WithCancel(context.Background())
	f := &localFeed{acts: make(chan match.Act, 1), cancel: cancel}
	go match.Serve(ctx, st, f.acts, f.send)
	return f
}

// localFeed passes the messages through JSON, as the worker's do, so that
// the desktop follows the very path the page does.
type localFeed struct {
	acts   chan match.Act
	cancel context.CancelFunc
	mu     sync.Mutex
	msgs   [][]byte
	done   bool
}

func (f *localFeed) send(m match.Message) {
	data, err := json.Marshal(m)
	if err != nil {
		data, _ = json.Marshal(match.Message{Kind: match.MsgError, Error: err.Error()})
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.done {
		f.msgs = append(f.msgs, data)
	}
}

func (f *localFeed) Poll() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.msgs
	f.msgs = nil
	return m
}

// Act hands the move to the waiting match; a move nobody waits for (the
// match was stopped) is dropped.
func (f *localFeed) Act(a match.Act) {
	select {
	case f.acts <- a:
	default:
	}
}

func (f *localFeed) Stop() {
	f.cancel()
	f.mu.Lock()
	f.done, f.msgs = true, nil
	f.mu.Unlock()
}
