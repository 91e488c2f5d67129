package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// runReport is arena report: a game's report, every decision analysed
// at the game's stated budget (the board's) and judged in expected
// points, with each side's accuracy and its inaccuracies, mistakes and
// blunders.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stdout)
	replay := fs.String("replay", "", "the replay `file` to report on")
	depth := fs.Int("depth", 0, "analyse each decision this many `plies` deep (0: as deep as the budget allows)")
	nodes := fs.Int64("nodes", 0, "each decision's budget in `nodes` (0: the game's stated budget, the board's)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	drills := fs.String("drills", "", "write each mistake and blunder as a drill file into this `folder` (arena drill -suite runs them)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *replay == "":
		return usagef("-replay is required: the replay file to report on")
	case *depth < 0 || *depth > 64:
		return usagef("-depth %d: want 0 to 64 plies", *depth)
	case *nodes < 0:
		return usagef("-nodes %d: want 0 or more", *nodes)
	}
	rec, err := loadReplayFile(*replay)
	if err != nil {
		return err
	}
	o := analysis.Options{Nodes: *nodes, Depth: *depth}
	if isTerminal(stderr) {
		o.Progress = func(done, of int) {
			fmt.Fprintf(stderr, "\ranalysing decision %d of %d", done, of)
			if done == of {
				fmt.Fprintln(stderr)
			}
		}
	}
	r, err := analysis.Make(context.Background(), rec, o)
	if err != nil {
		return fmt.Errorf("%s: %w", *replay, err)
	}
	if *drills != "" {
		if err := saveDrills(stdout, *drills, *replay, rec, r); err != nil {
			return err
		}
	}
	if *asJSON {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	writeReport(stdout, r)
	return nil
}

// writeReport prints a report for people: each side's figures, then the
// decisions that lost something, with the best option and its line.
func writeReport(w io.Writer, r *analysis.Report) {
	fmt.Fprintf(w, "%s, seed %d: %s vs %s", r.Game, r.Seed, r.Players[0], r.Players[1])
	if r.Result != "" {
		fmt.Fprintf(w, ": %s", r.Result)
	}
	fmt.Fprintf(w, "\neach decision analysed at %s; expected points for the mover\n\n", r.Budget)
	fmt.Fprintf(w, "%-4s %-24s %9s %9s %11s %9s %9s %12s\n", "side", "player", "decisions", "accuracy", "inaccuracies", "mistakes", "blunders", "points lost")
	for side, s := range r.Sides {
		fmt.Fprintf(w, "%-4s %-24s %9d %8.1f%% %11d %9d %9d %12.2f\n", match.Side(side), clip(r.Players[side], 24), s.Decisions, s.Accuracy, s.Inaccuracies, s.Mistakes, s.Blunders, s.Lost)
	}
	fmt.Fprintln(w)
	for _, d := range r.Decisions {
		if d.Label == "" {
			continue
		}
		exact := ""
		if d.Exact {
			exact = " (exact: the game's result)"
		}
		fmt.Fprintf(w, "turn %d, %s: %s %s, lost %.2f (%.2f → %.2f)%s\n", d.Turn, d.Side, d.Move, d.Label, d.Lost, d.BestExpected, d.Expected, exact)
		line := ""
		for i, m := range d.Line {
			if i > 0 {
				line += ", "
			}
			line += m.Side.String() + " " + m.Move
		}
		fmt.Fprintf(w, "    best %s (%+g): %s\n", d.Best, d.BestValue, line)
		if d.Reply != nil {
			fmt.Fprintf(w, "    %s answers %s (%+g)\n", d.Reply.Side, d.Reply.Move, d.Value)
		}
	}
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// saveDrills writes each mistake and blunder of the report as a drill
// file into dir.
func saveDrills(w io.Writer, dir, replay string, rec *play.Record, r *analysis.Report) error {
	base := strings.TrimSuffix(filepath.Base(replay), filepath.Ext(replay))
	n := 0
	for _, d := range r.Decisions {
		if d.Label != "mistake" && d.Label != "blunder" {
			continue
		}
		why := fmt.Sprintf("%s, turn %d, %s played %s, a %s that lost %.2f expected points (best %s)", filepath.Base(replay), d.Turn, d.Side, d.Move, d.Label, d.Lost, d.Best)
		dr, err := analysis.NewDrill(rec, d.Turn, d.Side, why)
		if err != nil {
			return err
		}
		if _, err := saveDrill(dir, dr, fmt.Sprintf("%s-turn%d-%s", base, d.Turn, d.Side)); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(w, "%d drills written to %s\n", n, dir)
	return nil
}
