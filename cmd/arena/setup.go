package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
)

// matchFlags are the flags that describe a match: the same in play,
// record and autoplay.
type matchFlags struct {
	game, p1, p2, config, preset string
	seed                         uint64
	clocks                       string
	clock                        string // wall or cpu
	python                       string
	log                          io.Writer
	check                        bool // stop once the setup is checked
	quiet                        bool // programs' own lines are not shown
	caps                         string
	connect                      time.Duration
	interpret                    bool
}

// clockUsage is -clock's help, with its default in the command.
func clockUsage(def string) string {
	return "what a program's clock counts: cpu (the CPU time its processes used for the move, read from the kernel; it is stopped while its opponent moves, so the machine's load moves no game) or wall (the time the move took, as the course's server counted it); default " + def
}

// cpuClock reads -clock.
func cpuClock(s string) (bool, error) {
	switch s {
	case "cpu":
		return true, nil
	case "wall":
		return false, nil
	}
	return false, usagef("-clock %q: want cpu or wall", s)
}

// interpretUsage is -interpret's help, the same in every command.
const interpretUsage = "interpret go: bots, as the static page does, even where Go is installed (where it is, they are compiled, as fast as arena's own bots)"

func (m *matchFlags) register(fs *flag.FlagSet, p1, p2 string) {
	fs.StringVar(&m.game, "game", "", "the game (see 'arena games')")
	fs.StringVar(&m.p1, p1, "", "the first player's bot spec, e.g. strong or strong:nodes=20000 (see 'arena bots')")
	fs.StringVar(&m.p2, p2, "", "the second player's bot spec")
	fs.Uint64Var(&m.seed, "seed", 1, "the match seed: same seed, same match")
	fs.StringVar(&m.config, "config", "", "a config `file` in the game's format (default: the first preset)")
	fs.StringVar(&m.preset, "preset", "", "a preset config by `name` (see 'arena games')")
	fs.StringVar(&m.clocks, "clocks", "programs", "whom the game's clock rules: programs (cmd: players), or all (built-in bots too, as the original servers did; the match then depends on the machine)")
	fs.StringVar(&m.clock, "clock", "wall", clockUsage("wall"))
	fs.StringVar(&m.python, "python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)")
	fs.StringVar(&m.caps, "caps", box.DefaultCaps.String(), "what each program may take: memory (all it maps where a cgroup counts it, else its data), procs (processes and threads of its tree), cpu (each process's CPU time), disk and files (what it writes in its directory and /tmp); `off` for no caps")
	fs.DurationVar(&m.connect, "connect-wait", play.DefaultConnectWait, "how long a program arena starts for a tcp: seat (tcp:cmd:) may take to connect")
	fs.BoolVar(&m.interpret, "interpret", false, interpretUsage)
	fs.BoolVar(&m.quiet, "quiet", false, "do not show what programs write for people (their standard error, a py: agent's prints) as they play; each move's lines stay in the replay")
	fs.BoolVar(&m.check, "check", false, "check the command line, the players (programs found, agent files imported) and the files, then stop before any game")
}

// checked says what -check checked, and reports whether the command is
// to stop there.
func (m *matchFlags) checked(w io.Writer, s play.Setup) bool {
	if m.check {
		fmt.Fprintf(w, "%s: %s vs %s: the command line, the players and the files are good\n", s.Game.Info().Label(), s.Players[0], s.Players[1])
	}
	return m.check
}

// gameFlag looks up the game named by -game.
func gameFlag(name string) (match.Game, error) {
	if name == "" {
		return nil, usagef("-game is required (see 'arena games')")
	}
	g, err := match.Lookup(name)
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

// setup builds the match setup, checking the bots before anything runs.
func (m *matchFlags) setup(p1Flag, p2Flag string) (play.Setup, error) {
	g, err := gameFlag(m.game)
	if err != nil {
		return play.Setup{}, err
	}
	s := play.Setup{Game: g, Seed: m.seed, Log: m.log}
	if !m.quiet {
		s.Said = m.log
	}
	if m.connect <= 0 {
		return s, usagef("-connect-wait %s: want a wait such as 20s", m.connect)
	}
	if s.Hosting, err = (play.Hosting{Python: m.python, ConnectWait: m.connect, Interpret: m.interpret, Notes: m.log}).WithCaps(m.caps); err != nil {
		return s, usageError{err}
	}
	if s.Hosting.CPUClock, err = cpuClock(m.clock); err != nil {
		return s, err
	}
	switch m.clocks {
	case "programs":
	case "all":
		s.ClockAll = true
	default:
		return s, usagef("-clocks %q: want programs or all", m.clocks)
	}
	for i, v := range [2]struct{ flag, spec string }{{p1Flag, m.p1}, {p2Flag, m.p2}} {
		if v.spec == "" {
			return s, usagef("-%s is required (see 'arena bots -game %s')", v.flag, m.game)
		}
		sp, err := play.ParseSpec(v.spec)
		if err != nil {
			return s, usageError{fmt.Errorf("-%s: %w", v.flag, err)}
		}
		s.Players[i] = sp
		// Checked, not started: the match starts a program once.
		_, _, err = play.CheckBot(g, sp, s.Hosting)
		switch {
		case err != nil && sp.External():
			// A program that cannot play (not found, no Python): a
			// failure, not a mistake in the command line.
			return s, fmt.Errorf("-%s: %w", v.flag, err)
		case err != nil:
			return s, usageError{fmt.Errorf("-%s: %w", v.flag, err)}
		}
	}
	if s.Config, err = m.loadConfig(g); err != nil {
		return s, err
	}
	started := s.Players[0].External() && s.Players[0].Command != "" || s.Players[1].External() && s.Players[1].Command != ""
	if c := box.Contain(); started && !c.Full() && m.log != nil {
		fmt.Fprintf(m.log, "arena: programs are weakly contained here: %s\n", c.Weaker)
	}
	return s, checkSeeds(g, s.Config, m.seed, 1)
}

// checkSeeds refuses a -seed that starts a run of count seeds (a match,
// autoplay's games, a tournament's pairs) which the game cannot all take:
// Colosseum's generator, NumPy's, takes 32-bit seeds, and a run past it
// would fail every game after it with the same error. Seeds only grow
// along a run, so its first and last tell.
func checkSeeds(g match.Game, cfg match.Config, first uint64, count int) error {
	if count < 1 {
		count = 1
	}
	last := first + uint64(count-1)
	if last < first {
		return usagef("-seed %d: the %d games' seeds would run past %d", first, count, uint64(math.MaxUint64))
	}
	if cfg == nil {
		cfg = match.DefaultConfig(g)
	}
	seeds := []uint64{first, last}
	if last == first {
		seeds = seeds[:1] // a match: its game starts once here
	}
	for _, s := range seeds {
		if _, err := g.Start(cfg, s); err != nil {
			if s == first {
				return usagef("-seed: %v", err)
			}
			return usagef("-seed %d: the run's %d seeds go up to %d, and %v", first, count, last, err)
		}
	}
	return nil
}

// loadConfig reads -config or -preset; nil means the game's default.
func (m *matchFlags) loadConfig(g match.Game) (match.Config, error) {
	switch {
	case m.config != "" && m.preset != "":
		return nil, usagef("give -config or -preset, not both")
	case m.config != "":
		data, err := safefile.ReadFile(m.config)
		if err != nil {
			return nil, err
		}
		return g.LoadConfig(m.config, data)
	case m.preset != "":
		p, err := match.LookupPreset(g, m.preset)
		if err != nil {
			return nil, usageError{err}
		}
		return p.Config, nil
	}
	return match.DefaultConfig(g), nil
}

// thinking returns each side's mean and longest thinking time per move.
func thinking(rec *play.Record) (avg, longest [2]time.Duration) {
	var n [2]int
	var sum [2]time.Duration
	for _, t := range rec.Turns {
		for side, a := range t.Actions {
			if a == nil {
				continue
			}
			n[side]++
			sum[side] += t.Think[side]
			longest[side] = max(longest[side], t.Think[side])
		}
	}
	for side := range 2 {
		if n[side] > 0 {
			avg[side] = sum[side] / time.Duration(n[side])
		}
	}
	return avg, longest
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
