package match

import (
	"fmt"
	"strings"
)

// Mix is the bot info of "mix", for games of two roles whose bots play
// both (Evasion's hunter and prey, the shortest-path game's player and
// adversary): it plays one bot of bots in the first role and another in
// the second, each with its own default budget unless the spec sets one,
// so that a student can pit any hunter against any prey. first reports
// whether the turn is the first role's.
func Mix(roles [2]string, first func(t *Turn) bool, bots func() []BotInfo) BotInfo {
	return BotInfo{Name: "mix",
		Description: fmt.Sprintf("one bot's %s with another's %s, e.g. mix:%s=NAME,%s=NAME", roles[0], roles[1], roles[0], roles[1]),
		Options: []OptionInfo{{Name: roles[0], Description: "the bot that plays the " + roles[0] + " (default strong)"},
			{Name: roles[1], Description: "the bot that plays the " + roles[1] + " (default strong)"}},
		New: func(o Options) (Bot, error) {
			m := &mixed{first: first}
			for i, role := range roles {
				name, ok := o.Extra[role]
				if !ok {
					name = "strong"
				}
				var names []string
				for _, b := range bots() {
					if b.Name == "mix" {
						continue
					}
					names = append(names, b.Name)
					if b.Name != name {
						continue
					}
					m.budgets[i] = b.Budget
					if o.Budget != (Budget{}) {
						m.budgets[i] = o.Budget
					}
					bot, err := b.New(Options{Seed: o.Seed, HasSeed: o.HasSeed, Budget: m.budgets[i]})
					if err != nil {
						return nil, fmt.Errorf("option %s=%s: %w", role, name, err)
					}
					m.bots[i] = bot
				}
				if m.bots[i] == nil {
					return nil, fmt.Errorf("option %s=%q: want one of %s", role, name, strings.Join(names, ", "))
				}
			}
			return m, nil
		}}
}

type mixed struct {
	bots    [2]Bot
	budgets [2]Budget
	first   func(t *Turn) bool
}

func (m *mixed) Act(t *Turn) (Action, error) {
	i := 1
	if m.first(t) {
		i = 0
	}
	if t.Budget == (Budget{}) {
		t.Budget = m.budgets[i]
	}
	return m.bots[i].Act(t)
}
