package match

import (
	"fmt"
	"math/rand/v2"
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

// ParseOptions checks and parses a spec's options (name=value pairs in
// the order written) for this bot.
func (info BotInfo) ParseOptions(pairs [][2]string) (Options, error) {
	o := Options{Extra: map[string]string{}}
	valid := []string{OptSeed.Name}
	for _, oi := range info.Options {
		valid = append(valid, oi.Name)
	}
	for _, kv := range pairs {
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

// Empty reports whether the note says nothing.
func (n *Note) Empty() bool {
	return n.Depth == 0 && n.Nodes == 0 && n.Eval == nil && len(n.Line) == 0 && n.Text == "" && len(n.Said) == 0 &&
		len(n.Marks) == 0 && n.MarksLeft == 0 && len(n.Expects) == 0
}

// Equal reports whether two notes say the same.
func (n *Note) Equal(o *Note) bool {
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

// BotRand returns the random source of side's bot in a match with the
// given seed: from the bot's own seed option when it has one.
func BotRand(matchSeed uint64, side Side, o Options) *rand.Rand {
	seed := matchSeed
	if o.HasSeed {
		seed = o.Seed
	}
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15*uint64(side+1)))
}
