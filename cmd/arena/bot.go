package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// runBot serves one of arena's bots over the game's line protocol on
// standard input and output, so that it can play in another host (the
// course's simulator, through its bridge).
func runBot(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bot", stdout)
	gameName := fs.String("game", "", "the game")
	spec := fs.String("bot", "strong", "the bot spec to serve")
	seed := fs.Uint64("seed", 1, "the seed of the bot's random source")
	connect := fs.String("connect", "", "play as a client of the host at `HOST:PORT` (the course's server) instead of on stdin/stdout")
	name := fs.String("name", "arena", "the name the bot gives when the host asks")
	side := fs.Int("side", 1, "the side (1 or 2) whose random stream the bot draws from: with -seed, it replays the bot of that side in 'arena play -seed'")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*gameName)
	if err != nil {
		return err
	}
	proto, ok := g.(match.Protocol)
	if !ok {
		return usagef("%s has no line protocol for bots", *gameName)
	}
	sp, err := match.ParseSpec(*spec)
	if err != nil {
		return usageError{err}
	}
	bot, _, opts, err := match.NewBot(g, sp)
	if err != nil {
		return usageError{err}
	}
	in, out := io.Reader(os.Stdin), stdout
	if *side != 1 && *side != 2 {
		return usagef("-side %d: want 1 or 2", *side)
	}
	if *connect != "" {
		conn, err := dial(*connect, 10*time.Second)
		if err != nil {
			return err
		}
		defer conn.Close()
		in, out = conn, conn
	}
	return serveBot(in, out, stderr, match.NewClient(proto, *name), proto, bot, opts, *seed, match.Side(*side-1))
}

// dial connects to the host, trying again for a while: a client started
// beside its host may come up first.
func dial(addr string, patience time.Duration) (net.Conn, error) {
	deadline := time.Now().Add(patience)
	for {
		conn, err := net.DialTimeout("tcp", addr, patience)
		if err == nil {
			return conn, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot connect to %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// serveBot answers each request with the bot's action. A line that is
// not understood is reported on stderr and skipped; the end of the
// session or of the input ends the bot.
func serveBot(in io.Reader, out, errw io.Writer, client match.Client, proto match.Protocol, bot match.Bot, opts match.Options, seed uint64, side match.Side) error {
	r := match.BotRand(seed, side, opts)
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		h, err := client.Hear(line)
		if err != nil {
			fmt.Fprintf(errw, "arena bot: input line %d: %v\n", n, err)
			continue
		}
		if h.Say != nil {
			if _, err := out.Write(h.Say); err != nil {
				return err
			}
		}
		if h.Done {
			return nil
		}
		if h.State == nil {
			continue
		}
		budget := opts.Budget
		if h.Limit > 0 {
			// Keep a margin for the pipes: answer within 90% of the limit.
			budget.Time = min(budget.Time, h.Limit*9/10)
			if budget.Time == 0 {
				budget.Time = h.Limit * 9 / 10
			}
		}
		t := match.NewTurn(h.State, h.Side, r, budget)
		a, err := bot.Act(t)
		if err == nil {
			err = h.State.Check(h.Side, a)
		}
		if err != nil {
			fmt.Fprintf(errw, "arena bot: request %d: %v\n", h.ID, err)
			continue
		}
		if _, err := out.Write(proto.WriteReply(a, h.ID)); err != nil {
			return err
		}
	}
	return sc.Err()
}
