// Package gauntlet plays a student's program, offered by name (package
// players' served programs), against every built-in bot of its game,
// where the program is: on the page's server, for the page, and in the
// desktop window's process. The games are package tournament's: a
// gauntlet has a directory of its own, with the journal, plan and
// replays `arena tournament` writes, named for the program's spec, its
// files' contents and the pairs, so that the same gauntlet started again
// (a tab closed, a window shut) resumes, and one started after the
// student changed a file is a new one.
package gauntlet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet/kept"
	"github.com/arena-playground/arena/tournament/progress"
)

// MaxPairs is the most pairs of games against each bot a gauntlet from
// the page or the window plays; arena tournament plays more.
const MaxPairs = kept.MaxPairs

// Request is a gauntlet to play: an offered program, the game's board
// (a preset's name, "" for the default) and the pairs of games (both
// seats, one seed a pair) against each built-in bot.
type Request struct {
	Game    string `json:"game"`
	Program string `json:"program"`
	Board   string `json:"board,omitempty"`
	Pairs   int    `json:"pairs"`
}

// Gauntlet is a request checked: its plan and its directory's name.
type Gauntlet struct {
	Plan *tournament.Plan
	Key  string
	// serve is how the process that serves it plays its games.
	serve play.ServeOptions
}

// New checks a request against the programs offered and makes its plan,
// whose games are played as o says (the server's log and flags).
func New(req Request, o play.ServeOptions) (*Gauntlet, error) {
	prog, ok := players.LookupOffered(req.Game, req.Program)
	if !ok {
		return nil, fmt.Errorf("no program named %q plays %q here (offer it with -player GAME/NAME=SPEC)", req.Program, req.Game)
	}
	if req.Pairs < 1 || req.Pairs > MaxPairs {
		return nil, fmt.Errorf("%d pairs: a gauntlet here plays 1 to %d pairs against each bot (arena tournament plays more)", req.Pairs, MaxPairs)
	}
	plan, err := tournament.BotGauntlet(prog.Game, req.Board, tournament.Entrant{Name: prog.Name, Spec: prog.SpecText()}, req.Pairs, 1)
	if err != nil {
		return nil, err
	}
	plan.Caps = o.Hosting.ProgramCaps().String()
	return &Gauntlet{Plan: plan, Key: key(prog, req.Pairs, kept.BoardPart(plan)), serve: o}, nil
}

// key names a gauntlet's directory: the game, the program's name, the
// pairs, the board (none for the default) and a fingerprint of its spec
// and of the files its command line names.
func key(p players.Program, pairs int, board string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", p.Spec, pairs)
	for _, w := range p.Words() {
		if st, err := os.Stat(w); err == nil && st.Mode().IsRegular() {
			if f, err := os.Open(w); err == nil {
				fmt.Fprintf(h, "%s\x00", w)
				io.Copy(h, io.LimitReader(f, 256<<20))
				f.Close()
			}
		}
	}
	return fmt.Sprintf("%s-%s-%d%s-%s", p.Game, p.Name, pairs, board, hex.EncodeToString(h.Sum(nil))[:12])
}

// ValidKey reports whether s is a name New makes: a request cannot name a
// path with it.
func ValidKey(s string) bool {
	if len(s) == 0 || len(s) > 128 || s[0] == '.' || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// DefaultDir is where gauntlets are played unless told: the user's
// cache, which outlives the server, the window and a reboot.
func DefaultDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "arena", "gauntlets")
	}
	return filepath.Join(os.TempDir(), "arena-gauntlets")
}

// Run plays what the gauntlet's directory under base lacks and sends its
// status: first the games an earlier run recorded, then after each game,
// and last when it ends (Done, or Error). replay says where a game's
// replay is fetched from. A cancelled ctx stops it between moves; what
// was recorded stays for the next run.
func (g *Gauntlet) Run(ctx context.Context, base string, replay func(tournament.Entry) string, send func(progress.Status)) {
	dir := filepath.Join(base, g.Key)
	var games []tournament.Entry
	standings := tournament.NewStandings(g.Plan)
	if _, err := os.Stat(filepath.Join(dir, tournament.JournalFile)); err == nil {
		err := tournament.Entries(dir, func(e tournament.Entry) error {
			games = append(games, e)
			return standings.Add(e)
		})
		if err != nil {
			send(progress.Status{Title: standings.Title(), Error: untrusted.Text(err.Error())})
			return
		}
	}
	resumed := len(games)
	status := func(s *tournament.Standings) progress.Status {
		st := s.Progress(games, replay)
		st.Resumed = resumed
		return st
	}
	send(status(standings))
	final, err := tournament.Run(ctx, g.Plan, tournament.Options{Dir: dir, Jobs: max(1, runtime.NumCPU()/2), Log: g.serve.Log, Hosting: g.serve.Hosting,
		Progress: func(e tournament.Entry, s *tournament.Standings, left int) {
			games = append(games, e)
			send(status(s))
		}})
	if ctx.Err() != nil {
		return
	}
	if final == nil {
		final = standings
	}
	st := status(final)
	if err != nil {
		st.Error, st.Done = untrusted.Text(err.Error()), false
	}
	send(st)
}
