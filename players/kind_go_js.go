//go:build js

package players

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// In the page a go: bot is interpreted in a Web Worker of its own, which
// the match's worker starts (worker.js's arenaBotOpen) with the page's
// bot worker program (cmd/botworker). Its source is the one the page
// provided for the spec's name (gobot.Provide): the page has no files.
func newGoBot(g match.Game, spec play.Spec, _ play.Hosting) (match.Bot, error) {
	src, err := providedSource(spec)
	if err != nil {
		return nil, err
	}
	return &pageBot{proto: gobot.NewProtocol(g, spec.Command, src)}, nil
}

// checkGoBot finds the bot's source among those the page provided.
func checkGoBot(_ match.Game, spec play.Spec, _ play.Hosting) error {
	_, err := providedSource(spec)
	return err
}

// providedSource is the source the page provided for a go: spec's name.
func providedSource(spec play.Spec) (string, error) {
	src, ok := gobot.Provided(spec.Command)
	if !ok {
		return "", fmt.Errorf("go:%s: this page has no bot of that name; write one with the start view's Write a bot…", spec.Command)
	}
	return src, nil
}

// pageBot is a bot interpreted in a worker of its own. A worker that does
// not answer within the clock is terminated: that move costs what a late
// move costs, and the next move starts another worker, which rebuilds the
// match from its opening.
type pageBot struct {
	proto  *gobot.Protocol
	worker js.Value // arenaBotOpen's handle: send(line), kill()
	onLine js.Func
	lines  chan string
	ended  chan struct{} // closed when the worker stops answering for good
	why    string        // why it ended
	once   *sync.Once
	id     int
	live   bool
}

// grace is what a reply may take beyond the clock on its way between
// the workers.
const grace = 250 * time.Millisecond

func (b *pageBot) Begin(st play.Start, side match.Side) error {
	b.proto.Begin(st, side)
	return b.open()
}

func (b *pageBot) Moved(acts [2]match.Action) { b.proto.Moved(acts) }

func (b *pageBot) Timed() bool { return true }

// open starts a worker and waits for it to have begun the match.
func (b *pageBot) open() error {
	open := js.Global().Get("arenaBotOpen")
	if open.Type() != js.TypeFunction {
		return errors.New("this page cannot run bots written in Go: it has no bot worker")
	}
	lines, ended, once := make(chan string, 16), make(chan struct{}), new(sync.Once)
	b.lines, b.ended, b.once = lines, ended, once
	b.onLine = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			select {
			case lines <- args[0].String():
			default: // more replies than requests: not this bot's
			}
			return nil
		}
		why := "the bot's worker ended"
		if len(args) > 1 && args[1].Type() == js.TypeString {
			why = args[1].String()
		}
		once.Do(func() { b.why = why; close(ended) })
		return nil
	})
	b.worker, b.live = open.Invoke(b.onLine), true
	b.send(b.proto.Opening())
	line, err := b.next(context.Background(), gobot.OpenLimit)
	if err != nil {
		b.Close()
		return err
	}
	if err := b.proto.Opened([]byte(line)); err != nil {
		b.Close()
		return err
	}
	return nil
}

func (b *pageBot) send(line []byte) {
	b.worker.Call("send", string(line[:len(line)-1]))
}

// next waits for the worker's next line.
func (b *pageBot) next(ctx context.Context, wait time.Duration) (string, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case line := <-b.lines:
		return line, nil
	case <-b.ended:
		return "", errors.New(b.why)
	case <-timer.C:
		return "", fmt.Errorf("the bot did not answer within %s", wait.Round(time.Millisecond))
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (b *pageBot) Act(t *match.Turn) (match.Action, error) {
	if !b.live {
		b.proto.Restart()
		if err := b.open(); err != nil {
			return nil, fmt.Errorf("the bot's worker could not start again: %v", err)
		}
	}
	limit := t.Clock
	if limit == 0 {
		limit = gobot.DefaultLimit
	}
	b.id++
	b.send(b.proto.Request(t.State, t.Side, b.id, t.Clock))
	for {
		line, err := b.next(t.Context(), limit+grace)
		if err != nil {
			b.Close()
			if t.Context().Err() == nil && !isEnded(b) {
				err = fmt.Errorf("the bot did not answer within %s at turn %d and its worker was stopped", limit, t.State.Turn())
			}
			return nil, err
		}
		a, id, err := b.proto.Reply([]byte(line))
		if id != b.id {
			continue // an answer to an earlier request
		}
		if note, said := b.proto.Note(); note != nil || said != nil {
			if note != nil {
				t.Note = *note
			}
			t.Note.Said = said
		}
		return a, err
	}
}

// isEnded reports whether the worker ended by itself (out of memory).
func isEnded(b *pageBot) bool {
	select {
	case <-b.ended:
		return true
	default:
		return false
	}
}

// Close terminates the worker.
func (b *pageBot) Close() error {
	if !b.live {
		return nil
	}
	b.live = false
	b.worker.Call("kill")
	b.onLine.Release()
	return nil
}
