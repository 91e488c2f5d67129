package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/arena-playground/arena/engine/match"
)

func runGames(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("games", stdout)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tNAME\tTURNS\tVARIANTS\tPRESETS\tFROM")
	for _, g := range match.Games() {
		info := g.Info()
		turns := "alternating"
		if info.Simultaneous {
			turns = "simultaneous"
		}
		var presets []string
		for _, p := range g.Presets() {
			presets = append(presets, p.Name)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", info.Name, info.Label(), turns,
			strings.Join(info.Variants, ","), strings.Join(presets, ","), info.Origin())
	}
	return tw.Flush()
}

func runBots(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bots", stdout)
	name := fs.String("game", "", "the game (see 'arena games')")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*name)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOT\tDEFAULT BUDGET\tDESCRIPTION")
	for _, b := range g.Bots() {
		budget := "-"
		if b.Budget != (match.Budget{}) {
			budget = b.Budget.String()
		} else if b.BudgetText != "" {
			budget = b.BudgetText
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", b.Name, budget, b.Description)
		for _, o := range append(b.Options, match.OptSeed) {
			fmt.Fprintf(tw, "  :%s=\t\t%s\n", o.Name, o.Description)
		}
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nA bot spec is NAME or NAME:OPTION=VALUE[,OPTION=VALUE], e.g. %s:nodes=20000,seed=3.\n", g.Bots()[len(g.Bots())-1].Name)
	fmt.Fprintln(stdout, "Node budgets reproduce on every machine; time budgets do not.")
	fmt.Fprintln(stdout, "\nPrograms play as players of these kinds (docs/programs.md):")
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, k := range match.Kinds() {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Example, k.Description)
	}
	tw.Flush()
	return nil
}
