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
// "strong:time=500ms,seed=2"; or a player outside arena:
//
//	cmd:python3 my_agent.py             a program on stdin and stdout
//	tcp::9000                           a client that connects to port 9000
//	tcp:cmd:python3 client.py {port}    a client that arena starts itself
//	tcp:pace=off::9000                  the same, with options first
//	py:agents/student_agent.py          a Colosseum student's agent file
type Spec struct {
	Name    string
	Options [][2]string // name=value pairs in the order written
	// Command is the program for "cmd" and for a "tcp" player arena
	// starts, and the agent's file for "py".
	Command string
	Addr    string // where a "tcp" player is awaited, when arena does not start it
}

// The kinds of players that are not arena's bots.
const (
	SpecCommand = "cmd" // CommandPrefix
	SpecTCP     = "tcp" // TCPPrefix
	SpecPython  = "py"  // PythonPrefix
)

// ParseSpec reads a bot spec. It checks the syntax only; [NewBot] checks
// the names against a game.
func ParseSpec(s string) (Spec, error) {
	if rest, ok := strings.CutPrefix(s, TCPPrefix); ok {
		return parseTCPSpec(s, rest)
	}
	if cmd, ok := strings.CutPrefix(s, CommandPrefix); ok {
		if strings.TrimSpace(cmd) == "" {
			return Spec{}, fmt.Errorf("bot spec %q: give the program to run, as in cmd:python3 my_agent.py", s)
		}
		return Spec{Name: SpecCommand, Command: cmd}, nil
	}
	if file, ok := strings.CutPrefix(s, PythonPrefix); ok {
		if strings.TrimSpace(file) == "" {
			return Spec{}, fmt.Errorf("bot spec %q: give the agent's file, as in py:agents/student_agent.py", s)
		}
		return Spec{Name: SpecPython, Command: file}, nil
	}
	name, opts, hasOpts := strings.Cut(s, ":")
	if name == "" {
		return Spec{}, fmt.Errorf("bot spec %q: missing bot name", s)
	}
	sp := Spec{Name: name}
	if !hasOpts {
		return sp, nil
	}
	for _, kv := range strings.Split(opts, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return Spec{}, fmt.Errorf("bot spec %q: option %q is not name=value", s, kv)
		}
		sp.Options = append(sp.Options, [2]string{k, v})
	}
	return sp, nil
}

// parseTCPSpec reads what follows "tcp:" in spec s: options ending in a
// colon when the first segment holds an "=", then "cmd:" and the program
// to start, or the address to listen on.
func parseTCPSpec(s, rest string) (Spec, error) {
	sp := Spec{Name: SpecTCP}
	if i := strings.IndexByte(rest, ':'); i > 0 && strings.Contains(rest[:i], "=") {
		for _, kv := range strings.Split(rest[:i], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return Spec{}, fmt.Errorf("bot spec %q: option %q is not name=value", s, kv)
			}
			sp.Options = append(sp.Options, [2]string{k, v})
		}
		rest = rest[i+1:]
		if _, err := sp.Pace(); err != nil {
			return Spec{}, fmt.Errorf("bot spec %q: %v", s, err)
		}
	}
	if cmd, ok := strings.CutPrefix(rest, CommandPrefix); ok {
		if strings.TrimSpace(cmd) == "" {
			return Spec{}, fmt.Errorf("bot spec %q: give the program to start, as in tcp:cmd:python3 client.py {port}", s)
		}
		sp.Command = cmd
		return sp, nil
	}
	// The port is what follows the last colon (not net.SplitHostPort: the
	// page's build must not carry the net package for this).
	i := strings.LastIndexByte(rest, ':')
	n, err := strconv.Atoi(rest[i+1:])
	host := rest[:max(i, 0)]
	bracketed := strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]")
	if i < 0 || err != nil || n < 0 || n > 65535 || (strings.Contains(host, ":") && !bracketed) {
		return Spec{}, fmt.Errorf("bot spec %q: give the address to listen on, HOST:PORT with a port from 0 to 65535, as in tcp::9000, or the program to start, as in tcp:cmd:python3 client.py {port}", s)
	}
	sp.Addr = rest
	return sp, nil
}

// Pace is how a "tcp" player's messages are spaced: [DefaultPace] unless
// the spec says pace=off (each message as soon as it is due) or gives the
// gap between messages (pace=100ms).
func (s Spec) Pace() (Pace, error) {
	p := DefaultPace
	for _, kv := range s.Options {
		switch {
		case kv[0] != "pace":
			return p, fmt.Errorf("unknown option %q of a network player (valid: pace)", kv[0])
		case kv[1] == "off":
			p = Pace{}
		case kv[1] == "on":
			p = DefaultPace
		default:
			d, err := time.ParseDuration(kv[1])
			if err != nil || d < 0 || d > 10*time.Second {
				return p, fmt.Errorf("pace=%s: want on, off or the gap between messages, as 100ms (at most 10s)", kv[1])
			}
			p.Gap = d
		}
	}
	return p, nil
}

// String writes the spec back in the syntax ParseSpec reads.
func (s Spec) String() string {
	parts := make([]string, len(s.Options))
	for i, kv := range s.Options {
		parts[i] = kv[0] + "=" + kv[1]
	}
	opts := strings.Join(parts, ",")
	switch s.Name {
	case SpecCommand:
		return CommandPrefix + s.Command
	case SpecPython:
		return PythonPrefix + s.Command
	case SpecTCP:
		w := TCPPrefix
		if opts != "" {
			w += opts + ":"
		}
		if s.Command != "" {
			return w + CommandPrefix + s.Command
		}
		return w + s.Addr
	}
	if opts == "" {
		return s.Name
	}
	return s.Name + ":" + opts
}

// External reports whether the spec names a player outside arena: a
// program, a network client or an agent file.
func (s Spec) External() bool {
	switch s.Name {
	case SpecCommand, SpecTCP, SpecPython:
		return true
	}
	return false
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

// NewBot checks spec against game g and makes the bot. Unknown bots and
// options are refused with the list of valid ones.
func NewBot(g Game, spec Spec) (Bot, BotInfo, Options, error) {
	switch spec.Name {
	case SpecCommand, SpecTCP, SpecPython:
		b, err := newExternal(g, spec)
		return b, BotInfo{Name: spec.Name, Description: "a player outside arena: " + spec.String()}, Options{}, err
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
}

func (n *Note) empty() bool {
	return n.Depth == 0 && n.Nodes == 0 && n.Eval == nil && len(n.Line) == 0 && n.Text == ""
}

// same reports whether two notes say the same.
func (n *Note) same(o *Note) bool {
	return n.Depth == o.Depth && n.Nodes == o.Nodes && n.Text == o.Text && slices.Equal(n.Line, o.Line) &&
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

// newExternal makes the bot of a player outside arena: a program, a
// network client (awaited or started), or a Python agent file.
func newExternal(g Game, spec Spec) (Bot, error) {
	name := g.Info().Name
	proto, hasProto := g.(Protocol)
	switch spec.Name {
	case SpecCommand:
		if c, ok := g.(Commander); ok {
			return c.CommandBot(spec.Command)
		}
		if hasProto {
			return newProcessBot(proto, spec.Command)
		}
		return nil, fmt.Errorf("%s has no protocol for programs to play with", name)
	case SpecTCP:
		pace, err := spec.Pace()
		if err != nil {
			return nil, err
		}
		if sp, ok := g.(SessionProtocol); ok {
			return newSessionBot(sp, spec, pace)
		}
		if hasProto {
			return newTCPBot(proto, spec)
		}
		return nil, fmt.Errorf("%s has no line protocol for network players", name)
	case SpecPython:
		if pa, ok := g.(PythonAgents); ok && hasProto {
			return newPythonBot(proto, pa, spec.Command)
		}
		return nil, fmt.Errorf("py: plays agent files written for a course's Python simulator, and %s has none (colosseum has: agents/student_agent.py)", name)
	}
	return nil, fmt.Errorf("bot spec %s: not a player outside arena", spec)
}

// Pace is how arena spaces what a network player hears (see pacer): after
// a game's opening message, Opening of silence; between later messages,
// Gap. The zero Pace writes each message as soon as it is due, still in a
// write of its own.
type Pace struct {
	Opening, Gap time.Duration
}

// DefaultPace keeps the course library's reads apart: its half second of
// silence after the game, with a margin for a busy machine, and a gap that
// a client blocked in recv() has long returned from.
var DefaultPace = Pace{Opening: 750 * time.Millisecond, Gap: 50 * time.Millisecond}
