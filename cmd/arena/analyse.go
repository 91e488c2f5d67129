package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/arena-playground/arena/analysis"

	"github.com/arena-playground/arena/engine/match"
)

// runAnalyse is arena analyse: a position of a replay analysed by its
// game's search, the K best options with exact values and their lines,
// and each other option with the reply that refutes it. Its figures
// are reproducible: the same depth or nodes give the same values, and
// with neither it spends the game's stated budget, so that it says what
// the page and the window say of the position.
func runAnalyse(args []string, stdout, _ io.Writer) error {
	fs := newFlags("analyse", stdout)
	game := fs.String("game", "", "the game `name` (the replay's; said to check it)")
	replay := fs.String("replay", "", "the replay `file` whose position to analyse")
	turn := fs.Int("turn", -1, "the `turn` whose position to analyse: 0 is the start (default: the last before the end)")
	k := fs.Int("k", analysis.BoardK, "how many best options to give exact values for (the board's, and the report's, unless changed)")
	depth := fs.Int("depth", 0, "search this many `plies` deep (0: as deep as -nodes allows)")
	nodes := fs.Int64("nodes", 0, "the search's budget in `nodes` (0: the game's stated budget, the page's and the window's, unless -depth is given)")
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *replay == "":
		return usagef("-replay is required: the replay file whose position to analyse")
	case *k < 1 || *k > 64:
		return usagef("-k %d: want 1 to 64 options", *k)
	case *depth < 0 || *depth > 64:
		return usagef("-depth %d: want 0 to 64 plies", *depth)
	case *nodes < 0:
		return usagef("-nodes %d: want 0 or more", *nodes)
	}
	rec, err := loadReplayFile(*replay)
	if err != nil {
		return err
	}
	name := rec.Game.Info().Name
	if *game != "" && *game != name {
		return usagef("-game %s: %s is a replay of %s", *game, *replay, name)
	}
	last := rec.Len() - 1
	if rec.State(last).ToMove() == match.Nobody {
		last-- // the final position has no move to analyse
	}
	at := *turn
	if at < 0 {
		at = last
	}
	if at > last || at < 0 {
		return usagef("-turn %d: %s has positions with a move to make at turns 0 to %d", *turn, *replay, last)
	}
	s := rec.State(at)
	side := match.AnalysisSide(rec.Game, s)
	t := match.NewTurn(s, side, match.BotRand(rec.Seed, side, match.Options{}), match.Budget{Nodes: *nodes})
	an, err := match.Analyse(rec.Game, t, match.Query{K: *k, Depth: *depth})
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(an, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	writeAnalysis(stdout, an)
	return nil
}

// writeAnalysis prints an analysis for people: the best options with
// their values and lines, then the others with their refutations.
func writeAnalysis(w io.Writer, an *match.Analysis) {
	fmt.Fprintf(w, "%s, turn %d, %s to move: %d %s, %d nodes\n", an.Game, an.Turn, an.Side, an.Depth, an.DepthUnit, an.Nodes)
	fmt.Fprintf(w, "values: %s\n\nbest\n", an.Unit)
	for i, v := range an.Best {
		var line []string
		for _, m := range v.Line {
			line = append(line, fmt.Sprintf("%s %s", m.Side, m.Move))
		}
		fmt.Fprintf(w, "%3d. %-14s %8s   %s\n", i+1, v.Move, valueText(v.Value, v.Outcome, false), strings.Join(line, ", "))
	}
	if an.ValuedInFull() {
		fmt.Fprintf(w, "\nothers (each valued in full against the same reply)\n")
	} else if len(an.Others) > 0 {
		fmt.Fprintf(w, "\nrefuted (worth at most)\n")
	}
	for _, o := range an.Others {
		by := "it ends the game"
		switch {
		case o.Reply != nil && o.Exact:
			by = fmt.Sprintf("against %s %s", o.Reply.Side, o.Reply.Move)
		case o.Reply != nil:
			by = fmt.Sprintf("by %s %s", o.Reply.Side, o.Reply.Move)
		}
		fmt.Fprintf(w, "     %-14s %8s   %s\n", o.Move, valueText(o.Bound, o.Outcome, !o.Exact), by)
	}
}

// valueText writes a value with its sign, a decided game as won or lost
// by its margin, and a bound with ≤.
func valueText(v float64, outcome string, bound bool) string {
	s := fmt.Sprintf("%+g", v)
	if outcome != "" {
		s = outcome + " " + s
	}
	if bound {
		s = "≤ " + s
	}
	return s
}
