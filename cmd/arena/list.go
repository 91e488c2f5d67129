package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/atomicfile"
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
	for _, k := range play.Kinds() {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Example, k.Description)
	}
	tw.Flush()
	return nil
}

// runTemplate prints a game's template: the source of a bot written in Go
// against arena's bot API, which `arena play -p1 go:FILE` runs and the
// page's editor opens on.
func runTemplate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("template", stdout)
	name := fs.String("game", "", "the game (see 'arena games')")
	out := fs.String("o", "", "write the template to this file (refused if it exists) instead of standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := gameFlag(*name)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*out); *out != "" && err == nil {
		return fmt.Errorf("-o %s: a file exists there: the template does not replace it", *out)
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o %v", err)
	}
	src, err := gobot.Template(g.Info().Name)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err := io.WriteString(stdout, src)
		return err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(src); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s: play it with arena play -game %s -p1 go:%s -p2 greedy\n", *out, g.Info().Name, *out)
	return nil
}
