// Package reports makes the games' reports and drills for play.Serve: a
// program that imports it (the desktop window; the page's program, for
// its match worker) answers a front end's request for a report
// (play.Start.Report) with analysis.Make's, and for a drill
// (play.Start.Drill, "try your bot here") with analysis.Drill's answer. It is a package of its own so that the analysis
// package stays a library: importing it is the choice to make reports.
package reports

import (
	"context"
	"encoding/json"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/play"
)

func init() {
	play.RegisterReporter(func(ctx context.Context, rec *play.Record, q play.ReportRequest, progress func(done, of int)) (json.RawMessage, error) {
		r, err := analysis.Make(ctx, rec, analysis.Options{Nodes: q.Nodes, Progress: progress})
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	})
	play.RegisterDriller(func(ctx context.Context, rec *play.Record, q play.DrillRequest) (json.RawMessage, error) {
		d, err := analysis.NewDrill(rec, q.Turn, q.Side, "")
		if err != nil {
			return nil, err
		}
		a, err := d.Run(ctx, rec, q.Player, analysis.Options{})
		if err != nil {
			return nil, err
		}
		return json.Marshal(a)
	})
}
