//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet/kept"
)

// What the browser keeps of the page's gauntlets, in IndexedDB through
// gauntlet.js's arenaKeep: "runs" (a kept.Run a run, by its key),
// "entries" (a journal entry a game, by KEY/INDEX) and "replays" (a
// game's replay, by KEY/ID.json, as the statuses name them). A game's
// entry and replay are written in one transaction: a run stopped while
// it writes has both or neither.

// keep calls arenaKeep and waits for its promise.
func keep(args ...any) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any {
		v := js.Undefined()
		if len(a) > 0 {
			v = a[0]
		}
		done <- result{v: v}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, a []js.Value) any {
		why := "the browser's storage failed"
		if len(a) > 0 && a[0].Type() == js.TypeObject && a[0].Get("message").Type() == js.TypeString {
			why += ": " + a[0].Get("message").String()
		}
		done <- result{err: errors.New(why)}
		return nil
	})
	defer catch.Release()
	js.Global().Call("arenaKeep", args...).Call("then", then, catch)
	r := <-done
	return r.v, r.err
}

// strings reads the array of strings a list returns.
func stringsOf(v js.Value) []string {
	if v.Type() != js.TypeObject {
		return nil
	}
	out := make([]string, v.Length())
	for i := range out {
		out[i] = v.Index(i).String()
	}
	return out
}

// keptRun is the kept run of a key, or nil.
func keptRun(key string) (*kept.Run, error) {
	v, err := keep("get", "runs", key)
	if err != nil || v.Type() != js.TypeString {
		return nil, err
	}
	var k kept.Run
	if err := json.Unmarshal([]byte(v.String()), &k); err != nil {
		return nil, fmt.Errorf("the kept gauntlet %s cannot be read: %v", key, err)
	}
	return &k, nil
}

func keepRun(k kept.Run) error {
	data, err := json.Marshal(k)
	if err != nil {
		return err
	}
	_, err = keep("put", "runs", k.Key, string(data))
	return err
}

// keptRuns are the kept runs of a game's page bot.
func keptRuns(game string) ([]kept.Run, error) {
	v, err := keep("list", "runs", game+"-"+kept.BotName+"-")
	if err != nil {
		return nil, err
	}
	var out []kept.Run
	for _, s := range stringsOf(v) {
		var k kept.Run
		if json.Unmarshal([]byte(s), &k) == nil && k.Game == game {
			out = append(out, k)
		}
	}
	return out, nil
}

// keptEntries are a run's games, in the order of the schedule.
func keptEntries(key string) ([]tournament.Entry, error) {
	v, err := keep("list", "entries", key+"/")
	if err != nil {
		return nil, err
	}
	var out []tournament.Entry
	for _, s := range stringsOf(v) {
		var e tournament.Entry
		if json.Unmarshal([]byte(s), &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// keepGame keeps a game played: its replay and its entry, together.
func keepGame(key string, e tournament.Entry, rec *play.Record) error {
	rp, err := rec.Replay()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := rp.WriteTo(&b); err != nil {
		return err
	}
	entry, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = keep("game", fmt.Sprintf("%s/%06d", key, e.Index), string(entry), key+"/"+e.ID+".json", b.String())
	return err
}

// forget drops the oldest kept runs of a game beyond kept.Runs,
// never the run of key.
func forget(game, key string) {
	runs, err := keptRuns(game)
	if err != nil || len(runs) <= kept.Runs {
		return
	}
	for len(runs) > kept.Runs {
		oldest := -1
		for i, k := range runs {
			if k.Key != key && (oldest < 0 || k.Started < runs[oldest].Started) {
				oldest = i
			}
		}
		if oldest < 0 {
			return
		}
		keep("drop", runs[oldest].Key)
		runs = append(runs[:oldest], runs[oldest+1:]...)
	}
}
