package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"io"
	"time"
)

// A match can be computed in one place and shown in another: the page
// computes it in a Web Worker, so that no bot ever thinks on the thread
// that draws. The computing side runs [Serve], which takes a [Start] (a
// setup as data), plays the match and sends a [Message] for each turn;
// people's moves come back to it as [Act]s. The showing side keeps a
// [Follower], which rebuilds every state from the messages and checks
// each turn as a replay file's turns are checked, so a message that does
// not follow from the match is refused and never drawn.

// ServeOptions are what a process that serves matches gives each match
// Serve plays: the desktop and the page's server their standard error
// and their flags; the page's worker, which starts no program, none.
type ServeOptions struct {
	// Log is the Setup.Log: a person at the desktop learns there where
	// network players are awaited.
	Log io.Writer
	// Said is the Setup.Said: what programs write, unless -quiet.
	Said io.Writer
	// Hosting is how the matches' programs run (-python, -caps).
	Hosting Hosting
}

// ServeStateBudget is the state budget of the matches Serve plays: the
// side that shows the match keeps every state it needs in its Follower,
// so the serving side keeps snapshots of 16 MB at most, not a second
// copy of StateBudget (in the page, both share one browser process).
const ServeStateBudget = 16 << 20

// Person is the bot spec of a side played by a person at the window, whose
// moves come from outside the match loop.
const Person = "you"

// Start is a match to compute, as data.
type Start struct {
	Game    string          `json:"game"`
	Config  json.RawMessage `json:"config"`
	Seed    uint64          `json:"seed"`
	Players [2]string       `json:"players"`
	// Moves are turns played as given before the bots take over: the
	// moves a link carries, for a match whose bots think on the clock.
	Moves    [][2]json.RawMessage `json:"moves,omitempty"`
	ClockAll bool                 `json:"clock_all,omitzero"`
	// Analyse, when set, asks for the position after Moves analysed
	// rather than the match played: no bot is started, and the analysis
	// is sent a depth at a time (MsgAnalysis), deepening until its
	// budget, then MsgAnalysed.
	Analyse *AnalyseRequest `json:"analyse,omitempty"`
	// Report, when set, asks for the game of Moves reported: every
	// decision judged (see RegisterReporter), MsgReporting as it goes,
	// then MsgReport.
	Report *ReportRequest `json:"report,omitempty"`
	// Drill, when set, asks for one decision of the game of Moves played
	// again by another player and judged (see RegisterDriller): MsgDrill.
	Drill *DrillRequest `json:"drill,omitempty"`
}

// DrillRequest is a decision of a game a front end asks to see played
// again: Player (a spec, one of Start's players so that the front end
// hands it what it needs, a page's bot its source) plays Side at Turn,
// from the game's position on its seed.
type DrillRequest struct {
	Turn   int        `json:"turn"`
	Side   match.Side `json:"side"`
	Player string     `json:"player"`
}

// Driller plays a decision of a game again with another player and
// judges its move, as JSON.
type Driller func(ctx context.Context, rec *Record, q DrillRequest) (json.RawMessage, error)

// driller is the registered Driller: the analysis package's drills.
var driller Driller

// RegisterDriller makes f the driller Serve asks for drills.
func RegisterDriller(f Driller) { driller = f }

// ReportRequest is a game's report a front end asks for.
type ReportRequest struct {
	Nodes int64 `json:"nodes,omitzero"` // each decision's budget (0: the game's stated budget)
}

// Reporter makes the report of a game as JSON, telling progress how many
// of its decisions it has judged.
type Reporter func(ctx context.Context, rec *Record, q ReportRequest, progress func(done, of int)) (json.RawMessage, error)

// reporter is the registered Reporter: the analysis package's, which
// reports on games it reads through this package's records.
var reporter Reporter

// RegisterReporter makes f the reporter Serve asks for reports.
func RegisterReporter(f Reporter) { reporter = f }

// AnalyseRequest is an analysis a front end asks for: the K best
// options, searched deeper and deeper until Nodes have been spent.
type AnalyseRequest struct {
	K     int   `json:"k"`
	Nodes int64 `json:"nodes,omitzero"` // 0: the game's stated budget (match.Analyser.Nodes)
	// Side is the side whose decision to weigh where both move at once
	// (a report judges both sides' decisions in Life); nil: the side to
	// move, or the one the game's analyser weighs (match.AnalysisSide).
	Side *match.Side `json:"side,omitempty"`
	// Played is the move the side played there (a report's decision),
	// valued too where the analysis's options do not hold it: a Life
	// placement of several pieces is no single option.
	Played json.RawMessage `json:"played,omitempty"`
}

// NewStart writes a setup as data, with the moves to play first.
func NewStart(s Setup, moves [][2]json.RawMessage) (Start, error) {
	if s.Config == nil {
		s.Config = match.DefaultConfig(s.Game)
	}
	cfg, err := json.Marshal(s.Config)
	if err != nil {
		return Start{}, fmt.Errorf("config: %w", err)
	}
	return Start{Game: s.Game.Info().Name, Config: cfg, Seed: s.Seed, ClockAll: s.ClockAll, Moves: moves,
		Players: [2]string{s.Players[match.P1].String(), s.Players[match.P2].String()}}, nil
}

// Setup reads the setup back: the game, its config and the players' specs.
func (st Start) Setup() (Setup, error) {
	g, err := match.Lookup(st.Game)
	if err != nil {
		return Setup{}, err
	}
	cfg, err := g.LoadConfig("config", st.Config)
	if err != nil {
		return Setup{}, err
	}
	s := Setup{Game: g, Config: cfg, Seed: st.Seed, ClockAll: st.ClockAll}
	for side, p := range st.Players {
		if s.Players[side], err = ParseSpec(p); err != nil {
			return Setup{}, err
		}
	}
	return s, nil
}

// The kinds of [Message].
const (
	MsgTurn  = "turn"  // a turn was played
	MsgAsk   = "ask"   // a person must play Side in the state after Turn turns
	MsgEnd   = "end"   // the match is over, with Result
	MsgError = "error" // the match cannot go on, because of Error
	// MsgAnalysis is an analysis of the position after Turn turns, one
	// ply deeper than the last; MsgAnalysed says the analysis is done
	// (its budget spent, or the position decided).
	MsgAnalysis = "analysis"
	MsgAnalysed = "analysed"
	// MsgReporting says how many decisions of the game a report has
	// judged (Turn) of how many (Of); MsgReport is the report (Report).
	MsgReporting = "reporting"
	MsgReport    = "report"
	// MsgDrill is a drill's answer, judged (Drill).
	MsgDrill = "drill"
)

// Message is what the computing side sends.
type Message struct {
	Kind string `json:"kind"`
	// Turn is the index of the turn played (MsgTurn) or to play (MsgAsk).
	Turn int `json:"turn"`
	ReplayTurn
	ThinkUs [2]int64   `json:"think_us,omitzero"` // each side's thinking time, in microseconds
	Side    match.Side `json:"side,omitzero"`     // the person asked
	Result  *Result    `json:"result,omitempty"`
	Error   string     `json:"error,omitempty"`
	// Analysis is MsgAnalysis's.
	Analysis *match.Analysis `json:"analysis,omitempty"`
	Of       int             `json:"of,omitzero"`      // MsgReporting's
	Drill    json.RawMessage `json:"drill,omitempty"`  // MsgDrill's
	Report   json.RawMessage `json:"report,omitempty"` // MsgReport's
	// Soon is Serve's word to whoever carries its messages, not sent on:
	// another message is likely within a millisecond (the turn took less,
	// the engine's step included, and so did the sides to move next at
	// their last turn; or the end follows), so a carrier that pays for
	// each message it passes (a worker's post to the page) may hold this
	// one for the next.
	Soon bool `json:"-"`
}

// Act is a person's move, sent to the computing side.
type Act struct {
	Turn   int             `json:"turn"`
	Side   match.Side      `json:"side"`
	Action json.RawMessage `json:"action"`
}

// Request is what the showing side sends to the computing side: the match
// to compute, once, then a person's moves. (To cancel, the page ends the
// worker: a thinking bot does not listen until it has moved.)
type Request struct {
	Start *Start `json:"start,omitempty"`
	Act   *Act   `json:"act,omitempty"`
}

// Serve plays the match st describes and sends each turn as it is played,
// then its end. Sides whose spec is [Person] are asked with MsgAsk and play
// the Acts that answer them. It returns when the match is over, cannot
// start (after sending MsgError) or ctx is cancelled.
func Serve(ctx context.Context, st Start, acts <-chan Act, send func(Message), o ServeOptions) {
	fail := func(err error) { send(Message{Kind: MsgError, Error: err.Error()}) }
	setup, err := st.Setup()
	if err != nil {
		fail(err)
		return
	}
	if st.Analyse != nil {
		serveAnalysis(ctx, setup, st, send)
		return
	}
	if st.Report != nil {
		serveReport(ctx, setup, st, send)
		return
	}
	if st.Drill != nil {
		serveDrill(ctx, setup, st, send)
		return
	}
	setup.Log, setup.Said, setup.Hosting = o.Log, o.Said, o.Hosting
	// The page keeps the states it shows; here only the latest is of use.
	setup.StateBudget = ServeStateBudget
	for side, p := range setup.Players {
		if p.Name == Person {
			setup.Bots[side] = &personBot{game: setup.Game, acts: acts, send: send}
		}
	}
	r, err := NewRunner(setup)
	if err != nil {
		fail(err)
		return
	}
	defer r.Close()
	for _, mv := range st.Moves {
		if err := r.Force(ReplayTurn{Actions: mv}); err != nil {
			fail(fmt.Errorf("the given moves: %w", err))
			return
		}
	}
	sent, stepped := 0, time.Now()
	for {
		rec := r.Record()
		step := time.Since(stepped) // the last step's time, the engine's included
		for ; sent < len(rec.Turns); sent++ {
			t := rec.Turns[sent]
			rt, err := t.encode()
			if err != nil {
				fail(fmt.Errorf("turn %d: %w", sent, err))
				return
			}
			send(Message{Kind: MsgTurn, Turn: sent, ReplayTurn: rt,
				ThinkUs: [2]int64{t.Think[match.P1].Microseconds(), t.Think[match.P2].Microseconds()},
				Soon:    sent < len(rec.Turns)-1 || step < soonThink && nextSoon(rec)})
		}
		if rec.Result != nil {
			send(Message{Kind: MsgEnd, Turn: sent, Result: rec.Result})
			return
		}
		stepped = time.Now()
		if r.Step(ctx) != nil {
			return
		}
	}
}

// soonThink is the thinking time under which a side's next turn is
// taken to come soon (Message.Soon).
const soonThink = time.Millisecond

// nextSoon reports whether the record's next message is likely soon, as
// far as the players say: the match is over (its end follows at once),
// or each side to move thought for less than soonThink at its last turn.
// A side yet to move, or a person, is not soon. (Serve also asks that
// the turn just played took less than soonThink: a 4096x4096 Life
// generation is quick bots and a slow engine.)
func nextSoon(rec *Record) bool {
	if rec.Result != nil {
		return true
	}
	toMove := rec.Last().ToMove()
	if toMove == match.Nobody {
		return true
	}
	for _, side := range match.Sides {
		if !toMove.Has(side) {
			continue
		}
		if rec.Players[side] == Person || !thoughtBriefly(rec, side) {
			return false
		}
	}
	return true
}

// thoughtBriefly reports whether side's last turn in rec took it less
// than soonThink.
func thoughtBriefly(rec *Record, side match.Side) bool {
	for k := len(rec.Turns) - 1; k >= 0; k-- {
		if t := &rec.Turns[k]; t.Actions[side] != nil {
			return t.Think[side] < soonThink
		}
	}
	return false
}

// personBot is a side played by a person: it asks for the move and waits
// for the Act that answers it. The clock never rules a person.
type personBot struct {
	game match.Game
	acts <-chan Act
	send func(Message)
}

func (p *personBot) Act(t *match.Turn) (match.Action, error) {
	turn := t.State.Turn()
	p.send(Message{Kind: MsgAsk, Turn: turn, Side: t.Side})
	for {
		select {
		case a := <-p.acts:
			if a.Turn != turn || a.Side != t.Side {
				continue // an answer to an earlier question
			}
			return p.game.DecodeAction(a.Action)
		case <-t.Context().Done():
			return nil, t.Context().Err()
		}
	}
}

func (p *personBot) Timed() bool { return false }

// Force plays a recorded turn without asking the bots (a link's moves, a
// drill's game up to its decision), checked as a replay's turns are; the
// bots that keep their own copy of the match (Mirror) are told.
func (r *Runner) Force(rt ReplayTurn) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rec.Result != nil {
		return fmt.Errorf("turn %d: the game was already over", len(r.rec.Turns))
	}
	if err := r.rec.addTurn(rt, [2]time.Duration{}); err != nil {
		return err
	}
	played := r.rec.Turns[len(r.rec.Turns)-1].Actions
	for _, b := range r.bots {
		if m, ok := b.(Mirror); ok {
			m.Moved(played)
		}
	}
	r.finishIfOver()
	return nil
}

// Follower rebuilds a match from the messages of its stream. Each message
// is checked against the match so far; one that does not follow is
// refused with an error and leaves the record as it was.
type Follower struct {
	rec    Record
	asking *Message // the person's turn asked and not played yet
}

// NewFollower starts following the match of setup, from its initial state.
func NewFollower(s Setup) (*Follower, error) {
	rec, err := s.start()
	if err != nil {
		return nil, err
	}
	return &Follower{rec: rec}, nil
}

// Record returns the match so far. Its slices are shared with the
// follower, which only appends, so the snapshot stays valid.
func (f *Follower) Record() *Record {
	rec := f.rec
	return &rec
}

// Asking returns the person's turn the computing side waits for, if any.
func (f *Follower) Asking() (turn int, side match.Side, ok bool) {
	if f.asking == nil {
		return 0, match.NoSide, false
	}
	return f.asking.Turn, f.asking.Side, true
}

// DecodeMessage reads a message as JSON. The message may keep parts of
// data (a turn's actions and notes), which the caller must not change.
func DecodeMessage(data []byte) (Message, error) {
	if m, ok := turnWritten(data); ok {
		return m, nil
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("a malformed message: %v", err)
	}
	return m, nil
}

// ErrStreamEnded is returned for messages after the end of the match.
var ErrStreamEnded = errors.New("a message after the end of the match")

// Add takes the next message. A MsgError message is returned as an error
// too: the match cannot go on.
func (f *Follower) Add(m Message) error {
	rec := &f.rec
	if rec.Result != nil {
		return ErrStreamEnded
	}
	next := len(rec.Turns)
	switch m.Kind {
	case MsgTurn:
		if m.Turn != next {
			return fmt.Errorf("turn %d arrived where turn %d was due", m.Turn, next)
		}
		think := [2]time.Duration{time.Duration(m.ThinkUs[match.P1]) * time.Microsecond, time.Duration(m.ThinkUs[match.P2]) * time.Microsecond}
		if err := rec.addTurn(m.ReplayTurn, think); err != nil {
			return err
		}
		f.asking = nil
	case MsgAsk:
		s := rec.Last()
		if m.Turn != next || !s.ToMove().Has(m.Side) || rec.Players[m.Side] != Person {
			return fmt.Errorf("asked %s to play at turn %d, which is not a person's turn (turn %d is due)", m.Side, m.Turn, next)
		}
		// A copy: m's address taken would put every message on the
		// heap, each turn's too (a Message is some 250 bytes).
		asked := m
		f.asking = &asked
	case MsgEnd:
		if m.Result == nil {
			return errors.New("the end of the match without a result")
		}
		if err := checkResult(rec, m.Result); err != nil {
			return err
		}
		rec.Result, f.asking = m.Result, nil
	case MsgError:
		return errors.New(m.Error)
	default:
		return fmt.Errorf("a message of unknown kind %q", m.Kind)
	}
	return nil
}

// Messages are the messages Serve sends for a finished record's match:
// each turn, then the end. A window follows a replay with them as it
// follows a match being computed.
func (r *Record) Messages() ([]Message, error) {
	out := make([]Message, 0, len(r.Turns)+1)
	for i, t := range r.Turns {
		rt, err := t.encode()
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
		out = append(out, Message{Kind: MsgTurn, Turn: i, ReplayTurn: rt,
			ThinkUs: [2]int64{t.Think[match.P1].Microseconds(), t.Think[match.P2].Microseconds()}})
	}
	if r.Result != nil {
		out = append(out, Message{Kind: MsgEnd, Turn: len(r.Turns), Result: r.Result})
	}
	return out, nil
}

// serveAnalysis analyses the position after st.Moves, sending each
// depth's analysis as the search keeps it, until the request's budget is
// spent (0: the game's stated budget, whose last depth is the answer
// arena analyse gives), the position is decided or ctx is cancelled. The moves are applied as a replay's are, checked.
func serveAnalysis(ctx context.Context, setup Setup, st Start, send func(Message)) {
	fail := func(err error) { send(Message{Kind: MsgError, Error: err.Error()}) }
	s, err := setup.Game.Start(setup.Config, setup.Seed)
	if err != nil {
		fail(err)
		return
	}
	for k, mv := range st.Moves {
		var acts [2]match.Action
		for side, raw := range mv {
			if len(raw) == 0 || string(raw) == "null" {
				continue
			}
			if acts[side], err = setup.Game.DecodeAction(raw); err == nil {
				err = s.Check(match.Side(side), acts[side])
			}
			if err != nil {
				fail(fmt.Errorf("the given moves, turn %d, %s: %w", k, match.Side(side), err))
				return
			}
		}
		s = s.Apply(acts)
	}
	if s.ToMove() == match.Nobody {
		fail(errors.New("the game is over at this turn: there is no move to analyse"))
		return
	}
	side := match.AnalysisSide(setup.Game, s)
	if asked := st.Analyse.Side; asked != nil && *asked != side {
		if (*asked != match.P1 && *asked != match.P2) || s.ToMove() != match.Both {
			fail(fmt.Errorf("the analysis was asked for %s's decision, but %s is to move at this turn", *asked, side))
			return
		}
		side = *asked
	}
	t := match.NewTurnContext(ctx, s, side, match.BotRand(setup.Seed, side, match.Options{}), match.Budget{Nodes: st.Analyse.Nodes}, 0)
	var last [2]int64 // the depth and nodes sent last
	var played match.Action
	if raw := st.Analyse.Played; len(raw) > 0 && string(raw) != "null" {
		if played, err = setup.Game.DecodeAction(raw); err == nil {
			err = s.Check(side, played)
		}
		if err != nil {
			fail(fmt.Errorf("the move played, to analyse at turn %d: %w", len(st.Moves), err))
			return
		}
	}
	q := match.Query{K: max(st.Analyse.K, 1), Played: played, Progress: func(an *match.Analysis) {
		if ctx.Err() == nil {
			send(Message{Kind: MsgAnalysis, Turn: len(st.Moves), Analysis: an})
			last = [2]int64{int64(an.Depth), an.Nodes}
		}
	}}
	an, err := match.Analyse(setup.Game, t, q)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		fail(err)
		return
	}
	if last != [2]int64{int64(an.Depth), an.Nodes} { // the answer, with the nodes spent looking deeper
		send(Message{Kind: MsgAnalysis, Turn: len(st.Moves), Analysis: an})
	}
	send(Message{Kind: MsgAnalysed, Turn: len(st.Moves)})
}

// serveReport reports on the game of st.Moves, checked as a replay's
// turns are.
func serveReport(ctx context.Context, setup Setup, st Start, send func(Message)) {
	fail := func(err error) { send(Message{Kind: MsgError, Error: err.Error()}) }
	if reporter == nil {
		fail(errors.New("this program makes no reports"))
		return
	}
	r, err := givenRecord(setup, st)
	if err != nil {
		fail(err)
		return
	}
	report, err := reporter(ctx, r, *st.Report, func(done, of int) {
		send(Message{Kind: MsgReporting, Turn: done, Of: of})
	})
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		fail(err)
		return
	}
	send(Message{Kind: MsgReport, Turn: len(st.Moves), Report: report})
}

// serveDrill plays a decision of the game of st.Moves again and sends
// the answer, judged.
func serveDrill(ctx context.Context, setup Setup, st Start, send func(Message)) {
	fail := func(err error) { send(Message{Kind: MsgError, Error: err.Error()}) }
	if driller == nil {
		fail(errors.New("this program runs no drills"))
		return
	}
	r, err := givenRecord(setup, st)
	if err != nil {
		fail(err)
		return
	}
	answer, err := driller(ctx, r, *st.Drill)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		fail(err)
		return
	}
	send(Message{Kind: MsgDrill, Turn: st.Drill.Turn, Drill: answer})
}

// givenRecord is the game of st.Moves, checked as a replay's turns are.
func givenRecord(setup Setup, st Start) (*Record, error) {
	s, err := setup.Game.Start(setup.Config, setup.Seed)
	if err != nil {
		return nil, err
	}
	var names [2]string
	for side, p := range setup.Players {
		names[side] = p.String()
	}
	r := newRecord(setup.Game, setup.Config, setup.Seed, names, s, ServeStateBudget)
	for k, mv := range st.Moves {
		if err := r.addTurn(ReplayTurn{Actions: mv}, [2]time.Duration{}); err != nil {
			return nil, fmt.Errorf("the given moves, turn %d: %w", k, err)
		}
	}
	return &r, nil
}
