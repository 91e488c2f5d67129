//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall/js"

	"github.com/arena-playground/arena/tournament/progress"
	"github.com/arena-playground/arena/ui"
)

// pageGauntlets are the page's gauntlets: the bot written in the page is
// rated in the browser (index.html's arenaStartPageGauntlet: a worker
// plays its games in the page's own workers and keeps them, no server);
// a program the server offers is rated by the server (serverGauntlets),
// where one is.
type pageGauntlets struct {
	server ui.Gauntlets // nil on a static host
}

// keptPrefix starts the refs of what the browser keeps: a kept game's
// replay (gauntlet:KEY/ID.json) or a kept run's report (gauntlet:KEY).
const keptPrefix = "gauntlet:"

func (g pageGauntlets) Run(game, program, board string, pairs int) ui.GauntletFeed {
	if program != ui.PageBot {
		if g.server == nil {
			return failedFeed("this page is static: it rates only the bot written in it")
		}
		return g.server.Run(game, program, board, pairs)
	}
	jobs := js.Global().Get("navigator").Get("hardwareConcurrency")
	n := 1
	if jobs.Type() == js.TypeNumber {
		n = min(8, max(1, jobs.Int()-1)) // the page keeps a core to draw
	}
	return browserGauntlet(map[string]any{"run": map[string]any{"game": game, "spec": ui.PageBot,
		"board": board, "source": pageEditor{}.Source(game), "pairs": pairs, "jobs": n}})
}

// History is the kept runs of the page's bot for a game.
func (g pageGauntlets) History(game, program string) ui.GauntletFeed {
	if program != ui.PageBot {
		return nil
	}
	return browserGauntlet(map[string]any{"history": map[string]any{"game": game, "spec": ui.PageBot,
		"source": pageEditor{}.Source(game)}})
}

func (g pageGauntlets) Open(ref string, got func(string, []byte, error)) {
	if !strings.HasPrefix(ref, keptPrefix) {
		if g.server == nil {
			got(ref, nil, errors.New("this page is static: it has no server's games"))
			return
		}
		g.server.Open(ref, got)
		return
	}
	keptReplay(ref, func(data []byte, err error) { got(ref, data, err) })
}

func (g pageGauntlets) Report(ref string) (string, error) {
	if !strings.HasPrefix(ref, keptPrefix) {
		if g.server == nil {
			return "", errors.New("this page is static: it has no server's reports")
		}
		return g.server.Report(ref)
	}
	var done js.Func
	done = js.FuncOf(func(js.Value, []js.Value) any { done.Release(); return nil })
	js.Global().Call("arenaGauntletReport", strings.TrimPrefix(ref, keptPrefix), done)
	return "writing the gauntlet's report…", nil
}

// keptReplay reads a kept game's replay from the browser's store.
func keptReplay(ref string, got func([]byte, error)) {
	var cb js.Func
	cb = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer cb.Release()
		if len(args) > 0 && args[0].Type() == js.TypeString {
			got([]byte(args[0].String()), nil)
			return nil
		}
		why := ref + ": not kept"
		if len(args) > 1 && args[1].Type() == js.TypeString {
			why = args[1].String()
		}
		got(nil, errors.New(why))
		return nil
	})
	js.Global().Call("arenaGauntletReplay", ref, cb)
}

// browserGauntlet starts the gauntlet's worker with a request; its
// statuses come as a feed.
func browserGauntlet(req map[string]any) ui.GauntletFeed {
	data, err := json.Marshal(req)
	if err != nil {
		return failedFeed(err.Error())
	}
	return startGauntlet("arenaStartPageGauntlet", string(data))
}

// failedFeed is a feed whose one status says why it cannot run.
func failedFeed(why string) ui.GauntletFeed {
	f := &gauntletFeed{got: []progress.Status{{Error: why}}}
	f.onMessage = js.FuncOf(func(js.Value, []js.Value) any { return nil })
	return f
}
