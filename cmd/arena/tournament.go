package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/atomicfile"
	"github.com/arena-playground/arena/players"
	"github.com/arena-playground/arena/tournament"
)

// runTournament is `arena tournament`: run (the default), merge, report
// and show.
func runTournament(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return runTournamentMerge(args[1:], stdout)
		case "report":
			return runTournamentReport(args[1:], stdout)
		case "show":
			return runTournamentShow(args[1:], stdout)
		case "verify":
			return runTournamentVerify(args[1:], stdout)
		}
	}
	fs := newFlags("tournament", stdout)
	gameName := fs.String("game", "", "the game (see 'arena games')")
	dir := fs.String("o", "", "the tournament's `directory`: its plan, its journal of games, their replays (rerun the same command to resume)")
	format := fs.String("format", tournament.RoundRobin, "roundrobin (every pair, both seats), gauntlet (the first entrant against each other), or sprt (two entrants, until the SPRT decides)")
	rounds := fs.Int("rounds", 1, fmt.Sprintf("rounds of every pair in both seats; for -format sprt, the most pairs of games (default %d: until the test decides)", sprtPairs))
	seed := fs.Uint64("seed", 1, "the first pair's seed; pair k plays on seed+k")
	jobs := fs.Int("j", 0, "games played at once (default: one per core)")
	preset := fs.String("preset", "", "a preset config by `name` (see 'arena games')")
	config := fs.String("config", "", "a config `file` in the game's format")
	sizes := fs.String("sizes", "", "draw each pair's board size from this `range`, as 6-11 (games with sizes)")
	clocks := fs.String("clocks", "programs", "whom the game's clock rules: programs, or all")
	clock := fs.String("clock", "cpu", clockUsage("cpu")+"; kept in the tournament's plan")
	python := fs.String("python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)")
	interpret := fs.Bool("interpret", false, interpretUsage)
	sprt := fs.String("sprt", "", "for -format sprt: `elo0=0,elo1=10,alpha=0.05,beta=0.05`")
	caps := fs.String("caps", box.DefaultCaps.String(), "what each program may take: memory (all it maps where a cgroup counts it, else its data), procs (processes and threads of its tree), cpu (each process's CPU time), disk and files (what it writes in its directory and /tmp); `off` for no caps; kept in the tournament's plan")
	check := fs.Bool("check", false, "check the command line and every entrant (programs found, agent files imported), then stop before any game")
	containment := fs.String(box.Flag, "full", "full: refuse to play programs where the kernel cannot keep entrants apart (see docs/limits.md); weak: play them anyway, each in a process group")
	shard := fs.String("shard", "", "play only shard `i/n` of the schedule (its pairs k with k mod n = i), into its own directory; join them with 'arena tournament merge'")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case *sprt != "" && *format != tournament.SPRTMatch:
		return usagef("-sprt is for -format sprt: a %s would not use it", *format)
	case *format == tournament.SPRTMatch && !given["rounds"]:
		*rounds = sprtPairs
	}
	hosting, err := (play.Hosting{Python: *python, Interpret: *interpret}).WithCaps(*caps)
	if err != nil {
		return usageError{err}
	}
	if hosting.CPUClock, err = cpuClock(*clock); err != nil {
		return err
	}
	plan, err := tournamentPlan(*gameName, *format, *rounds, *seed, *preset, *config, *sizes, *clocks, *sprt, *shard, fs.Args())
	if err != nil {
		return err
	}
	programs := false
	for _, e := range plan.Entrants {
		if sp, _ := play.ParseSpec(e.Spec); sp.External() {
			plan.Caps = hosting.ProgramCaps().String() // the rules its programs played under
			plan.Clock = *clock
			programs = programs || sp.Command != ""
		}
	}
	if *dir == "" {
		return usagef("-o is required: the tournament's directory")
	}
	if *jobs < 0 {
		return usagef("-j %d: want the number of games played at once, or 0 for one per core", *jobs)
	}
	if err := checkEntrants(plan, hosting); err != nil {
		return err
	}
	// No entrant is given a folder that holds the tournament's directory:
	// its plan names every entrant's program, its journal the results.
	box.Private(*dir)
	if programs { // programs it starts, which the kernel should keep apart
		if err := box.Check(*containment); err != nil {
			return usageError{err}
		}
		if c := box.Contain(); !c.Full() {
			fmt.Fprintf(stderr, "arena: -containment weak: %s\n", c.Weaker)
		}
	}
	if *check {
		if err := startEntrants(plan, hosting); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d entrants: the command line and every entrant are good\n", plan.Game, len(plan.Entrants))
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := tournament.Options{Dir: *dir, Jobs: *jobs, Log: stderr, Hosting: hosting}
	start := time.Now()
	if isTerminal(stderr) {
		opts.Progress = func(e tournament.Entry, s *tournament.Standings, left int) {
			done := s.Played
			total := done + left
			fmt.Fprintf(stderr, "\r%s %d/%d games, leader %s, %s   ", bar(done, total), done, total, s.Leader(), eta(start, done, total))
		}
	} else {
		opts.Progress = func(e tournament.Entry, s *tournament.Standings, left int) {
			fmt.Fprintf(stderr, "game %s: %s vs %s: %s; %d left; leader %s\n", e.ID, e.Seats[0], e.Seats[1], e.Result, left, s.Leader())
		}
	}
	s, err := tournament.Run(ctx, plan, opts)
	if isTerminal(stderr) {
		fmt.Fprint(stderr, "\r"+strings.Repeat(" ", 100)+"\r")
	}
	if s != nil {
		s.Rate()
		s.WriteText(stdout)
		fmt.Fprintf(stdout, "\njournal: %s/%s, %s\n", *dir, tournament.JournalFile, time.Since(start).Round(100*time.Millisecond))
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d games are recorded; run the same command to play the rest", s.Played)
	}
	return err
}

// sprtPairs is how many pairs of games an SPRT plays at the most when
// -rounds does not say: enough for the test to decide between versions
// a few Elo apart, as fastchess's users run it, and a bound.
const sprtPairs = 10000

// tournamentPlan turns the command line into a plan.
func tournamentPlan(gameName, format string, rounds int, seed uint64, preset, config, sizes, clocks, sprt, shard string, args []string) (*tournament.Plan, error) {
	g, err := gameFlag(gameName)
	if err != nil {
		return nil, err
	}
	m := matchFlags{game: gameName, preset: preset, config: config}
	cfg, err := m.loadConfig(g)
	if err != nil {
		return nil, err
	}
	if sizes != "" {
		if cfg, err = withSizes(g, cfg, sizes); err != nil {
			return nil, err
		}
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	plan := &tournament.Plan{Game: gameName, Board: boardName(g, preset, config, sizes), Config: cfgJSON, Seed: seed, Format: format, Rounds: rounds}
	switch clocks {
	case "programs":
	case "all":
		plan.ClockAll = true
	default:
		return nil, usagef("-clocks %q: want programs or all", clocks)
	}
	if sprt != "" {
		if plan.SPRT, err = tournament.ParseSPRT(sprt); err != nil {
			return nil, usageError{err}
		}
	}
	if shard != "" {
		if plan.Shard, err = tournament.ParseShard(shard); err != nil {
			return nil, usageError{err}
		}
	}
	for _, a := range args {
		e, err := tournament.ParseEntrant(a)
		if err != nil {
			return nil, usageError{err}
		}
		plan.Entrants = append(plan.Entrants, e)
	}
	if err := plan.Check(); err != nil {
		return nil, usageError{err}
	}
	if err := checkSeeds(g, cfg, seed, plan.Pairs()*plan.Rounds); err != nil {
		return nil, err
	}
	return plan, nil
}

// boardName is the label of a tournament's board: the preset's name, the
// config file's, or the default preset's; none where -sizes changed it.
func boardName(g match.Game, preset, config, sizes string) string {
	switch {
	case sizes != "":
		return ""
	case config != "":
		return filepath.Base(config)
	case preset != "":
		return preset
	}
	return g.Presets()[0].Name
}

// checkEntrants checks each entrant before any game, starting nothing
// (play.CheckBot): an unknown bot or option, a program or an agent file
// not found stops the tournament here, by the entrant's name. Each game
// starts its programs once; one that cannot start loses no game, and a
// later run plays that game again.
func checkEntrants(plan *tournament.Plan, h play.Hosting) error {
	g, err := match.Lookup(plan.Game)
	if err != nil {
		return err
	}
	for _, e := range plan.Entrants {
		sp, _ := play.ParseSpec(e.Spec)
		if sp.Name == players.Network && sp.Command == "" {
			return usagef("entrant %s: %s awaits a client by hand; a tournament starts its players itself: give tcp:cmd:PROGRAM {port}", e.Name, e.Spec)
		}
		// Checked, not started: each game starts its programs once.
		_, _, err := play.CheckBot(g, sp, h)
		switch {
		case err != nil && sp.External():
			return fmt.Errorf("entrant %s: %v", e.Name, err)
		case err != nil:
			return usageError{fmt.Errorf("entrant %s: %v", e.Name, err)}
		}
	}
	return nil
}

// startEntrants starts each entrant's program once and ends it (-check):
// an agent file with a Python error, a program that exits at once, is
// told by the entrant's name before the course runs the tournament.
func startEntrants(plan *tournament.Plan, h play.Hosting) error {
	g, err := match.Lookup(plan.Game)
	if err != nil {
		return err
	}
	for _, e := range plan.Entrants {
		sp, _ := play.ParseSpec(e.Spec)
		if !sp.External() {
			continue
		}
		b, _, _, err := play.NewBot(g, sp, h)
		if err != nil {
			return fmt.Errorf("entrant %s: %v", e.Name, err)
		}
		if c, ok := b.(play.Closer); ok {
			c.Close()
		}
	}
	return nil
}

func bar(done, total int) string {
	const width = 24
	fill := 0
	if total > 0 {
		fill = done * width / total
	}
	return "[" + strings.Repeat("#", fill) + strings.Repeat(".", width-fill) + "]"
}

func eta(start time.Time, done, total int) string {
	if done == 0 || done >= total {
		return ""
	}
	el := time.Since(start)
	return (el * time.Duration(total-done) / time.Duration(done)).Round(time.Second).String() + " left"
}

// runTournamentMerge joins shards' directories.
func runTournamentMerge(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("arena tournament merge", flag.ContinueOnError)
	fs.SetOutput(stdout)
	out := fs.String("o", "", "the `directory` of the joined tournament")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: arena tournament merge -o DIR SHARD_DIR...\n\nJoin the journals of a tournament's shards (or runs); the standings are those of one run.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseSubFlags(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return usagef("give -o DIR and the directories to join")
	}
	s, err := tournament.Merge(*out, fs.Args())
	if err != nil {
		return err
	}
	s.Rate()
	s.WriteText(stdout)
	fmt.Fprintf(stdout, "\njoined %d directories into %s\n", fs.NArg(), *out)
	return nil
}

// runTournamentShow prints a directory's standings.
func runTournamentShow(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("arena tournament show", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: arena tournament show DIR\n\nPrint the standings of a tournament's directory.")
	}
	if err := parseSubFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give the tournament's directory")
	}
	s, err := tournament.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	s.Rate()
	s.WriteText(stdout)
	return nil
}

// runTournamentVerify replays every game of a tournament's journal.
func runTournamentVerify(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("arena tournament verify", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: arena tournament verify DIR\n\nReplay every game of a tournament's journal through the engine, from its replay, and name each whose\nrecord does not hold: a game or seats not the schedule's, a replay missing or damaged, a move the rules\nrefuse, a result its moves do not give. Exit status 1 when any does not hold.")
	}
	if err := parseSubFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give the tournament's directory")
	}
	games, bad, err := tournament.Verify(fs.Arg(0))
	if err != nil {
		return err
	}
	for _, f := range bad {
		fmt.Fprintln(stdout, f)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: %d of %d games do not hold", fs.Arg(0), len(bad), games)
	}
	fmt.Fprintf(stdout, "%s: all %d games replay to the results the journal gives\n", fs.Arg(0), games)
	return nil
}

// runTournamentReport writes the HTML report.
func runTournamentReport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("arena tournament report", flag.ContinueOnError)
	fs.SetOutput(stdout)
	out := fs.String("o", "report.html", "the report's `file`")
	playground := fs.String("playground", "http://localhost:8080/", "the playground page the games' links open (arena serve -tournament DIR serves the replays there)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: arena tournament report DIR [-o report.html]\n\nWrite one HTML file with the standings, the ratings, the cross-table and a link to every game's replay.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parseSubFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give the tournament's directory")
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o %v", err)
	}
	s, err := tournament.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	s.Rate()
	absOut, err1 := filepath.Abs(*out)
	absDir, err2 := filepath.Abs(fs.Arg(0))
	fromReport, err3 := filepath.Rel(filepath.Dir(absOut), absDir)
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	err = atomicfile.Write(*out, func(w io.Writer) error {
		return tournament.WriteReport(w, s, fs.Arg(0), fromReport, *playground)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d games\n", *out, s.Played)
	return nil
}

// parseSubFlags parses a subcommand's flags, before or after its
// arguments (fs.Args() are the arguments), turning flag errors into
// usage errors; -h prints the help and returns flag.ErrHelp.
func parseSubFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	var rest []string
	err := fs.Parse(args)
	for err == nil && fs.NArg() > 0 {
		rest = append(rest, fs.Arg(0))
		err = fs.Parse(fs.Args()[1:])
	}
	if err == nil {
		err = fs.Parse(append([]string{"--"}, rest...))
	}
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		return err
	}
	if err != nil {
		return usageError{err}
	}
	return nil
}
