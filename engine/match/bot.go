package match

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Bot chooses actions. The match makes one bot per side per match, so a bot
// may remember what it saw in earlier turns.
type Bot interface {
	// Act returns the action for t.Side in t.State. It should fill t.Note
	// with what it thought and stop searching when t.Spend reports false.
	// An error (or a panic) loses the game for the bot's side.
	Act(t *Turn) (Action, error)
}

// BotFunc adapts a function to a Bot without memory.
type BotFunc func(t *Turn) (Action, error)

// Act calls f.
func (f BotFunc) Act(t *Turn) (Action, error) { return f(t) }

// Timed is implemented by bots that the game's clock rules by default:
// programs and network players, for whom the original games set their
// clocks. Built-in bots count their budgets in nodes and are not timed
// unless [Setup.ClockAll] asks for it, so that a busy or paused machine
// never changes their match; a person is never timed.
type Timed interface {
	Timed() bool
}

// Metered is implemented by bots that measure their own moves: a
// program whose clock is the CPU time its processes used (a fair clock,
// Hosting.CPUClock), read from the kernel. When Spent's ok is true, the
// match charges the side's clock with it, not with the wall clock's time
// the move took.
type Metered interface {
	Spent() (d time.Duration, ok bool)
}

// Connecter is implemented by bots that must be reached before they play
// (a network player that has yet to connect, or to connect again for a
// new game, or to hear its role). The match calls Connect before each
// turn for both sides, so that every player hears a game start before
// anyone moves in it, with the state and what the side's clock leaves
// for its next move (0: no clock). Connecting is not charged to the
// clock; what the player must say first (a name, a hello) is, through
// [Charger].
type Connecter interface {
	Connect(ctx context.Context, s State, side Side, left time.Duration) error
}

// Charger is implemented by bots that spend part of their clock outside
// Act: a network player's wait for its name or hello, which the originals
// did not time but arena does, so that a silent client cannot hold a
// match. The match adds Charged to the side's next thinking time.
type Charger interface {
	Charged() time.Duration
}

// Flusher is implemented by bots whose messages are written after a
// pause (see [Herald], and the shortest-path game's pacing): the match
// calls Flush before the side's clock starts and asks it to move, so that
// the pauses are charged to no one.
type Flusher interface {
	Flush(ctx context.Context) error
}

// Mirror is implemented by bots that think from a copy of the match kept
// in another process (a bot interpreted in a child process, or in another
// Web Worker of the page): a state does not travel between processes, so
// the match tells the bot how the match began, then every turn's actions,
// from which the copy is rebuilt with the game's own Start and Apply.
type Mirror interface {
	// Begin is called once, before the first turn, with the match as
	// data and the bot's side; an error (a bot that does not compile)
	// refuses the match before it starts.
	Begin(st Start, side Side) error
	// Moved is called with each turn's actions as they were applied
	// (a side that did not move has nil; a replaced action is the
	// substitute).
	Moved(acts [2]Action)
}

// Watcher is implemented by bots that hear every turn as it is played,
// their opponent's too (the shortest-path server sent each update to both
// clients). The match calls Watch with each new state.
type Watcher interface {
	Watch(s State)
}

// Closer is implemented by bots that hold resources (external processes);
// the match calls Close when it ends.
type Closer interface {
	Close() error
}

// BotInfo describes a bot in a game's list and makes instances of it.
type BotInfo struct {
	Name        string
	Description string // one line
	// Options lists the options the bot accepts besides seed, which every
	// bot accepts: "nodes" and "time" set its Budget, others are the bot's
	// own and reach it in Options.Extra.
	Options []OptionInfo
	// Budget is the budget used when the spec sets neither nodes nor time.
	// A zero Budget leaves the bot to choose one from the position, which
	// BudgetText then describes ("28M/N² nodes").
	Budget     Budget
	BudgetText string
	// Marks says what the bot's marks (see [Note.Mark]) stand for and
	// what their values count, with the unit: the legend of its thinking
	// ("moves, by cells it reaches first less the opponent's").
	Marks string
	// New makes an instance for one match.
	New func(o Options) (Bot, error)
}

// OptionInfo documents one bot option.
type OptionInfo struct {
	Name        string
	Description string
}

// Common options.
var (
	OptNodes = OptionInfo{"nodes", "search budget per move, in nodes (deterministic)"}
	OptTime  = OptionInfo{"time", "search budget per move, as a duration such as 500ms (not reproducible)"}
	OptSeed  = OptionInfo{"seed", "seed of the bot's random source (default: from the match seed)"}
)

// Budget bounds the thinking of a bot on one move. A zero field sets no
// bound of that kind. Node budgets reproduce on every machine; time budgets
// do not, and are for people who want a bot to use the time it has.
type Budget struct {
	Nodes int64         `json:"nodes,omitzero"`
	Time  time.Duration `json:"time,omitzero"`
}

// String writes the budget as bot options would: "nodes=20000,time=1s".
func (b Budget) String() string {
	var parts []string
	if b.Nodes > 0 {
		parts = append(parts, "nodes="+strconv.FormatInt(b.Nodes, 10))
	}
	if b.Time > 0 {
		parts = append(parts, "time="+b.Time.String())
	}
	if parts == nil {
		return "unbounded"
	}
	return strings.Join(parts, ",")
}

// Options are a bot spec's options, checked and parsed.
type Options struct {
	Seed    uint64 // the bot's seed when HasSeed
	HasSeed bool
	Budget  Budget
	Extra   map[string]string // the bot's own options, by name
}

// Int returns the bot's own option name as an int, or def when unset.
func (o Options) Int(name string, def int) (int, error) {
	v, ok := o.Extra[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("option %s=%q: want a whole number", name, v)
	}
	return n, nil
}

// Spec names a bot and its options, as written on command lines and in
// URLs: "strong", "strong:nodes=200000", "greedy:seed=3",
// "strong:time=500ms,seed=2"; or a player of a registered [Kind], named by
// its prefix: "cmd:python3 my_agent.py", "tcp::9000" (package players
// registers the kinds that are programs).
type Spec struct {
	Name    string
	Options [][2]string // name=value pairs in the order written
	// Command is what a kind's player runs or reads: the program of a
	// "cmd" or a "tcp" player arena starts, the agent's file for "py".
	Command string
	// Args, when set, are the program's words as its maker gave them
	// (a ladder's worker, with its own folders' paths, which may hold
	// spaces): the program runs as they say, Command only naming it.
	// A spec read from text has none: its Command is split.
	Args []string
	Addr string // where a "tcp" player is awaited, when arena does not start it
	// Upload, when set, is the folder a student's program was unpacked
	// in (a ladder's version): its command's words are the student's and
	// name nothing; the program reads that folder and its runtime alone.
	// It is set by the one who unpacked it, never parsed from a spec.
	Upload string
}

// ParseSpec reads a bot spec. It checks the syntax only; [NewBot] checks
// the names against a game.
func ParseSpec(s string) (Spec, error) {
	if k, rest, ok := kindOf(s); ok {
		return k.Parse(s, rest)
	}
	name, opts, hasOpts := strings.Cut(s, ":")
	if name == "" {
		return Spec{}, fmt.Errorf("bot spec %q: missing bot name", s)
	}
	sp := Spec{Name: name}
	if !hasOpts {
		return sp, nil
	}
	var err error
	if sp.Options, err = ParseOptionList(s, opts); err != nil {
		return Spec{}, err
	}
	return sp, nil
}

// ParseOptionList reads the name=value pairs, separated by commas, of
// spec s.
func ParseOptionList(s, opts string) ([][2]string, error) {
	var out [][2]string
	for _, kv := range strings.Split(opts, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("bot spec %q: option %q is not name=value", s, kv)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// String writes the spec back in the syntax ParseSpec reads.
func (s Spec) String() string {
	if k, ok := LookupKind(s.Name); ok && k.Format != nil {
		return k.Format(s)
	}
	opts := s.OptionText()
	switch {
	case s.External():
		return s.Name + ":" + s.Command
	case opts == "":
		return s.Name
	}
	return s.Name + ":" + opts
}

// OptionText writes the options as a spec does: "nodes=3,seed=2".
func (s Spec) OptionText() string {
	parts := make([]string, len(s.Options))
	for i, kv := range s.Options {
		parts[i] = kv[0] + "=" + kv[1]
	}
	return strings.Join(parts, ",")
}

// External reports whether the spec names a player of a registered kind:
// a program, a network client or an agent file, outside arena.
func (s Spec) External() bool {
	_, ok := LookupKind(s.Name)
	return ok
}

// Timed reports whether the spec's bot thinks on the clock (a time
// option) or is a program: the same setup may then play another match.
func (s Spec) Timed() bool {
	if s.External() {
		return true
	}
	for _, kv := range s.Options {
		if kv[0] == OptTime.Name {
			return true
		}
	}
	return false
}

// ProgramMarks is the legend of a program's marks: arena knows only
// that a bot marks with the values it chose.
const ProgramMarks = "the places it marked, by its own values (higher is better for it)"

// MarksOf is the legend of the marks of the player named by spec (as a
// record names it): a built-in bot's own, a program's, or "" when spec
// names nothing arena knows.
func MarksOf(g Game, spec string) string {
	sp, err := ParseSpec(spec)
	if err != nil {
		return ""
	}
	if _, ok := LookupKind(sp.Name); ok {
		return ProgramMarks
	}
	info, err := LookupBot(g, sp.Name)
	if err != nil {
		return ""
	}
	return info.Marks
}

// NewBot checks spec against game g and makes the bot; a program is
// started as h says. Unknown bots and options are refused with the list
// of valid ones.
func NewBot(g Game, spec Spec, h Hosting) (Bot, BotInfo, Options, error) {
	if k, ok := LookupKind(spec.Name); ok {
		b, err := k.New(g, spec, h)
		return b, BotInfo{Name: spec.Name, Description: "a player outside arena: " + spec.String(), Marks: ProgramMarks}, Options{}, err
	}
	info, err := LookupBot(g, spec.Name)
	if err != nil {
		return nil, info, Options{}, err
	}
	o, err := info.ParseOptions(spec)
	if err != nil {
		return nil, info, o, err
	}
	b, err := info.New(o)
	if err != nil {
		return nil, info, o, fmt.Errorf("bot %s: %w", spec, err)
	}
	return b, info, o, nil
}

// CheckBot checks spec against game g as NewBot would, starting nothing:
// a kind's player by its Check (a program is not started to check it:
// whatever it does on start would happen twice), a built-in bot by its
// options, which its New reads (a built-in bot is a Go value, made and
// dropped, that starts nothing). A match's setup is checked with it; the
// match makes its bots once, as it begins.
func CheckBot(g Game, spec Spec, h Hosting) (BotInfo, Options, error) {
	if k, ok := LookupKind(spec.Name); ok {
		info := BotInfo{Name: spec.Name, Description: "a player outside arena: " + spec.String(), Marks: ProgramMarks}
		if k.Check == nil {
			return info, Options{}, nil
		}
		return info, Options{}, k.Check(g, spec, h)
	}
	info, err := LookupBot(g, spec.Name)
	if err != nil {
		return info, Options{}, err
	}
	o, err := info.ParseOptions(spec)
	if err != nil {
		return info, o, err
	}
	if _, err := info.New(o); err != nil {
		return info, o, fmt.Errorf("bot %s: %w", spec, err)
	}
	return info, o, nil
}

// ParseOptions checks and parses the options of spec for this bot.
func (info BotInfo) ParseOptions(spec Spec) (Options, error) {
	o := Options{Extra: map[string]string{}}
	valid := []string{OptSeed.Name}
	for _, oi := range info.Options {
		valid = append(valid, oi.Name)
	}
	for _, kv := range spec.Options {
		k, v := kv[0], kv[1]
		if !slices.Contains(valid, k) {
			return o, fmt.Errorf("bot %s: unknown option %q (valid: %s)", info.Name, k, strings.Join(valid, ", "))
		}
		var err error
		switch k {
		case OptSeed.Name:
			o.Seed, err = strconv.ParseUint(v, 10, 64)
			o.HasSeed = true
			if err != nil {
				err = fmt.Errorf("want a whole number such as 3")
			}
		case OptNodes.Name:
			o.Budget.Nodes, err = parseCount(v)
		case OptTime.Name:
			o.Budget.Time, err = time.ParseDuration(v)
			if err != nil || o.Budget.Time <= 0 {
				err = fmt.Errorf("want a positive duration such as 500ms or 2s")
			}
		default:
			o.Extra[k] = v
		}
		if err != nil {
			return o, fmt.Errorf("bot %s: option %s=%q: %v", info.Name, k, v, err)
		}
	}
	if o.Budget == (Budget{}) {
		o.Budget = info.Budget
	}
	return o, nil
}

// parseCount reads a positive count, with an optional k or M suffix.
func parseCount(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "k"):
		mult, v = 1000, strings.TrimSuffix(v, "k")
	case strings.HasSuffix(v, "M"):
		mult, v = 1000000, strings.TrimSuffix(v, "M")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive whole number such as 200000 or 200k")
	}
	return n * mult, nil
}

// Note is what a bot reports about its decision, shown beside the board
// and kept in replays. Fields a bot does not use stay empty.
type Note struct {
	Depth int      `json:"depth,omitzero"` // search depth reached
	Nodes int64    `json:"nodes,omitzero"` // nodes searched
	Eval  *float64 `json:"eval,omitempty"` // evaluation, from the bot's side
	Line  []string `json:"line,omitempty"` // principal line, in the game's notation
	Text  string   `json:"text,omitzero"`  // anything else, one line
	// Said is what a program wrote for people while it chose this move
	// (its standard error; a student's prints), line by line, quoted and
	// bounded by the player that heard it.
	Said []string `json:"said,omitempty"`
	// Marks are the options the bot weighed, placed on the board with
	// their values (see [Note.Mark]); MarksLeft counts those past
	// [MaxMarks], not kept. Expects is the line the bot expects, as
	// places: its move, the reply it expects, and so on.
	Marks     []Mark  `json:"marks,omitempty"`
	MarksLeft int     `json:"marksLeft,omitzero"`
	Expects   []Place `json:"expects,omitempty"`
}

func (n *Note) empty() bool {
	return n.Depth == 0 && n.Nodes == 0 && n.Eval == nil && len(n.Line) == 0 && n.Text == "" && len(n.Said) == 0 &&
		len(n.Marks) == 0 && n.MarksLeft == 0 && len(n.Expects) == 0
}

// same reports whether two notes say the same.
func (n *Note) same(o *Note) bool {
	return n.Depth == o.Depth && n.Nodes == o.Nodes && n.Text == o.Text && slices.Equal(n.Line, o.Line) && slices.Equal(n.Said, o.Said) &&
		slices.Equal(n.Marks, o.Marks) && n.MarksLeft == o.MarksLeft && slices.Equal(n.Expects, o.Expects) &&
		(n.Eval == nil) == (o.Eval == nil) && (n.Eval == nil || *n.Eval == *o.Eval)
}

// SetEval records an evaluation.
func (n *Note) SetEval(v float64) { n.Eval = &v }

// String summarises the note on one line.
func (n *Note) String() string {
	if n == nil {
		return ""
	}
	var parts []string
	if n.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", n.Depth))
	}
	if n.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", n.Nodes))
	}
	if n.Eval != nil {
		parts = append(parts, fmt.Sprintf("eval %+.4g", *n.Eval))
	}
	if len(n.Line) > 0 {
		parts = append(parts, "line "+strings.Join(n.Line, " "))
	}
	if n.Text != "" {
		parts = append(parts, n.Text)
	}
	return strings.Join(parts, ", ")
}
