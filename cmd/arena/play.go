package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/atomicfile"
	"github.com/arena-playground/arena/internal/untrusted"
)

func runPlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("play", stdout)
	m := matchFlags{log: stderr}
	m.register(fs, "p1", "p2")
	replay := fs.String("replay", "", "write the match's replay to this `file` (JSON)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := atomicfile.Check(*replay); err != nil {
		return fmt.Errorf("-replay %v", err)
	}
	setup, err := m.setup("p1", "p2")
	if err != nil || m.checked(stdout, setup) {
		return err
	}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		return err
	}
	if *replay != "" {
		if err := atomicfile.Write(*replay, func(w io.Writer) error { return play.SaveReplay(w, rec) }); err != nil {
			return err
		}
	}
	if *asJSON {
		return printPlayJSON(stdout, rec)
	}
	printPlay(stdout, rec, *replay)
	return nil
}

func printPlay(w io.Writer, rec *play.Record, replay string) {
	r := rec.Result
	fmt.Fprintf(w, "%s: %s vs %s, seed %d, variant %s\n", rec.Game.Info().Name, rec.Players[0], rec.Players[1], rec.Seed, rec.Config.Variant())
	fmt.Fprintf(w, "result: %s\n", untrusted.Text(r.String())) // a forfeit's reason may quote a program
	fmt.Fprintf(w, "turns:  %d\n", r.Turns)
	avg, longest := thinking(rec)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tbot\tscore\tthink avg\tthink max\t")
	for _, side := range match.Sides {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f ms\t%.2f ms\t\n", side, rec.Players[side], r.Scores[side], ms(avg[side]), ms(longest[side]))
	}
	tw.Flush()
	for _, line := range replacedLines(rec) {
		fmt.Fprintln(w, line)
	}
	if replay != "" {
		fmt.Fprintf(w, "replay: %s\n", replay)
	}
}

// replacedLines say, for each side whose moves the match replaced (a
// move late, refused or from a bot that failed, which the game's rules
// replace), how many and why the first was.
func replacedLines(rec *play.Record) []string {
	var out []string
	for _, side := range match.Sides {
		n, first := 0, ""
		for _, t := range rec.Turns {
			if why := t.Replaced[side]; why != "" {
				if n++; first == "" {
					first = why
				}
			}
		}
		switch {
		case n == 1:
			out = append(out, fmt.Sprintf("replaced: 1 move of %s's: %s", side, untrusted.Text(first)))
		case n > 1:
			out = append(out, fmt.Sprintf("replaced: %d moves of %s's, the first: %s", n, side, untrusted.Text(first)))
		}
	}
	return out
}

// playJSON is the -json form of a match's result.
type playJSON struct {
	Game     string       `json:"game"`
	Variant  string       `json:"variant"`
	Seed     uint64       `json:"seed"`
	Players  [2]string    `json:"players"`
	Result   *play.Result `json:"result"`
	ThinkAvg [2]float64   `json:"think_avg_ms"`
	ThinkMax [2]float64   `json:"think_max_ms"`
	Summary  string       `json:"summary"`
}

func printPlayJSON(w io.Writer, rec *play.Record) error {
	avg, longest := thinking(rec)
	out := playJSON{Game: rec.Game.Info().Name, Variant: rec.Config.Variant(), Seed: rec.Seed, Players: rec.Players,
		Result: rec.Result, Summary: rec.Result.String()}
	for side := range 2 {
		out.ThinkAvg[side], out.ThinkMax[side] = round2(ms(avg[side])), round2(ms(longest[side]))
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
