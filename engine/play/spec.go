package play

import (
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"strings"
)

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
		if kv[0] == match.OptTime.Name {
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
func MarksOf(g match.Game, spec string) string {
	sp, err := ParseSpec(spec)
	if err != nil {
		return ""
	}
	if _, ok := LookupKind(sp.Name); ok {
		return ProgramMarks
	}
	info, err := match.LookupBot(g, sp.Name)
	if err != nil {
		return ""
	}
	return info.Marks
}

// NewBot checks spec against game g and makes the bot; a program is
// started as h says. Unknown bots and options are refused with the list
// of valid ones.
func NewBot(g match.Game, spec Spec, h Hosting) (match.Bot, match.BotInfo, match.Options, error) {
	if k, ok := LookupKind(spec.Name); ok {
		b, err := k.New(g, spec, h)
		return b, match.BotInfo{Name: spec.Name, Description: "a player outside arena: " + spec.String(), Marks: ProgramMarks}, match.Options{}, err
	}
	info, err := match.LookupBot(g, spec.Name)
	if err != nil {
		return nil, info, match.Options{}, err
	}
	o, err := info.ParseOptions(spec.Options)
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
func CheckBot(g match.Game, spec Spec, h Hosting) (match.BotInfo, match.Options, error) {
	if k, ok := LookupKind(spec.Name); ok {
		info := match.BotInfo{Name: spec.Name, Description: "a player outside arena: " + spec.String(), Marks: ProgramMarks}
		if k.Check == nil {
			return info, match.Options{}, nil
		}
		return info, match.Options{}, k.Check(g, spec, h)
	}
	info, err := match.LookupBot(g, spec.Name)
	if err != nil {
		return info, match.Options{}, err
	}
	o, err := info.ParseOptions(spec.Options)
	if err != nil {
		return info, o, err
	}
	if _, err := info.New(o); err != nil {
		return info, o, fmt.Errorf("bot %s: %w", spec, err)
	}
	return info, o, nil
}

// NewSetup is the match named as a command line names it: a game, one of
// its presets ("": its first), a seed, and each side's spec.
func NewSetup(game, preset string, seed uint64, p1, p2 string) (Setup, error) {
	g, err := match.Lookup(game)
	if err != nil {
		return Setup{}, err
	}
	s := Setup{Game: g, Seed: seed, Config: match.DefaultConfig(g)}
	if preset != "" {
		p, err := match.LookupPreset(g, preset)
		if err != nil {
			return s, err
		}
		s.Config = p.Config
	}
	for side, spec := range [2]string{p1, p2} {
		if s.Players[side], err = ParseSpec(spec); err != nil {
			return s, err
		}
	}
	return s, nil
}
