package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
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
	role := fs.String("role", "", "for games whose clients choose a role (pathgame): player or adversary")
	side := fs.Int("side", 1, "the side (1 or 2) whose random stream the bot draws from: with -seed, it replays the bot of that side in 'arena play -seed'")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*gameName)
	if err != nil {
		return err
	}
	proto, ok := g.(players.Protocol)
	if !ok {
		return usagef("%s has no line protocol for bots", *gameName)
	}
	sp, err := play.ParseSpec(*spec)
	if err != nil {
		return usageError{err}
	}
	bot, _, opts, err := play.NewBot(g, sp, play.Hosting{})
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
	client := players.NewClient(proto, *name)
	if rc, ok := proto.(players.RoleClientMaker); ok {
		if client, err = rc.NewRoleClient(*name, *role); err != nil {
			return usageError{err}
		}
	} else if *role != "" {
		return usagef("-role: %s clients do not choose a role", *gameName)
	}
	err = serveBot(in, out, stderr, g, client, proto, bot, opts, *seed, match.Side(*side-1), *connect != "")
	switch {
	case errors.Is(err, errEndedEarly):
		return fmt.Errorf("the host at %s closed the connection before the session ended: %w", *connect, err)
	case errors.Is(err, errFlood) && *connect != "":
		return fmt.Errorf("the host at %s %w", *connect, err)
	case errors.Is(err, errFlood):
		return fmt.Errorf("standard input %w", err)
	}
	return err
}

// maxHostLine bounds a message from the host: a 4096x4096 Life view is
// 16 MB.
const maxHostLine = 1 << 24

// errFlood is a host that sent a message past maxHostLine.
var errFlood = errors.New("sent more than the game's protocol allows")

// errEndedEarly is the end of the host's messages before the message that
// ends the session (Evasion's "done", a shortest-path update that says
// done, Colosseum's end message).
var errEndedEarly = errors.New("no end of the session was heard")

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

// server answers a host's requests with a bot's moves: the loop of
// `arena bot`, on standard input and output or a TCP connection.
type server struct {
	game   match.Game
	client match.Client
	proto  players.Protocol
	bot    match.Bot
	opts   match.Options
	rand   *rand.Rand // the bot's one source for the session (-seed, -side)
	errw   io.Writer
}

// serveBot answers each request with the bot's action. A line that is
// not understood is reported on stderr and skipped; the end of the
// session or of the input ends the bot.
//
// With needEnd (a TCP host), input that ends before the session's end
// message is an error: the host went away mid-session. On standard input
// it is not: a bridge may close it without an end message.
func serveBot(in io.Reader, out, errw io.Writer, g match.Game, client match.Client, proto players.Protocol, bot match.Bot, opts match.Options, seed uint64, side match.Side, needEnd bool) error {
	sv := server{game: g, client: client, proto: proto, bot: bot, opts: opts, rand: match.BotRand(seed, side, opts), errw: errw}
	if h, ok := client.(players.Helloer); ok {
		if _, err := out.Write(h.Hello()); err != nil {
			return err
		}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, maxHostLine)
	if sp, ok := g.(players.SessionProtocol); ok {
		sc.Split(sp.Frame) // bare JSON values, no lines
	}
	heard, moves := 0, 0
	for n := 1; sc.Scan(); n++ {
		heard++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		h, err := client.Hear(line)
		if err != nil {
			fmt.Fprintf(errw, "arena bot: input line %d: %v\n", n, err)
			if h.Done {
				return nil
			}
			continue
		}
		if h.Say != nil {
			if _, err := out.Write(h.Say); err != nil {
				return err
			}
		}
		if h.State != nil {
			// A request that is also the session's last (Life's last
			// iteration) is answered first.
			if a, ok := sv.answer(h); ok {
				if _, err := out.Write(proto.WriteReply(a, h.ID)); err != nil {
					return err
				}
				moves++
			}
		}
		if h.Done {
			return nil
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%w: a message longer than %d MB, which no host of the game sends", errFlood, maxHostLine>>20)
	} else if err != nil || !needEnd {
		return err
	}
	return fmt.Errorf("%w (it sent %d messages, and the bot made %d moves)", errEndedEarly, heard, moves)
}

// answer returns the bot's move for a request. A state in which the side
// cannot move is refused with a message; a bot that fails (an error, a
// panic, a move its own check refuses) is reported, and the game's random
// bot answers in its place, so that the host hears a legal move rather
// than waiting out its clock.
func (sv *server) answer(h match.Heard) (match.Action, bool) {
	if !h.State.ToMove().Has(h.Side) {
		fmt.Fprintf(sv.errw, "arena bot: request %d: %s has no move to make in this state (the game is over, or the other side moves)\n", h.ID, h.Side)
		return nil, false
	}
	if rs, ok := h.State.(players.Reseeder); ok {
		// The state's own random stream (Colosseum's NumPy) comes from
		// the session's source, not from the message.
		h.State = rs.Reseed(sv.rand.Uint64())
	}
	budget := sv.opts.Budget
	if h.Limit > 0 {
		// Keep a margin for the pipes: answer within 90% of the limit.
		budget.Time = min(budget.Time, h.Limit*9/10)
		if budget.Time == 0 {
			budget.Time = h.Limit * 9 / 10
		}
	}
	a, err := askBot(sv.bot, match.NewTurn(h.State, h.Side, sv.rand, budget))
	if err == nil {
		err = h.State.Check(h.Side, a)
	}
	if err == nil {
		return a, true
	}
	fmt.Fprintf(sv.errw, "arena bot: request %d: %v; the random bot answers instead\n", h.ID, err)
	info, lerr := match.LookupBot(sv.game, "random")
	if lerr != nil {
		return nil, false
	}
	rb, berr := info.New(match.Options{})
	if berr != nil {
		return nil, false
	}
	a, err = askBot(rb, match.NewTurn(h.State, h.Side, sv.rand, match.Budget{}))
	if err == nil {
		err = h.State.Check(h.Side, a)
	}
	if err != nil {
		fmt.Fprintf(sv.errw, "arena bot: request %d: no move: %v\n", h.ID, err)
		return nil, false
	}
	return a, true
}

// askBot asks a bot for its move, turning a panic into an error.
func askBot(b match.Bot, t *match.Turn) (a match.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, fmt.Errorf("the bot crashed: %v", p)
		}
	}()
	a, err = b.Act(t)
	if err == nil && a == nil {
		err = fmt.Errorf("the bot returned no move")
	}
	return a, err
}
