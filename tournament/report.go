package tournament

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// WriteReport writes the tournament's report: one HTML file that needs no
// network, with the standings, a chart of the ratings and their
// intervals, the cross-table, each entrant's forfeits, and every game
// with a link that opens its replay in the playground (served by `go run
// ./cmd/wasm -tournament DIR` at /replays/) and a link to the replay file (which the
// page and the desktop also open when it is dropped on them). dir is the
// tournament's directory; fromReport is the same directory as the report
// finds it from where it is written. Games are streamed from the journal,
// not held.
func WriteReport(w io.Writer, s *Standings, dir, fromReport, playground string) error {
	return WriteReportWith(w, s, dir, fromReport, playground, "/replays")
}

// WriteReportWith is WriteReport with the path the playground's server
// serves the replays at (a gauntlet's own under the page's server's /api/).
func WriteReportWith(w io.Writer, s *Standings, dir, fromReport, playground, replays string) error {
	base, err := url.Parse(playground)
	if err != nil {
		return fmt.Errorf("-playground %q: %v", playground, err)
	}
	links := func(e Entry) (string, string) {
		q := url.Values{}
		q.Set("replay", path.Join(replays, e.ID+".json"))
		link := *base
		link.RawQuery = q.Encode()
		return link.String(), filepath.ToSlash(filepath.Join(fromReport, filepath.FromSlash(e.Replay)))
	}
	return WriteReportOf(w, s, func(f func(Entry) error) error { return Entries(dir, f) }, links)
}

// WriteReportOf is the report of standings whose games come from games
// (in the order played), each with the links links gives it: where it is
// watched, and its replay's file ("" for none).
func WriteReportOf(w io.Writer, s *Standings, games func(func(Entry) error) error, links func(Entry) (watch, file string)) error {
	order := s.Order()
	var rows []reportRow
	lo, hi := 0.0, 0.0
	for rank, i := range order {
		e := s.Entrants[i]
		r := reportRow{Rank: rank + 1, E: e, Elo: EloText(e.Elo), Low: EloText(e.EloLow), High: EloText(e.EloHigh),
			Mean: fmt.Sprintf("%.2f", e.MeanMs()), Max: fmt.Sprintf("%.2f", e.MaxMs), Reasons: e.ReasonList()}
		if e.Games > 0 {
			r.Score = fmt.Sprintf("%.1f%%", 100*e.Points/float64(e.Games))
		}
		for _, j := range order {
			r.Cells = append(r.Cells, s.Cell(i, j))
		}
		rows = append(rows, r)
		if !math.IsInf(e.EloLow, 0) {
			lo = math.Min(lo, e.EloLow)
		}
		if !math.IsInf(e.EloHigh, 0) {
			hi = math.Max(hi, e.EloHigh)
		}
	}
	chart := ratingChart(rows, lo-20, hi+20)
	data := struct {
		Title, SPRT string
		Rules       string
		Rows        []reportRow
		Chart       template.HTML
		Names       []string
		Cross       bool
		AnyReasons  bool
	}{Title: s.Title(), Rules: s.Plan.Rules(), Rows: rows, Chart: chart, Cross: s.Plan.Format != SPRTMatch}
	for _, r := range rows {
		data.AnyReasons = data.AnyReasons || len(r.Reasons) > 0
	}
	if s.Plan.Format == SPRTMatch {
		data.SPRT = s.SPRTText()
	}
	for _, i := range order {
		data.Names = append(data.Names, s.Entrants[i].Name)
	}
	if err := reportHead.Execute(w, data); err != nil {
		return err
	}
	err := games(func(e Entry) error {
		watch, file := links(e)
		return reportGame.Execute(w, map[string]any{"E": e, "Watch": watch, "File": file,
			"Result": e.Result.String(), "Scores": fmt.Sprintf("%s : %s", e.Result.Scores[0], e.Result.Scores[1])})
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, reportTail)
	return err
}

type reportRow struct {
	Rank                             int
	E                                EntrantStats
	Score, Elo, Low, High, Mean, Max string
	Cells                            []string
	Reasons                          []string
}

// ratingChart draws each entrant's rating as a dot on its 95% interval.
func ratingChart(rows []reportRow, lo, hi float64) template.HTML {
	const width, left, rowH = 760.0, 140.0, 24.0
	h := rowH*float64(len(rows)) + 40
	x := func(v float64) float64 {
		v = math.Max(lo, math.Min(hi, v))
		return left + (v-lo)/(hi-lo)*(width-left-20)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-label="ratings with 95%% intervals">`, width, h, width, h)
	step := 100.0
	for (hi-lo)/step > 8 {
		step *= 2
	}
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="10" x2="%.1f" y2="%.1f" class="grid"/><text x="%.1f" y="%.1f" class="axis">%s</text>`, x(v), x(v), h-22, x(v), h-6, EloText(v))
	}
	for k, r := range rows {
		y := 24 + rowH*float64(k)
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" class="name">%s</text>`, left-10, y+4, template.HTMLEscapeString(r.E.Name))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ci"/>`, x(r.E.EloLow), y, x(r.E.EloHigh), y)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" class="dot"><title>%s: %s [%s, %s]</title></circle>`, x(r.E.Elo), y, template.HTMLEscapeString(r.E.Name), r.Elo, r.Low, r.High)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var reportHead = template.Must(template.New("head").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d2433;background:#fafbfc}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 9px;border-bottom:1px solid #e3e6ec;text-align:right;white-space:nowrap}
th{background:#eef1f6;position:sticky;top:0}td.l,th.l{text-align:left}tr:hover td{background:#f3f6fb}
.grid{stroke:#e3e6ec}.axis{font-size:11px;fill:#6b7385;text-anchor:middle}.name{font-size:12px;text-anchor:end;fill:#1d2433}
.ci{stroke:#4a7bd0;stroke-width:3;stroke-linecap:round}.dot{fill:#e07b2a}
.win{color:#1a7f37}.loss{color:#b42318}.small{color:#6b7385;font-size:12px}
.games{max-height:640px;overflow:auto;border:1px solid #e3e6ec}
code{background:#eef1f6;padding:1px 4px;border-radius:3px}
</style></head><body>
<h1>{{.Title}}</h1>
{{if .Rules}}<p class="small">{{.Rules}}</p>{{end}}
{{if .SPRT}}<p><code style="white-space:pre-wrap">{{.SPRT}}</code></p>{{end}}
<h2>Standings</h2>
<table><tr><th>#</th><th class="l">entrant</th><th class="l">spec</th><th>points</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo</th><th>95% interval</th><th>forfeits</th><th>replaced</th><th>ms/move</th><th>longest ms</th></tr>
{{range .Rows}}<tr><td>{{.Rank}}</td><td class="l"><b>{{.E.Name}}</b></td><td class="l small">{{.E.Spec}}</td><td>{{.E.Points}}</td><td>{{.E.Games}}</td><td>{{.E.Wins}}</td><td>{{.E.Draws}}</td><td>{{.E.Losses}}</td><td>{{.Score}}</td><td>{{.Elo}}</td><td>[{{.Low}}, {{.High}}]</td><td>{{.E.Forfeits}}</td><td>{{.E.Replaced}}</td><td>{{.Mean}}</td><td>{{.Max}}</td></tr>
{{end}}</table>
<p class="small">Ratings: Bradley-Terry by maximum likelihood (draws as half points), averaging 0, each entrant with one virtual draw against a player rated 0; intervals from the likelihood's curvature.</p>
<h2>Ratings with their 95% intervals</h2>
{{.Chart}}
{{if .Cross}}<h2>Cross-table</h2><p class="small">The row's points against the column, of the games between them.</p>
<table><tr><th></th>{{range .Names}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><th class="l">{{.E.Name}}</th>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
<h2>Forfeits and replaced moves</h2>
{{if .AnyReasons}}<table><tr><th class="l">entrant</th><th class="l">reasons (count, reason)</th></tr>
{{range .Rows}}{{if .Reasons}}<tr><td class="l">{{.E.Name}}</td><td class="l small">{{range .Reasons}}{{.}}<br>{{end}}</td></tr>{{end}}{{end}}</table>{{else}}<p>None: every move of every game was the entrant's own, in time.</p>{{end}}
<h2>Games</h2>
<p class="small">"watch" opens the replay in the playground (serve it with <code>arena serve -tournament DIR</code>); "file" is the replay, which the page and the desktop open when it is dropped on them (<code>arena-desktop -replay FILE</code>).</p>
<div class="games"><table><tr><th>#</th><th class="l">game</th><th>seed</th><th class="l">P1</th><th class="l">P2</th><th class="l">result</th><th>scores</th><th>turns</th><th class="l">replay</th></tr>
`))

var reportGame = template.Must(template.New("game").Parse(`<tr><td>{{.E.Index}}</td><td class="l">{{.E.ID}}</td><td>{{.E.Seed}}</td><td class="l">{{index .E.Seats 0}}</td><td class="l">{{index .E.Seats 1}}</td><td class="l small">{{.Result}}</td><td>{{.Scores}}</td><td>{{.E.Result.Turns}}</td><td class="l"><a href="{{.Watch}}">watch</a>{{if .File}} · <a href="{{.File}}">file</a>{{end}}</td></tr>
`))

const reportTail = `</table></div>
</body></html>
`
