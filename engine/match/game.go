package match

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Action is one side's move in one turn. Each game has its own concrete
// type; it must encode with encoding/json and decode with [Game.DecodeAction].
// A type with many options a turn may also have an Equal(Action) bool
// method that agrees with comparing the two actions' JSON: [SameAction]
// then asks it instead of marshalling both.
type Action any

// Config holds a game's settings (board size, rules variant, start
// position...). It must encode with encoding/json into a form that
// [Game.LoadConfig] reads back, so that replays carry their config.
type Config interface {
	// Variant names the rules variant the config plays, one of
	// [Info.Variants].
	Variant() string
}

// State is a position of a game. A state never changes once made: Apply
// returns a new state, so that a match can keep every state for playback.
type State interface {
	// Turn is the number of turns played to reach this state.
	Turn() int
	// ToMove is the set of sides that act in this state: both in
	// simultaneous games, one in alternating games, none once it is over.
	ToMove() Movers
	// Check reports why a is not a legal action for side, or nil. Its
	// message names the offending part ("cell (3,40) is out of the 24x24
	// board"), because it becomes the reason of a forfeit.
	Check(side Side, a Action) error
	// Apply returns the state after the sides to move played acts; the
	// entry of a side that does not move is nil. The actions have passed
	// Check.
	Apply(acts [2]Action) State
	// Outcome is the result of a finished game (ToMove() == Nobody). On a
	// game in progress it is the standing so far, with the side ahead as
	// Winner; front ends show it and forfeits keep its Scores.
	Outcome() Outcome
}

// Info describes a game for listings and pickers.
type Info struct {
	Name         string   // registry name: "life"
	Title        string   // one line for people
	Key          int      // position in listings and the UI's number key
	Simultaneous bool     // both sides move each turn
	Variants     []string // rules variants, the default first
}

// Label is the game's name for people: its title up to a colon or its
// origin in parentheses ("AI Battleground", "Adversarial shortest path").
// The registry name is what people type (-game life); the label is what
// they read, in menus, reports and listings.
func (i Info) Label() string {
	t := i.Title
	if k := strings.IndexAny(t, ":("); k > 0 {
		t = t[:k]
	}
	if t = strings.TrimSpace(t); t == "" {
		return i.Name
	}
	return t
}

// Origin is the course and year in the title's parentheses, or "".
func (i Info) Origin() string {
	open, close := strings.LastIndexByte(i.Title, '('), strings.LastIndexByte(i.Title, ')')
	if open < 0 || close < open {
		return ""
	}
	return i.Title[open+1 : close]
}

// Preset is a named config offered by pickers ("competition 24x24").
type Preset struct {
	Name        string
	Description string
	Config      Config
}

// Game is one set of rules, registered by name. Its methods are what the
// front ends (CLI, UI, tournaments, replays) need without knowing the game.
type Game interface {
	Info() Info
	// Bots lists the game's bots; every game has random, greedy and strong.
	Bots() []BotInfo
	// Presets lists named configs; the first is the default config.
	Presets() []Preset
	// LoadConfig reads a config in any of the game's config formats. Errors
	// name the file, the line and what was expected (see FileError).
	LoadConfig(file string, data []byte) (Config, error)
	// Start returns the initial state. The seed feeds whatever the config
	// leaves to chance (random start positions, generated boards).
	Start(cfg Config, seed uint64) (State, error)
	// DecodeAction reads an action written by encoding/json.
	DecodeAction(data []byte) (Action, error)
	// Clock returns side's clock for one match under cfg, or nil when the
	// game's rules set no time limit.
	Clock(cfg Config, side Side) Clock
}

// DefaultConfig returns the config of g's first preset.
func DefaultConfig(g Game) Config { return g.Presets()[0].Config }

var registry struct {
	sync.Mutex
	games []Game
}

// Register adds a game to the registry. Games call it from init; a second
// game with the same name is a programming error and panics.
func Register(g Game) {
	registry.Lock()
	defer registry.Unlock()
	for _, h := range registry.games {
		if h.Info().Name == g.Info().Name {
			panic("match: game " + g.Info().Name + " registered twice")
		}
	}
	registry.games = append(registry.games, g)
	slices.SortStableFunc(registry.games, func(a, b Game) int { return a.Info().Key - b.Info().Key })
}

// Games returns the registered games in listing order.
func Games() []Game {
	registry.Lock()
	defer registry.Unlock()
	return slices.Clone(registry.games)
}

// Lookup finds a game by name; the error lists the valid names.
func Lookup(name string) (Game, error) {
	games := Games()
	names := make([]string, len(games))
	for i, g := range games {
		if g.Info().Name == name {
			return g, nil
		}
		names[i] = g.Info().Name
	}
	return nil, fmt.Errorf("unknown game %q (valid: %s)", name, strings.Join(names, ", "))
}

// LookupBot finds a bot of g by name; the error lists the valid names.
func LookupBot(g Game, name string) (BotInfo, error) {
	var names []string
	for _, b := range g.Bots() {
		if b.Name == name {
			return b, nil
		}
		names = append(names, b.Name)
	}
	return BotInfo{}, fmt.Errorf("unknown bot %q for %s (valid: %s)", name, g.Info().Name, strings.Join(names, ", "))
}

// LookupPreset finds a preset of g by name; the error lists the valid names.
func LookupPreset(g Game, name string) (Preset, error) {
	var names []string
	for _, p := range g.Presets() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown preset %q for %s (valid: %s)", name, g.Info().Name, strings.Join(names, ", "))
}
