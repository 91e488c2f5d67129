package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/fileerr"
	"github.com/arena-playground/arena/internal/safefile"
)

// runDrill is arena drill: a bot plays a position again, from a replay's
// turn or from each drill file of a suite, and is told whether its move
// is within analysis.Tolerance of the best option's expected points.
func runDrill(args []string, stdout, _ io.Writer) error {
	fs := newFlags("drill", stdout)
	replay := fs.String("replay", "", "the replay `file` whose position to drill")
	turn := fs.Int("turn", -1, "the `turn` of the replay to drill")
	sideName := fs.String("side", "", "the `side` (P1 or P2) whose decision to drill, where both move at once (default: the side to move, or the one the analysis weighs)")
	spec := fs.String("p", "", "the bot `spec` that answers: go:mybot.go, cmd:\"python3 agent.py\", strong …")
	suite := fs.String("suite", "", "a `folder` of drill files to run, each as a test")
	save := fs.String("save", "", "write the drill of -replay's -turn into this `folder` rather than run it")
	nodes := fs.Int64("nodes", 0, "the analysis's budget in `nodes` (0: the game's stated budget)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := analysis.Options{Nodes: *nodes}
	switch {
	case *suite != "" && *replay != "":
		return usagef("-suite and -replay: give one, a folder of drills or a replay's turn")
	case *suite != "":
		if *spec == "" {
			return usagef("-p is required: the bot that answers the drills")
		}
		return runSuite(stdout, *suite, *spec, o)
	case *replay == "":
		return usagef("-replay or -suite is required: the position to drill, or a folder of drills")
	case *turn < 0:
		return usagef("-turn is required: the turn of %s to drill", *replay)
	case *save == "" && *spec == "":
		return usagef("-p is required: the bot that answers the drill (or -save DIR to keep it for later)")
	}
	rec, err := loadReplayFile(*replay)
	if err != nil {
		return err
	}
	side, err := drillSide(rec, *turn, *sideName)
	if err != nil {
		return err
	}
	d, err := analysis.NewDrill(rec, *turn, side, fmt.Sprintf("%s, turn %d, %s", filepath.Base(*replay), *turn, side))
	if err != nil {
		return fmt.Errorf("%s: %w", *replay, err)
	}
	if *save != "" {
		path, err := saveDrill(*save, d, fmt.Sprintf("%s-turn%d-%s", strings.TrimSuffix(filepath.Base(*replay), filepath.Ext(*replay)), *turn, side))
		if err == nil {
			fmt.Fprintf(stdout, "drill: %s\n", path)
		}
		return err
	}
	a, err := d.Run(context.Background(), rec, *spec, o)
	if err != nil {
		return fmt.Errorf("%s: %w", *replay, err)
	}
	writeAnswer(stdout, d.Why, a)
	if !a.Passed {
		return errFailed
	}
	return nil
}

// drillSide is the side whose decision at turn k to drill: the one named,
// else the only one the analysis weighs there.
func drillSide(rec *play.Record, k int, name string) (match.Side, error) {
	if k >= len(rec.Turns) {
		return 0, usagef("-turn %d: the game has decisions at turns 0 to %d", k, len(rec.Turns)-1)
	}
	switch name {
	case "P1":
		return match.P1, nil
	case "P2":
		return match.P2, nil
	case "":
		return match.AnalysisSide(rec.Game, rec.State(k)), nil
	}
	return 0, usagef("-side %q: want P1 or P2", name)
}

// saveDrill writes d into dir as name.json.
func saveDrill(dir string, d *analysis.Drill, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".json")
	return path, os.WriteFile(path, append(data, '\n'), 0o644)
}

// runSuite runs every drill file of dir with the bot spec, one line a
// drill, and fails if any drill does.
func runSuite(w io.Writer, dir, spec string, o analysis.Options) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	slices.Sort(files)
	if len(files) == 0 {
		return fmt.Errorf("%s: no drill files (*.json) in it", dir)
	}
	passed := 0
	for _, f := range files {
		data, err := safefile.ReadFile(f)
		if err != nil {
			return err
		}
		var d analysis.Drill
		if err := fileerr.DecodeJSON(f, data, &d); err != nil {
			return err
		}
		rec, err := d.Record(f)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		a, err := d.Run(context.Background(), rec, spec, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		writeAnswer(w, filepath.Base(f), a)
		if a.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "%d of %d drills passed\n", passed, len(files))
	if passed < len(files) {
		return errFailed
	}
	return nil
}

// writeAnswer prints a drill's verdict on one line, then the best move
// where the answer was not within the tolerance.
func writeAnswer(w io.Writer, name string, a *analysis.Answer) {
	if a.Failed != "" {
		fmt.Fprintf(w, "FAIL %s: %s\n", name, a.Failed)
		return
	}
	verdict := "PASS"
	if !a.Passed {
		verdict = "FAIL"
	}
	exact := ""
	if a.Exact {
		exact = ", exact"
	}
	fmt.Fprintf(w, "%s %s: played %s, lost %.3f expected points (%.2f → %.2f%s; tolerance %.4f)\n", verdict, name, a.Move, a.Lost, a.BestExpected, a.Expected, exact, analysis.Tolerance)
	if !a.Passed {
		fmt.Fprintf(w, "     best: %s\n", a.Best)
	}
}
