package tournament

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/tournament/progress"
)

// BotGauntlet is the plan of a gauntlet of one entrant against every
// built-in bot of its game, pairs pairs of games each (both seats, one
// seed per pair), on the game's preset board ("" for its default): how
// good is a student's program, against bots whose strength is known and
// fixed, on a board where the game means something.
func BotGauntlet(game, board string, e Entrant, pairs int, seed uint64) (*Plan, error) {
	g, err := match.Lookup(game)
	if err != nil {
		return nil, err
	}
	preset := g.Presets()[0]
	if board != "" {
		if preset, err = match.LookupPreset(g, board); err != nil {
			return nil, err
		}
	}
	cfg, err := json.Marshal(preset.Config)
	if err != nil {
		return nil, err
	}
	p := &Plan{Game: game, Board: preset.Name, Config: cfg, Seed: seed, Format: Gauntlet, Rounds: pairs, Entrants: []Entrant{e}}
	for _, b := range g.Bots() {
		if b.Name == e.Name {
			return nil, fmt.Errorf("the entrant is named %s, as a bot of %s is: give it another name", e.Name, game)
		}
		p.Entrants = append(p.Entrants, Entrant{Name: b.Name, Spec: b.Name})
	}
	return p, p.Check()
}

// Progress is the standings as a page shows them: the entrants best
// first, and the games given (the latest first, at most
// progress.MaxGames), each with its replay's place as replay names it.
func (s *Standings) Progress(games []Entry, replay func(Entry) string) progress.Status {
	s.Rate()
	st := progress.Status{Title: s.Title(), Played: s.Played, Total: s.Plan.Games(), Done: s.Played == s.Plan.Games()}
	for _, i := range s.Order() {
		e := s.Entrants[i]
		st.Entrants = append(st.Entrants, progress.Entrant{Name: e.Name, Spec: e.Spec, Games: e.Games, Wins: e.Wins,
			Draws: e.Draws, Losses: e.Losses, Points: e.Points, Elo: EloText(e.Elo), EloLow: EloText(e.EloLow),
			EloHigh: EloText(e.EloHigh), Forfeits: e.Forfeits, Replaced: e.Replaced, Reasons: e.ReasonList(), MeanMs: round3(e.MeanMs())})
	}
	for i := len(games) - 1; i >= 0 && len(st.Games) < progress.MaxGames; i-- {
		e := games[i]
		st.Games = append(st.Games, progress.Game{ID: e.ID, Seats: e.Seats, Result: e.Result.String(),
			Winner: int(e.Result.Winner), Replay: replay(e)})
	}
	return st
}
