//go:build !js

package ui

import (
	"context"
	"encoding/json"

	"github.com/arena-playground/arena/engine/play"
)

// defaultHost computes matches on goroutines as o says: the desktop's
// host.
func defaultHost(o play.ServeOptions) Host { return localHost{o} }

// localHost computes each match on a goroutine of this process.
type localHost struct{ serve play.ServeOptions }

func (h localHost) Compute(st play.Start) Feed {
	ctx, cancel := context.WithCancel(context.Background())
	f := &localFeed{acts: make(chan play.Act, 1), cancel: cancel}
	go play.Serve(ctx, st, f.acts, f.send, h.serve)
	return f
}

// localFeed passes the messages through JSON, as the worker's do, so that
// the desktop follows the very path the page does.
type localFeed struct {
	Inbox
	acts   chan play.Act
	cancel context.CancelFunc
}

func (f *localFeed) send(m play.Message) {
	data, err := json.Marshal(m)
	if err != nil {
		f.PushError(err.Error())
		return
	}
	f.Push(data)
}

// Act hands the move to the waiting match; a move nobody waits for (the
// match was stopped) is dropped.
func (f *localFeed) Act(a play.Act) {
	select {
	case f.acts <- a:
	default:
	}
}

func (f *localFeed) Stop() {
	f.cancel()
	f.Close()
}
