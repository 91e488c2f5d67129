// Package playtest holds what tests of the front ends play with, as
// net/http/httptest does for servers: a kind of player that counts how
// often it is made and checked.
package playtest

import (
	"sync"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Counted is the "counted" kind's tally, by spec ("counted:NAME" is
// counted under NAME): a stand-in for a student's program, whose every
// start shows. It plays as the game's greedy bot.
var Counted = &tally{made: map[string]int{}, checked: map[string]int{}}

type tally struct {
	mu            sync.Mutex
	made, checked map[string]int
}

// Of is how many times the player NAME was made and checked.
func (c *tally) Of(name string) (made, checked int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made[name], c.checked[name]
}

func (c *tally) count(m map[string]int, name string) {
	c.mu.Lock()
	m[name]++
	c.mu.Unlock()
}

func init() {
	play.RegisterKind(play.Kind{Name: "counted", Example: "counted:a", Description: "greedy, counted as it is made (tests)",
		New: func(g match.Game, spec play.Spec, _ play.Hosting) (match.Bot, error) {
			Counted.count(Counted.made, spec.Command)
			info, err := match.LookupBot(g, "greedy")
			if err != nil {
				return nil, err
			}
			return info.New(match.Options{})
		},
		Check: func(_ match.Game, spec play.Spec, _ play.Hosting) error {
			Counted.count(Counted.checked, spec.Command)
			return nil
		}})
}
