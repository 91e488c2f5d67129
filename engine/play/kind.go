package play

import (
	"cmp"
	"fmt"
	"github.com/arena-playground/arena/engine/match"
	"sort"
	"strings"
	"sync"
)

// Kind is a kind of player that is not one of a game's bots: a program
// arena runs, a client it awaits, an agent file it plays. A kind's specs
// start with its name and a colon ("cmd:python3 agent.py"). The match loop
// knows a kind only through this description, as package image knows a
// format through image.RegisterFormat: the kinds live in their own
// package (players), each in a file that registers it, so that a new kind
// is a new file and the match loop does not change.
type Kind struct {
	// Name is the prefix of the kind's specs, without its colon: "cmd".
	Name string
	// Example is a spec of the kind, for listings and messages.
	Example string
	// Description says in one line what the kind plays.
	Description string
	// Needs names what a spec gives after the prefix ("the program to
	// run"), for the default Parse's message.
	Needs string
	// Parse reads spec s, whose text after "Name:" is rest. Nil: the
	// rest is the spec's Command and must not be blank.
	Parse func(s, rest string) (Spec, error)
	// Format writes a spec back as Parse reads it. Nil: "Name:Command".
	Format func(Spec) string
	// New makes the player of spec for a match of game g, or says why
	// the game or this build cannot have one.
	New func(g match.Game, spec Spec, h Hosting) (match.Bot, error)
	// Check says what would stop New, as far as can be told without
	// starting anything: a program or a file that is not there, a game
	// the kind cannot play, a source the bot API refuses. The front ends
	// check their players with it before a match, so that a student's
	// program starts once for each match it plays, not once more to be
	// checked. Nil: nothing is known before New.
	Check func(g match.Game, spec Spec, h Hosting) error
}

var kinds = struct {
	sync.RWMutex
	m map[string]Kind
}{m: map[string]Kind{}}

// RegisterKind makes the kind's specs known to ParseSpec and NewBot. It
// panics on a second kind of the same name, or on a name that is a bot's
// option syntax.
func RegisterKind(k Kind) {
	if k.Name == "" || strings.ContainsAny(k.Name, ":=,") || k.New == nil {
		panic(fmt.Sprintf("match: RegisterKind of an invalid kind %q", k.Name))
	}
	if k.Parse == nil {
		k.Parse = func(s, rest string) (Spec, error) {
			if strings.TrimSpace(rest) == "" {
				return Spec{}, fmt.Errorf("bot spec %q: give %s, as in %s", s, cmp.Or(k.Needs, "what it plays"), k.Example)
			}
			return Spec{Name: k.Name, Command: rest}, nil
		}
	}
	kinds.Lock()
	defer kinds.Unlock()
	if _, dup := kinds.m[k.Name]; dup {
		panic("match: RegisterKind of " + k.Name + " twice")
	}
	kinds.m[k.Name] = k
}

// LookupKind returns the registered kind of that name.
func LookupKind(name string) (Kind, bool) {
	kinds.RLock()
	defer kinds.RUnlock()
	k, ok := kinds.m[name]
	return k, ok
}

// Kinds lists the registered kinds by name.
func Kinds() []Kind {
	kinds.RLock()
	defer kinds.RUnlock()
	out := make([]Kind, 0, len(kinds.m))
	for _, k := range kinds.m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// kindOf finds the kind whose prefix starts s, and what follows it.
func kindOf(s string) (Kind, string, bool) {
	name, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Kind{}, "", false
	}
	k, ok := LookupKind(name)
	return k, rest, ok
}
