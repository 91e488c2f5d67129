// Package serve answers a match's requests for one bot written in Go, in
// the bot's own process (see gobot.Request): the interpreter's child
// process, the page's bot worker and a bot compiled with Go (Main) all
// serve the same lines, so the match cannot tell them apart. It holds no
// interpreter, so that a compiled bot carries none.
package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
)

// maxRequest bounds a request line: the first carries the source and the
// config, later ones the turns since the last (a Life turn can carry a
// few thousand cells).
const maxRequest = 64 << 20

// Said bounds what a reply carries of the bot's prints: as many lines,
// each cut to as many bytes, as a program's note keeps.
const (
	saidLines = 24
	saidBytes = 240
)

// Act is a bot's move function.
type Act func(t *match.Turn) (match.Action, error)

// Bot is a bot ready to play: its Act, and where in its file the last
// Act panicked, asked as the panic is recovered ("" when unknown).
type Bot struct {
	Act   Act
	Where func() string
	// Printed, when set, is what the bot printed since it was last asked,
	// for a bot whose prints do not reach the out its Compiler was given
	// (one compiled to WebAssembly prints through the worker's console).
	Printed func() string
}

// Compiler makes the bot of a source, named file in errors; what the bot
// prints goes to out. The interpreter compiles the source it is given;
// a compiled bot has been built from it and ignores it.
type Compiler func(file, source string, out io.Writer) (Bot, error)

// server is one bot playing one match: its Act and its copy of the match.
type server struct {
	compile Compiler
	bot     Bot
	game    match.Game
	state   match.State
	side    match.Side
	rand    *rand.Rand
	// prints is where the bot's prints go: said, or a buffer whose lines
	// each reply carries.
	said   io.Writer
	prints bytes.Buffer
}

// Serve plays the bot of the requests read from r (see gobot.Request),
// writing a reply to w for each. What the bot prints goes to said as it
// comes, or, when said is nil, into the reply to the move that printed
// it. It returns when r ends.
func Serve(r io.Reader, w io.Writer, said io.Writer, compile Compiler) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRequest)
	s := &server{said: said, compile: compile}
	for sc.Scan() {
		var req gobot.Request
		var rep gobot.Reply
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			rep.Error = fmt.Sprintf("a request the bot's process cannot read: %v", err)
		} else {
			rep = s.answer(req)
		}
		b, _ := json.Marshal(rep)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

// answer is the reply to one request.
func (s *server) answer(req gobot.Request) (rep gobot.Reply) {
	rep.ID = req.ID
	if req.Begin != nil {
		if err := s.begin(*req.Begin); err != nil {
			rep.Error = err.Error()
			return rep
		}
		if req.Begin.Start == nil || req.Turn < 0 {
			return rep // only asked to compile, or to begin
		}
	}
	if s.bot.Act == nil || s.state == nil {
		rep.Error = "a move asked before the match began"
		return rep
	}
	if err := s.follow(req.Moves); err != nil {
		rep.Error = err.Error()
		return rep
	}
	if s.state.Turn() != req.Turn {
		rep.Error = fmt.Sprintf("the bot's copy of the match is at turn %d, the match at %d", s.state.Turn(), req.Turn)
		return rep
	}
	t := match.NewTurn(s.state, s.side, s.rand, match.Budget{})
	t.Clock = time.Duration(req.LimitMs) * time.Millisecond
	a, err := s.play(t)
	if !isEmpty(t.Note) {
		rep.Note = &t.Note
	}
	rep.Said = s.takePrints()
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	if a == nil {
		rep.Error = "the bot returned no action"
		return rep
	}
	if rep.Action, err = json.Marshal(a); err != nil {
		rep.Error = fmt.Sprintf("the bot's action %T cannot be written: %v", a, err)
	}
	return rep
}

// begin compiles the bot and, when the request has the match, starts its
// copy.
func (s *server) begin(b gobot.Begin) error {
	out := s.said
	if out == nil {
		out = &s.prints
	}
	bot, err := s.compile(b.File, b.Source, out)
	if err != nil {
		return err
	}
	if b.Start == nil {
		return nil
	}
	// The game and its config, not the players: this process plays one
	// side and parses no one's spec (it may be serving before the kinds
	// of player have registered).
	g, err := match.Lookup(b.Start.Game)
	if err != nil {
		return err
	}
	cfg, err := g.LoadConfig("config", b.Start.Config)
	if err != nil {
		return err
	}
	st, err := g.Start(cfg, b.Start.Seed)
	if err != nil {
		return err
	}
	s.bot, s.game, s.state, s.side = bot, g, st, b.Side
	s.rand = match.BotRand(b.Start.Seed, b.Side, match.Options{})
	return nil
}

// follow applies the turns played since the last request.
func (s *server) follow(moves [][2]json.RawMessage) error {
	for _, mv := range moves {
		var acts [2]match.Action
		for i, raw := range mv {
			if len(raw) == 0 || string(raw) == "null" {
				continue
			}
			a, err := s.game.DecodeAction(raw)
			if err != nil {
				return fmt.Errorf("turn %d: %v", s.state.Turn(), err)
			}
			acts[i] = a
		}
		s.state = s.state.Apply(acts)
	}
	return nil
}

// play calls the bot, turning a panic into an error that says where.
func (s *server) play(t *match.Turn) (a match.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			where := ""
			if s.bot.Where != nil {
				if w := s.bot.Where(); w != "" {
					where = " in " + w
				}
			}
			err = fmt.Errorf("the bot panicked%s: %v", where, p)
		}
	}()
	return s.bot.Act(t)
}

// takePrints returns the lines the bot printed since the last reply,
// bounded, when they go into replies.
func (s *server) takePrints() []string {
	if s.said == nil && s.bot.Printed != nil {
		s.prints.WriteString(s.bot.Printed())
	}
	if s.said != nil || s.prints.Len() == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimRight(s.prints.String(), "\n"), "\n")
	s.prints.Reset()
	var out []string
	for i, l := range lines {
		if i == saidLines {
			out = append(out, fmt.Sprintf("(%d lines more)", len(lines)-saidLines))
			break
		}
		if len(l) > saidBytes {
			l = l[:saidBytes] + "…"
		}
		out = append(out, l)
	}
	return out
}

func isEmpty(n match.Note) bool {
	return n.Depth == 0 && n.Nodes == 0 && n.Eval == nil && n.Line == nil && n.Text == "" && n.Said == nil &&
		n.Marks == nil && n.MarksLeft == 0 && n.Expects == nil
}
