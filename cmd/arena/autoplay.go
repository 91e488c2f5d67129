package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/untrusted"
)

func runAutoplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("autoplay", stdout)
	m := matchFlags{log: stderr}
	m.register(fs, "p1", "p2")
	n := fs.Int("n", 100, "number of games; A (-p1) plays P1 in even games and P2 in odd ones, game i uses seed+i")
	jobs := fs.Int("j", 0, "games played at once (default: one per core)")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	sizes := fs.String("sizes", "", "draw each game's board size from this `range`, as 6-11 (games with sizes)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *n <= 0 {
		return usagef("-n must be positive")
	}
	if *jobs < 0 {
		return usagef("-j %d: want the number of games played at once, or 0 for one per core", *jobs)
	}
	setup, err := m.setup("p1", "p2")
	if err != nil {
		return err
	}
	if *sizes != "" {
		if setup.Config, err = withSizes(setup.Game, setup.Config, *sizes); err != nil {
			return err
		}
	}
	if err := checkSeeds(setup.Game, setup.Config, setup.Seed, *n); err != nil {
		return err
	}
	if m.checked(stdout, setup) {
		return nil
	}
	series := play.Series{Game: setup.Game, Config: setup.Config, Seed: setup.Seed, Games: *n, Bots: setup.Players, Jobs: *jobs, ClockAll: setup.ClockAll, Log: setup.Log, Said: setup.Said, Hosting: setup.Hosting}
	if isTerminal(stderr) {
		start := time.Now()
		series.Progress = func(done, total int) { progressBar(stderr, done, total, time.Since(start)) }
	}
	res, err := series.Run(context.Background())
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	printSeries(stdout, res)
	return nil
}

func printSeries(w io.Writer, r *play.SeriesResult) {
	a, b := r.Bots[0], r.Bots[1]
	fmt.Fprintf(w, "%s: %s vs %s, %d games with sides alternated, seeds %d..%d, %.1f s\n\n",
		r.Game, a.Spec, b.Spec, r.Games, r.Seed, r.Seed+uint64(r.Games)-1, r.Wall.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\twins\tdraws\tlosses\tpoints\tscore\t95% CI\tforfeits\treplaced\tavg ms/move\tmax ms/move\tavg depth\t")
	for _, s := range r.Bots {
		depth := "-"
		if s.AvgDepth > 0 {
			depth = fmt.Sprintf("%.1f", s.AvgDepth)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%g\t%.1f%%\t[%.1f%%, %.1f%%]\t%d\t%d\t%.2f\t%.2f\t%s\t\n",
			s.Spec, s.Wins, s.Draws, s.Losses, s.Points, 100*s.Score, 100*s.ScoreLow, 100*s.ScoreHigh,
			s.Forfeits, s.Replaced, s.AvgMs, s.MaxMs, depth)
	}
	tw.Flush()
	var failed []string
	for _, g := range r.Log {
		if g.Err != "" {
			failed = append(failed, fmt.Sprintf("game %d (seed %d): %s", g.Index, g.Seed, g.Err))
		}
		if g.Result != nil {
			for _, f := range g.Result.Forfeits {
				failed = append(failed, fmt.Sprintf("game %d (seed %d): %s forfeits at turn %d: %s", g.Index, g.Seed, f.Side, f.Turn, untrusted.Text(f.Reason)))
			}
		}
		for side, n := range g.Replaced {
			if n > 0 {
				failed = append(failed, fmt.Sprintf("game %d (seed %d): %s's move replaced %d time(s), first at turn %d: %s",
					g.Index, g.Seed, match.Side(side), n, g.ReplacedAt[side], untrusted.Text(g.ReplacedWhy[side])))
			}
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(failed, "\n"))
	}
}

// progressBar redraws one line on a terminal.
func progressBar(w io.Writer, done, total int, elapsed time.Duration) {
	const width = 30
	fill := done * width / total
	eta := ""
	if done > 0 && done < total {
		eta = fmt.Sprintf(", %s left", (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second))
	}
	fmt.Fprintf(w, "\r[%s%s] %d/%d games%s   ", strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, eta)
	if done == total {
		fmt.Fprint(w, "\r"+strings.Repeat(" ", width+40)+"\r")
	}
}

func isTerminal(w io.Writer) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// withSizes applies -sizes: "6-11", or "8" for one size.
func withSizes(g match.Game, cfg match.Config, spec string) (match.Config, error) {
	sz, ok := g.(sizer)
	if !ok {
		return nil, usagef("-sizes: %s has no board sizes to draw", g.Info().Name)
	}
	lo, hi, found := strings.Cut(spec, "-")
	if !found {
		hi = lo
	}
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil {
		return nil, usagef("-sizes %q: want a range such as 6-11", spec)
	}
	c, err := sz.WithSizes(cfg, a, b)
	if err != nil {
		return nil, usageError{err}
	}
	return c, nil
}

// sizer is implemented by games whose board size can be drawn per game
// from a range (Colosseum): autoplay's -sizes.
type sizer interface {
	// WithSizes returns cfg drawing the board size from lo to hi.
	WithSizes(cfg match.Config, lo, hi int) (match.Config, error)
}
