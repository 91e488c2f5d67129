// Package kept is the gauntlet of a bot written in the page, played in
// the browser with no server: its plan, its key, and the runs the browser
// keeps of it, side by side. It is apart from package gauntlet, which
// runs programs where they are, so that the page's gauntlet worker
// carries neither the kinds of player nor a hash of the FIPS module.
package kept

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/progress"
)

// The gauntlet of a bot written in the page is played in the browser (no
// server): the page's workers play its games and the browser keeps them,
// a Run each, so that a reload resumes it and the student sees
// whether an edit made the bot better. Its plan is the one `arena
// tournament -format gauntlet -rounds PAIRS bot=go:bot.go` makes for the
// game's built-in bots, in the order `arena bots` lists them, on seed 1:
// the same games, the same numbers.

// BotName is the name the page's bot plays under in its gauntlet.
const BotName = "bot"

// MaxPairs is the most pairs of games against each bot a gauntlet from
// the page or the window plays; arena tournament plays more.
const MaxPairs = 500

// Runs is how many gauntlets of a game's bot the browser keeps: the
// oldest beyond it are forgotten, their replays with them.
const Runs = 6

// Gauntlet is a page bot's gauntlet: its plan and its key.
type Gauntlet struct {
	Plan *tournament.Plan
	Key  string
}

// ForSource is the gauntlet of a bot written in the page: its go: spec
// (the name the page provides the source under), its source, the game's
// board it plays on (a preset's name, "" for the default), and the pairs
// of games against each built-in bot. Its key names the game, the pairs,
// the board and the source, so that the same source played again resumes
// and an edited one is a new run.
func ForSource(game, board, spec, source string, pairs int) (*Gauntlet, error) {
	sp, err := play.ParseSpec(spec)
	if err != nil || sp.Name != "go" || sp.Command == "" {
		return nil, fmt.Errorf("%q: the page's gauntlet plays a bot written in the page (go:NAME)", spec)
	}
	if pairs < 1 || pairs > MaxPairs {
		return nil, fmt.Errorf("%d pairs: a gauntlet here plays 1 to %d pairs against each bot (arena tournament plays more)", pairs, MaxPairs)
	}
	plan, err := tournament.BotGauntlet(game, board, tournament.Entrant{Name: BotName, Spec: spec}, pairs, 1)
	if err != nil {
		return nil, err
	}
	return &Gauntlet{Plan: plan, Key: fmt.Sprintf("%s-%s-%d%s-%s", game, BotName, pairs, BoardPart(plan), Digest(source))}, nil
}

// BoardPart is the board's part of a gauntlet's key: none for the game's
// default board, whose keys were made before the board was asked (a
// preset's name is letters, digits and dashes: a key's characters).
func BoardPart(p *tournament.Plan) string {
	if g, err := match.Lookup(p.Game); err == nil && p.Board == g.Presets()[0].Name {
		return ""
	}
	return "-" + p.Board
}

// Digest is a short fingerprint of a bot's source: FNV-1a, 64 bits, for
// a student's own versions, not against forgery.
func Digest(source string) string {
	h := fnv.New64a()
	h.Write([]byte(source))
	return fmt.Sprintf("%016x", h.Sum64())[:12]
}

// Run is a gauntlet of a page's bot as the browser keeps it: what was
// asked, the source that played, and when it started. Its games are kept
// beside it, an entry and a replay each.
type Run struct {
	Key     string `json:"key"`
	Game    string `json:"game"`
	Spec    string `json:"spec"`
	Board   string `json:"board,omitempty"` // a preset's name; "" for the default
	Pairs   int    `json:"pairs"`
	Source  string `json:"source"`
	Started int64  `json:"started"` // Unix milliseconds
}

// Gauntlet is the kept run's plan and key, made again from what it kept
// (which must give its key: a run whose record was changed is refused).
func (k Run) Gauntlet() (*Gauntlet, error) {
	g, err := ForSource(k.Game, k.Board, k.Spec, k.Source, k.Pairs)
	if err != nil {
		return nil, err
	}
	if g.Key != k.Key {
		return nil, fmt.Errorf("the kept gauntlet %s does not match its source", k.Key)
	}
	return g, nil
}

// Standings counts a kept run's entries against its plan; an entry the
// plan refuses (a game twice, seats that are not the schedule's) is
// skipped and said in the second result. done marks the games counted.
func (g *Gauntlet) Standings(entries []tournament.Entry) (s *tournament.Standings, done []bool, skipped string) {
	s, done = tournament.NewStandings(g.Plan), make([]bool, g.Plan.Games())
	n := 0
	for _, e := range entries {
		if e.Index < 0 || e.Index >= len(done) || done[e.Index] {
			n++
			continue
		}
		if err := s.Add(e); err != nil {
			if skipped == "" {
				skipped = err.Error()
			}
			n++
			continue
		}
		done[e.Index] = true
	}
	if n > 0 {
		skipped = fmt.Sprintf("%d kept games were not counted (the first: %s)", n, skipped)
	}
	s.Rate()
	return s, done, skipped
}

// Summary is a kept run as the gauntlet view lists it: the bot's line of
// the standings. current is the editor's source now, running whether
// this run is the one playing.
func Summary(k Run, s *tournament.Standings, current string, running bool) progress.Run {
	r := progress.Run{Key: k.Key, Started: k.Started, Board: s.Plan.Board, Pairs: k.Pairs, Played: s.Played, Total: s.Plan.Games(),
		Lines: strings.Count(strings.TrimSuffix(k.Source, "\n"), "\n") + 1, Digest: Digest(k.Source)}
	if i := botIndex(s); i >= 0 {
		e := s.Entrants[i]
		r.Wins, r.Draws, r.Losses, r.Points = e.Wins, e.Draws, e.Losses, e.Points
		r.Elo, r.EloLow, r.EloHigh = tournament.EloText(e.Elo), tournament.EloText(e.EloLow), tournament.EloText(e.EloHigh)
	}
	var notes []string
	if !running && r.Played < r.Total {
		notes = append(notes, fmt.Sprintf("stopped after %d of %d games (the tab closed, a reload, or Stop): Run with this source and these pairs resumes it", r.Played, r.Total))
	}
	if k.Source != current {
		notes = append(notes, "played by another version of the bot than the editor's now")
	}
	r.Note = strings.Join(notes, "; ")
	return r
}

// botIndex is the page's bot's place among the entrants.
func botIndex(s *tournament.Standings) int {
	for i, e := range s.Entrants {
		if e.Name == BotName {
			return i
		}
	}
	return -1
}

// LatestChange is Change of the latest finished run (finished are the
// latest first) against the finished run before it on the same board: a
// rating on another board is not the same measure.
func LatestChange(finished []*tournament.Standings) string {
	for _, before := range finished[min(1, len(finished)):] {
		if before.Plan.Board == finished[0].Plan.Board {
			return Change(before, finished[0])
		}
	}
	return ""
}

// Change says in words how the bot of after stands against the bot of
// before (two finished runs): the difference of its Elo with its 95%
// interval, and whether that interval excludes 0, that is, whether the
// edit made the bot better or worse beyond what chance explains.
func Change(before, after *tournament.Standings) string {
	i, j := botIndex(before), botIndex(after)
	if i < 0 || j < 0 {
		return ""
	}
	a, b := before.Entrants[i], after.Entrants[j]
	se := func(e tournament.EntrantStats) float64 { return (e.EloHigh - e.EloLow) / (2 * 1.96) }
	d := b.Elo - a.Elo
	half := 1.96 * math.Hypot(se(a), se(b))
	if math.IsNaN(d) || math.IsInf(d, 0) || math.IsNaN(half) || math.IsInf(half, 0) {
		return "The two runs cannot be compared: a rating is unknown."
	}
	lo, hi := d-half, d+half
	what := fmt.Sprintf("The latest version scores %s Elo against the one before (95%% interval %s to %s)",
		tournament.EloText(d), tournament.EloText(lo), tournament.EloText(hi))
	switch {
	case lo > 0:
		return what + ": better, and the interval excludes 0."
	case hi < 0:
		return what + ": worse, and the interval excludes 0."
	}
	return what + ": the interval holds 0, so these games do not show a difference; more pairs narrow it."
}
