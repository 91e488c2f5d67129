package players

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The "served" kind: a program that the machine serving the page (or
// running the desktop window) offers by name, as its own command line
// named it: `arena serve -player colosseum/mine=py:agent.py` puts
// "served:mine" in Colosseum's seat menus. A page, a link or a request
// can name only a program offered so; the command itself is never theirs
// to give. Where nothing is offered (the static site, the browser's
// worker), the spec says which program is missing.
func init() {
	play.RegisterKind(play.Kind{
		Name:        Served,
		Example:     "served:mine",
		Description: "a program offered by name by the machine that serves the page (arena serve -player GAME/NAME=SPEC)",
		Parse:       parseServed,
		New:         newServed,
		Check:       checkServed,
	})
}

// Served is the kind of a program offered by name.
const Served = "served"

// ServeCommand is the command that serves the page and offers programs
// where this process runs, as messages tell a person to type it: the
// front ends set it (arena serve from a download, go run ./cmd/wasm from
// the source).
var ServeCommand = "arena serve"

// Program is a program offered by name for one game's seats.
type Program struct {
	Game string    // the game's registry name
	Name string    // what the seat menus call it
	Spec play.Spec // what plays: a cmd:, tcp: or py: spec
}

// SpecText is the spec that names the program in a match: "served:NAME".
func (p Program) SpecText() string { return Served + ":" + p.Name }

var offered struct {
	sync.RWMutex
	list []Program
}

// validName reports whether s may name a program: 1 to 32 letters,
// digits, '.', '_' or '-', starting with a letter or digit (it travels in
// links and menus). Written out, not a regexp: the page and its worker
// would carry package regexp for it.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 32 {
		return false
	}
	for i, r := range s {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || (r != '.' && r != '_' && r != '-')) {
			return false
		}
	}
	return true
}

// ParseOffer reads a -player argument, [GAME/]NAME=SPEC. Without GAME,
// the game is the one game the spec's kind can play, if there is one.
func ParseOffer(arg string) (Program, error) {
	head, spec, ok := strings.Cut(arg, "=")
	if !ok {
		return Program{}, fmt.Errorf("-player %q: want GAME/NAME=SPEC, as in colosseum/mine=py:agents/student_agent.py", arg)
	}
	game, name, hasGame := strings.Cut(head, "/")
	if !hasGame {
		game, name = "", head
	}
	if !validName(name) {
		return Program{}, fmt.Errorf("-player %q: the name %q must be 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit", arg, name)
	}
	sp, err := play.ParseSpec(spec)
	if err != nil {
		return Program{}, fmt.Errorf("-player %q: %v", arg, err)
	}
	if !sp.External() || sp.Name == Served {
		return Program{}, fmt.Errorf("-player %q: %q is not a program; give a cmd:, tcp: or py: spec (the built-in bots are in every menu already)", arg, spec)
	}
	if game == "" {
		var can []string
		for _, g := range match.Games() {
			if plays(g, sp) {
				can = append(can, g.Info().Name)
			}
		}
		if len(can) != 1 {
			return Program{}, fmt.Errorf("-player %q: say which game it plays, as in -player %s/%s (%s: programs can play %s)", arg, firstOr(can, "evasion"), arg, sp.Name, strings.Join(can, ", "))
		}
		game = can[0]
	}
	g, err := match.Lookup(game)
	if err != nil {
		return Program{}, fmt.Errorf("-player %q: %v", arg, err)
	}
	if !plays(g, sp) {
		return Program{}, fmt.Errorf("-player %q: %s has no protocol for %s: programs", arg, game, sp.Name)
	}
	return Program{Game: game, Name: name, Spec: sp}, nil
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}

// plays reports whether a program of spec's kind can play g, without
// starting it.
func plays(g match.Game, sp play.Spec) bool {
	_, proto := g.(Protocol)
	_, session := g.(SessionProtocol)
	switch sp.Name {
	case Command:
		_, cmd := g.(FileProtocol)
		return proto || cmd
	case Network:
		return proto || session
	case Agent:
		_, py := g.(PythonAgents)
		return py && proto
	}
	return false
}

// Offer makes programs playable by name in this process: the page's
// server and the desktop window call it with their -player arguments. A
// second program of the same game and name is refused.
func Offer(ps ...Program) error {
	offered.Lock()
	defer offered.Unlock()
	for _, p := range ps {
		if slices.ContainsFunc(offered.list, func(q Program) bool { return q.Game == p.Game && q.Name == p.Name }) {
			return fmt.Errorf("-player: %s/%s is named twice", p.Game, p.Name)
		}
		offered.list = append(offered.list, p)
	}
	return nil
}

// Offered lists the programs offered, in the order given.
func Offered() []Program {
	offered.RLock()
	defer offered.RUnlock()
	return slices.Clone(offered.list)
}

// LookupOffered finds the program game offers under name.
func LookupOffered(game, name string) (Program, bool) {
	offered.RLock()
	defer offered.RUnlock()
	for _, p := range offered.list {
		if p.Game == game && p.Name == name {
			return p, true
		}
	}
	return Program{}, false
}

func parseServed(s, rest string) (play.Spec, error) {
	if !validName(rest) {
		return play.Spec{}, fmt.Errorf("bot spec %q: give the name of a program the page's server offers, as in served:mine", s)
	}
	return play.Spec{Name: Served, Command: rest}, nil
}

// newServed makes the offered program's player: the player of its own
// spec, unwrapped, so that it plays exactly as that spec does on the
// command line.
func newServed(g match.Game, spec play.Spec, h play.Hosting) (match.Bot, error) {
	p, err := offeredFor(g, spec)
	if err != nil {
		return nil, err
	}
	b, _, _, err := play.NewBot(g, p.Spec, h)
	if errors.Is(err, syscall.EADDRINUSE) {
		err = fmt.Errorf("%s (%s) is in another match: its port takes one client at a time; %w", p.Name, p.Spec, err)
	}
	return b, err
}

// checkServed checks the offered program's own spec.
func checkServed(g match.Game, spec play.Spec, h play.Hosting) error {
	p, err := offeredFor(g, spec)
	if err != nil {
		return err
	}
	_, _, err = play.CheckBot(g, p.Spec, h)
	return err
}

// offeredFor is the program that a served: spec names for g.
func offeredFor(g match.Game, spec play.Spec) (Program, error) {
	p, ok := LookupOffered(g.Info().Name, spec.Command)
	if !ok {
		return p, fmt.Errorf("no program named %q plays %s here: it is offered by the machine that runs %s -player %s/%s=SPEC", spec.Command, g.Info().Name, ServeCommand, g.Info().Name, spec.Command)
	}
	return p, nil
}

// Offers gathers -player arguments: a flag.Value.
type Offers []Program

func (o *Offers) String() string {
	var parts []string
	for _, p := range *o {
		parts = append(parts, p.Game+"/"+p.Name+"="+p.Spec.String())
	}
	return strings.Join(parts, " ")
}

// Set reads one -player argument.
func (o *Offers) Set(v string) error {
	p, err := ParseOffer(v)
	if err != nil {
		return err
	}
	*o = append(*o, p)
	return nil
}

// OfferUsage is the -player flag's usage.
const OfferUsage = "offer a program of yours in the seat menus of its game, as `GAME/NAME=SPEC` (colosseum/mine=py:agents/student_agent.py, evasion/mine=tcp:cmd:python3 client.py {port}); repeat for more"

// Words are the words of the program's command line (for py:, the agent's
// file): what a fingerprint of the program reads, so that a gauntlet run
// again after the student changed a file is a new gauntlet, and one run
// again unchanged resumes.
func (p Program) Words() []string {
	if p.Spec.Name == Agent {
		return []string{p.Spec.Command}
	}
	w, _ := splitCommand(p.Spec.Command)
	return w
}

// Check says what stops the program from starting as h runs it, as far
// as can be told without starting it: a program that is not found, an
// agent file that is not there.
func (p Program) Check(h play.Hosting) error {
	g, err := match.Lookup(p.Game)
	if err != nil {
		return err
	}
	_, _, err = play.CheckBot(g, p.Spec, h)
	return err
}

// Offer checks each program the command line offers (see Check) and
// offers them all; the error names the -player argument at fault.
func (o Offers) Offer(h play.Hosting) error {
	for _, p := range o {
		if err := p.Check(h); err != nil {
			return fmt.Errorf("-player %s/%s: %v", p.Game, p.Name, err)
		}
	}
	return Offer(o...)
}
