//go:build js

package ui

import (
	"encoding/json"

	"github.com/arena-playground/arena/engine/match"
)

// defaultHost in the browser computes nothing: the page passes its
// worker host (Options.Host), so that the page's build carries no match
// loop and no bot runs on its thread.
func defaultHost() Host { return noHost{} }

type noHost struct{}

func (noHost) Compute(match.Start) Feed { return noFeed{} }

type noFeed struct{}

func (noFeed) Poll() [][]byte {
	data, _ := json.Marshal(match.Message{Kind: match.MsgError, Error: "this page has no worker to compute matches"})
	return [][]byte{data}
}
func (noFeed) Act(match.Act) {}
func (noFeed) Stop()         {}
