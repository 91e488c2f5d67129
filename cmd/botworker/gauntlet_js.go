//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/arena-playground/arena/cmd/wasm/matchworker"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/jsbytes"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet/kept"
	"github.com/arena-playground/arena/tournament/progress"
)

// The gauntlet's worker (gauntlet.js): the gauntlet of a bot written in
// the page, with no server. It schedules the games as `arena tournament`
// does (tournament.Games), plays each in a match worker of its own
// (worker.js: the page's program, which starts the bot's worker), keeps
// each game in the browser's IndexedDB as it ends, and posts the
// standings to the page after each. The page ends a run by terminating
// this worker, which ends the match workers it started; what was kept
// stays, and the same gauntlet started again resumes from it.

// gauntletRequest is what the page asks of the worker: one of a run, the
// kept runs of a game's bot, or a kept run's report.
type gauntletRequest struct {
	Run     *runRequest `json:"run,omitempty"`
	History *runRequest `json:"history,omitempty"`
	Report  string      `json:"report,omitempty"` // a kept run's key
	Page    string      `json:"page,omitempty"`   // the page's address, for the report's links
}

type runRequest struct {
	Game   string `json:"game"`
	Spec   string `json:"spec"`
	Board  string `json:"board,omitempty"` // a preset's name; "" for the default
	Source string `json:"source"`
	Pairs  int    `json:"pairs"`
	Jobs   int    `json:"jobs"` // matches at once: the cores the page can spare
}

// The gauntlet's worker parses its plan's go: spec, and never plays it:
// the match workers do. Package players, which plays it elsewhere, is
// not in this program.
func init() {
	play.RegisterKind(play.Kind{Name: "go", Example: "go:bot.go", Description: "a bot written in Go, played by the match's worker",
		Needs: "the bot's name", New: func(match.Game, play.Spec, play.Hosting) (match.Bot, error) {
			return nil, errors.New("a bot written in Go is played by a match's worker, not the gauntlet's")
		}})
}

// inGauntlet reports whether this program runs as the gauntlet's worker:
// gauntlet.js defines arenaGauntletReady before it runs the program.
func inGauntlet() bool {
	return js.Global().Get("arenaGauntletReady").Type() == js.TypeFunction
}

// serveGauntlet takes the page's one request and answers it.
func serveGauntlet() {
	reqs := make(chan string, 1)
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			select {
			case reqs <- args[0].String():
			default:
			}
		}
		return nil
	})
	js.Global().Call("arenaGauntletReady", handle)
	var req gauntletRequest
	if err := json.Unmarshal([]byte(<-reqs), &req); err != nil {
		postStatus(progress.Status{Error: "the gauntlet's worker got a request it cannot read: " + err.Error()})
		return
	}
	switch {
	case req.Run != nil:
		runGauntlet(*req.Run)
	case req.History != nil:
		st := progress.Status{}
		st.Runs, st.Change = history(req.History.Game, req.History.Source, "")
		postStatus(st)
	case req.Report != "":
		report(req.Report, req.Page)
	}
}

func postStatus(st progress.Status) {
	data, err := json.Marshal(st)
	if err != nil {
		data, _ = json.Marshal(progress.Status{Error: err.Error()})
	}
	js.Global().Call("postMessage", string(data))
}

// runGauntlet plays what the kept run of the request lacks.
func runGauntlet(req runRequest) {
	fail := func(err error) { postStatus(progress.Status{Error: err.Error()}) }
	g, err := kept.ForSource(req.Game, req.Board, req.Spec, req.Source, req.Pairs)
	if err != nil {
		fail(err)
		return
	}
	run, err := keptRun(g.Key)
	if err != nil {
		fail(err)
		return
	}
	if run == nil {
		run = &kept.Run{Key: g.Key, Game: req.Game, Spec: req.Spec, Board: g.Plan.Board, Pairs: req.Pairs, Source: req.Source, Started: time.Now().UnixMilli()}
		if err := keepRun(*run); err != nil {
			fail(err)
			return
		}
	}
	forget(req.Game, g.Key)
	entries, err := keptEntries(g.Key)
	if err != nil {
		fail(err)
		return
	}
	s, done, skipped := g.Standings(entries)
	games := entries
	runs, change := history(req.Game, req.Source, g.Key)
	status := func(s *tournament.Standings) progress.Status {
		st := s.Progress(games, func(e tournament.Entry) string { return "gauntlet:" + g.Key + "/" + e.ID + ".json" })
		st.Resumed, st.Report = len(entries), "gauntlet:"+g.Key
		now := kept.Summary(*run, s, req.Source, !st.Done)
		if len(runs) > 0 && runs[0].Key == g.Key {
			st.Runs = append([]progress.Run{now}, runs[1:]...)
		} else { // the store could not be listed: this run alone
			st.Runs = []progress.Run{now}
		}
		st.Change = change
		return st
	}
	first := status(s)
	first.Error = skipped
	postStatus(first)
	playGame := func(ctx context.Context, game tournament.Game) (*play.Record, error) {
		setup, err := g.Plan.Setup(game)
		if err != nil {
			return nil, err
		}
		return playIn(ctx, setup, req.Source)
	}
	gs := tournament.Games{Plan: g.Plan, Jobs: max(1, req.Jobs), Play: playGame,
		Keep: func(e tournament.Entry, rec *play.Record) error { return keepGame(g.Key, e, rec) },
		Progress: func(e tournament.Entry, s *tournament.Standings, left int) {
			games = append(games, e)
			if left == 0 { // the status says done: its runs and change must be the finished run's
				runs, change = history(req.Game, req.Source, g.Key)
			}
			postStatus(status(s))
		}}
	final, err := gs.Run(context.Background(), s, done)
	runs, change = history(req.Game, req.Source, g.Key)
	st := status(final)
	if err != nil {
		st.Error, st.Done = err.Error(), false
	}
	postStatus(st)
}

// playIn plays the setup's match in a match worker, following its
// messages into a record.
func playIn(ctx context.Context, setup play.Setup, source string) (*play.Record, error) {
	st, err := play.NewStart(setup, nil)
	if err != nil {
		return nil, err
	}
	f, err := play.NewFollower(setup)
	if err != nil {
		return nil, err
	}
	req, err := json.Marshal(matchworker.Request{Request: play.Request{Start: &st}, Sources: map[string]string{strings.TrimPrefix(gauntletSpec(setup), "go:"): source}})
	if err != nil {
		return nil, err
	}
	// The callback must not block: the messages queue here, and a
	// goroutine of this function takes them.
	var (
		mu     sync.Mutex
		queue  [][]byte
		notify = make(chan struct{}, 1)
	)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		if data, ok := jsbytes.Bytes(args[0]); ok {
			mu.Lock()
			// A run of messages, a line each (matchworker's batcher).
			for line := range bytes.SplitSeq(data, []byte{'\n'}) {
				if len(line) > 0 {
					queue = append(queue, line)
				}
			}
			mu.Unlock()
			select {
			case notify <- struct{}{}:
			default:
			}
		}
		return nil
	})
	defer onMessage.Release()
	w := js.Global().Call("arenaStartMatch", string(req), onMessage)
	defer w.Call("terminate")
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-notify:
		}
		mu.Lock()
		got := queue
		queue = nil
		mu.Unlock()
		for _, data := range got {
			m, err := play.DecodeMessage(data)
			if err == nil {
				err = f.Add(m)
			}
			if err != nil {
				return nil, fmt.Errorf("the match's worker: %v", err)
			}
			if m.Kind == play.MsgEnd {
				return f.Record(), nil
			}
		}
	}
}

// gauntletSpec is the go: spec of the setup's players.
func gauntletSpec(setup play.Setup) string {
	for _, p := range setup.Players {
		if p.Name == "go" {
			return p.String()
		}
	}
	return ""
}

// history summarises the kept runs of a game's page bot, the latest
// first, and says how the latest finished one compares with the finished
// one before it. running is the key of the run playing now ("" for none):
// it is listed first, whatever its age.
func history(game, current, running string) ([]progress.Run, string) {
	metas, err := keptRuns(game)
	if err != nil {
		return nil, ""
	}
	sort.SliceStable(metas, func(i, j int) bool {
		if (metas[i].Key == running) != (metas[j].Key == running) {
			return metas[i].Key == running
		}
		return metas[i].Started > metas[j].Started
	})
	var runs []progress.Run
	var finished []*tournament.Standings
	for _, k := range metas {
		g, err := k.Gauntlet()
		if err != nil {
			continue
		}
		entries, err := keptEntries(k.Key)
		if err != nil {
			continue
		}
		s, _, _ := g.Standings(entries)
		runs = append(runs, kept.Summary(k, s, current, k.Key == running))
		if s.Played == s.Plan.Games() {
			finished = append(finished, s)
		}
	}
	if running != "" && (len(runs) == 0 || runs[0].Key != running) {
		runs = append([]progress.Run{{Key: running}}, runs...)
	}
	return runs, kept.LatestChange(finished)
}

// report posts a kept run's report: the page downloads it.
func report(key, page string) {
	fail := func(err error) { js.Global().Call("postMessage", js.ValueOf(map[string]any{"error": err.Error()})) }
	k, err := keptRun(key)
	if err == nil && k == nil {
		err = fmt.Errorf("no kept gauntlet %s", key)
	}
	if err != nil {
		fail(err)
		return
	}
	g, err := k.Gauntlet()
	if err != nil {
		fail(err)
		return
	}
	entries, err := keptEntries(key)
	if err != nil {
		fail(err)
		return
	}
	s, _, _ := g.Standings(entries)
	base, _ := url.Parse(page)
	if base == nil {
		base = &url.URL{}
	}
	var b bytes.Buffer
	err = tournament.WriteReportOf(&b, s, func(f func(tournament.Entry) error) error {
		for _, e := range entries {
			if err := f(e); err != nil {
				return err
			}
		}
		return nil
	}, func(e tournament.Entry) (string, string) {
		link := *base
		link.RawQuery = url.Values{"replay": {"gauntlet:" + key + "/" + e.ID + ".json"}}.Encode()
		return link.String(), ""
	})
	if err != nil {
		fail(err)
		return
	}
	js.Global().Call("postMessage", js.ValueOf(map[string]any{"report": b.String(), "name": "gauntlet-" + key + ".html"}))
}
