//go:build js

package ui

import (
	"github.com/arena-playground/arena/engine/play"
)

// defaultHost in the browser computes nothing: the page passes its
// worker host (Options.Host), so that the page's build carries no match
// loop and no bot runs on its thread.
func defaultHost(play.ServeOptions) Host { return noHost{} }

type noHost struct{}

func (noHost) Compute(play.Start) Feed {
	f := &noFeed{}
	f.PushError("this page has no worker to compute matches")
	return f
}

type noFeed struct{ Inbox }

func (*noFeed) Act(play.Act) {}
func (f *noFeed) Stop()      { f.Close() }
