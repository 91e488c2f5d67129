package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/arena-playground/arena/engine/match"
)

// runBot serves one of arena's bots over the game's line protocol on
// standard input and output, so that it can play in another host (the
// course's simulator, through its bridge).
func runBot(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bot", stdout)
	name := fs.String("game", "", "the game")
	spec := fs.String("bot", "strong", "the bot spec to serve")
	seed := fs.Uint64("seed", 1, "the seed of the bot's random source")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*name)
	if err != nil {
		return err
	}
	proto, ok := g.(match.Protocol)
	if !ok {
		return usagef("%s has no line protocol for bots", *name)
	}
	sp, err := match.ParseSpec(*spec)
	if err != nil {
		return usageError{err}
	}
	bot, _, opts, err := match.NewBot(g, sp)
	if err != nil {
		return usageError{err}
	}
	return serveBot(os.Stdin, stdout, stderr, g, proto, bot, opts, *seed)
}

// serveBot answers each request line with the bot's action. A line that
// is not a request is reported on stderr and skipped; an end message or
// the end of input ends the game.
func serveBot(in io.Reader, out, errw io.Writer, g match.Game, proto match.Protocol, bot match.Bot, opts match.Options, seed uint64) error {
	r := match.BotRand(seed, match.P1, opts)
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var kind struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &kind) == nil && kind.Type == "end" {
			return nil
		}
		s, id, limit, err := proto.ParseRequest(line)
		if err != nil {
			fmt.Fprintf(errw, "arena bot: input line %d: %v\n", n, err)
			continue
		}
		budget := opts.Budget
		if limit > 0 {
			// Keep a margin for the pipes: answer within 90% of the limit.
			budget.Time = min(budget.Time, limit*9/10)
			if budget.Time == 0 {
				budget.Time = limit * 9 / 10
			}
		}
		t := match.NewTurn(s, s.ToMove().Side(), r, budget)
		a, err := bot.Act(t)
		if err == nil {
			err = s.Check(s.ToMove().Side(), a)
		}
		if err != nil {
			fmt.Fprintf(errw, "arena bot: request %d: %v\n", id, err)
			continue
		}
		if _, err := out.Write(proto.WriteReply(a, id)); err != nil {
			return err
		}
	}
	return sc.Err()
}
