package ladder

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/internal/plural"
)

// The pages are plain HTML, made here: the leaderboard, a student's
// page and the upload form, each readable on a phone. A browser signs in
// with its token once (a cookie); the pages show what the token may see.

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"watch":     func(int64) string { return "" }, // each server's own: templates
	"watchAt":   func(int64, int) string { return "" },
	"pts":       func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"pct":       func(x float64) string { return fmt.Sprintf("%.0f%%", x) },
	"tolerance": func() string { return strconv.FormatFloat(analysis.Tolerance, 'f', -1, 64) },
	"base":      func() string { return "" },
	"n":         plural.S,
	"nof":       plural.Of,
	"stamp": func(rfc string) string {
		if t, err := time.Parse(time.RFC3339, rfc); err == nil {
			return t.UTC().Format("Jan 2 15:04 UTC")
		}
		return rfc
	},
	"elo": func(x float64) string {
		if math.IsNaN(x) {
			return "?"
		}
		return template.HTMLEscapeString(signed(x))
	},
	"pm":    func(lo, hi float64) string { return "±" + trimFloat((hi-lo)/2) },
	"when":  func(ms int64) string { return time.UnixMilli(ms).UTC().Format("Jan 2 15:04 UTC") },
	"until": func(t time.Time, now int64) string { return untilText(t.Sub(time.UnixMilli(now))) },
	"inc":   func(i int) int { return i + 1 },
	"list":  func(xs ...string) []string { return xs },
	"sub1":  func(x float64) float64 { return 1 - x },
	"dec":   func(i int) int { return i - 1 },
	"ago":   func(ms, now int64) string { return agoText(time.Duration(now-ms) * time.Millisecond) },
}).Parse(`
{{define "head"}}<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>
*{box-sizing:border-box} body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1000px;padding:12px;background:#0f172a;color:#e2e8f0}
a{color:#a78bfa} table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 8px;text-align:left;border-bottom:1px solid #334155;vertical-align:top} th{color:#94a3b8;font-weight:600}
.num{text-align:right;white-space:nowrap} .nw{white-space:nowrap} .wrap{overflow-x:auto} .dim{color:#94a3b8} .bad{color:#f87171} .ok{color:#4ade80} .warn{color:#fbbf24}
.reason{overflow-wrap:anywhere;max-width:460px} .mine{background:#1e293b}
input,button,select{font:inherit;padding:10px;min-height:44px;border-radius:8px;border:1px solid #475569;background:#1e293b;color:#e2e8f0}
button{background:#a78bfa;color:#0f172a;border:0;font-weight:600;white-space:nowrap} button.small{min-height:36px;padding:6px 10px} form.line{display:flex;gap:8px;flex-wrap:wrap;align-items:center}
form.inline{display:inline} nav{display:flex;gap:6px 16px;flex-wrap:wrap;align-items:center;margin-bottom:8px} nav a{display:inline-block;padding:10px 0}
.banner{background:#1e293b;border-left:4px solid #a78bfa;padding:8px 12px;margin:8px 0;border-radius:4px}
.pager{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin:8px 0} svg text{fill:#94a3b8;font-size:11px}
@media (max-width:600px){.wide{display:none}
 table.cards,table.cards tbody{display:block;width:auto}
 table.cards tr:first-child{display:none} table.cards tr{display:flex;flex-wrap:wrap;column-gap:16px;border:1px solid #334155;border-radius:8px;margin:8px 0;padding:4px 10px}
 table.cards td{display:block;border:0;padding:3px 0;text-align:left;white-space:normal} table.cards td:first-child{flex-basis:100%}
 table.cards td[data-label]::before{content:attr(data-label) ": ";color:#94a3b8}
 table.cards td.wide{display:none}}
</style><script src="{{base}}/ladder.js" defer></script></head>{{end}}

{{define "nav"}}<nav>{{if .Course}}<a href="/">Ladders</a>{{else}}{{if .Home}}<a href="{{.Home}}">All ladders</a>{{end}}<a href="{{base}}/">Leaderboard</a>{{if .ID.Student}}<a href="{{base}}/students/{{.ID.Student}}">My page</a><a href="{{base}}/submit">Submit</a>{{end}}{{if eq .ID.Role "staff"}}<a href="{{base}}/staff">Staff</a>{{end}}{{end}}
<form method="post" action="{{base}}/signout"><button type="submit" class="small">Sign out</button></form></nav>
{{if .Frozen}}<p class="banner">Submissions are closed{{if .Deadline}} (the deadline was {{when .Deadline.At.UnixMilli}}){{end}}: the final round robin decides the ranking.</p>
{{else if .Deadline}}<p class="banner">Deadline: <b>{{when .Deadline.At.UnixMilli}}</b>{{if .Deadline.Grace}} (submissions taken until {{when .Deadline.Closes.UnixMilli}}){{end}}, <b data-until="{{.Deadline.Closes.UnixMilli}}">{{until .Deadline.Closes .Now}}</b>. Then the ladder closes and a final round robin ranks everyone's last ready version.</p>{{end}}{{end}}

{{define "signin"}}{{template "head" "Ladder: sign in"}}<body>
<h1>Class ladder</h1><p>Sign in with the token your course staff gave you.</p>
<form class="line" method="post" action="{{base}}/signin"><input name="token" type="password" autocomplete="current-password" placeholder="token" required size="36"><button type="submit">Sign in</button></form>
{{if .}}<p class="bad">{{.}}</p>{{end}}</body></html>{{end}}

{{define "leaderboard"}}{{template "head" "Ladder"}}<body>{{template "nav" .V}}
<h1>{{.S.Title}} ladder{{if .S.Board}} <span class="dim">({{.S.Board}})</span>{{end}}</h1>
<p class="dim">{{n .S.Played "game"}} played{{if .S.Checking}}; {{n .S.Checking "version"}} being checked{{end}}. Ratings: Bradley-Terry on the Elo scale, fitted over every game of the versions that played, with their 95% interval; a rating is provisional (*), and ranked after the established ones, until its interval is narrower than {{.S.Width}} Elo or it has {{.S.ProvisionalGames}} games. "=" marks a tie.</p>
{{if .Sections}}<form class="line" method="get" action="{{base}}/"><label>Section <select name="section"><option value="">all</option>{{range .Sections}}<option{{if eq . $.Section}} selected{{end}}>{{.}}</option>{{end}}</select></label><button type="submit" class="small">Show</button></form>{{end}}
<table class="cards"><tr><th class="num">#</th><th>name</th><th class="num">rating</th><th class="num">games</th><th class="nw">W-D-L</th>{{if eq .V.ID.Role "staff"}}<th class="wide">section</th>{{end}}<th class="wide">last submission</th></tr>
{{range .S.Ranked}}<tr{{if .Mine}} class="mine"{{end}}><td class="num" data-label="rank">{{if .Tied}}={{end}}{{.Rank}}</td><td>{{if call $.Open .Name}}<a href="{{base}}/students/{{.Name}}">{{.Shown}}</a>{{else}}{{.Shown}}{{end}} <span class="dim">v{{.Version}}</span></td>
<td class="num" data-label="rating">{{if .Rated}}{{elo .Rating}} <span class="dim">{{pm .Low .High}}</span>{{else}}<span class="dim">unrated</span>{{end}}{{if and .Rated .Provisional}}<span class="dim" title="provisional: ranked after the established ratings until its interval is narrow enough or it has played enough games">*<span class="wide"> (prov.)</span></span>{{end}}</td><td class="num" data-label="games">{{.Games}}</td><td class="nw" data-label="W-D-L">{{.Wins}}-{{.Draws}}-{{.Losses}}</td>{{if eq $.V.ID.Role "staff"}}<td class="wide">{{.Section}}</td>{{end}}<td class="wide dim">{{when .Submitted}}</td></tr>
{{else}}<tr><td colspan="6" class="dim">No version plays yet.</td></tr>{{end}}</table>
{{if .S.Hidden}}<p class="dim">{{nof .S.Hidden "other entry" "other entries"}} not shown: the staff show the top of the board and the three entries just ahead of yours.</p>{{end}}
{{if .S.Refused}}<h2>Refused versions</h2><ul>{{range .S.Refused}}<li>{{.Name}} v{{.Version}}: <span class="bad reason">{{.Reason}}</span></li>{{end}}</ul>{{end}}
</body></html>{{end}}

{{define "student"}}{{template "head" .P.Name}}<body data-watch="{{base}}/api/ladder/students/{{.P.Name}}">{{template "nav" .V}}
<h1>{{.Shown}}</h1>
{{if .Checking}}<p class="banner checking"><b>Checking your version.</b> It plays one game against the built-in random bot on one of the ladder's workers, in a box of its own; once it has played it without crashing, timing out or breaking the rules, it joins the ladder and its games begin. {{if .Typical}}Checks here have lately taken about {{.Typical}}{{else}}It usually takes under a minute{{end}} ({{n .Queued "game"}} queued); this page shows the result on its own.</p>{{end}}
<h2>Versions</h2><table class="cards"><tr><th>version</th><th class="wide">submitted</th><th>state</th><th class="num">rating</th><th class="num">games</th><th class="nw">W-D-L</th></tr>
{{range .P.Versions}}<tr><td data-label="version">v{{.Number}} {{.File}}{{if .Command}} <span class="dim"><code>{{.Command}}</code></span>{{end}}{{if .Ranked}} <b>ranked</b>{{end}}</td><td class="dim wide">{{when .Submitted}}</td>
<td data-label="state" class="reason">{{if eq .State "refused"}}<span class="bad">refused: {{.Reason}}</span>{{else if eq .State "checking"}}<span class="warn checking">checking</span>{{else}}<span class="ok">{{.State}}</span>{{end}}</td>
<td class="num" data-label="rating">{{if .Rated}}{{elo .Rating}} <span class="dim">{{pm .Low .High}}</span>{{else}}<span class="dim">none yet</span>{{end}}</td><td class="num" data-label="games">{{.Games}}</td><td class="nw" data-label="W-D-L">{{.Wins}}-{{.Draws}}-{{.Losses}}</td></tr>
{{if .Faults}}<tr><td colspan="6"><details><summary class="bad">{{n (len .Faults) "fault"}}: crashes, time-outs and forfeits</summary><ul>{{range .Faults}}<li class="bad reason">{{.}}</li>{{end}}</ul></details></td></tr>{{end}}
{{end}}</table>
{{if .Chart}}<h2>Rating by version</h2><div class="wrap">{{.Chart}}</div>{{end}}
{{with .Lessons}}<h2 id="lessons">Where your versions lose</h2>
<p class="dim">Each of your ladder games is analysed once the server has a core to spare ({{.Reported}} of {{n .Games "game"}} so far): every decision you made, against the best option the game's search finds, in expected points (1 a win, ½ a draw). An inaccuracy lost 0.05 or more, a mistake 0.10, a blunder 0.20 (<a href="https://github.com/arena-playground/arena/blob/main/docs/analysis.md">how</a>).</p>
{{if .Versions}}<table class="cards"><tr><th>version</th><th class="num">games</th><th class="num">accuracy</th><th class="num">blunders a game</th><th class="num">mistakes a game</th><th class="num">points lost a game</th></tr>
{{range .Versions}}<tr><td data-label="version">v{{.Number}}</td><td class="num" data-label="games">{{.Games}}</td><td class="num" data-label="accuracy">{{pct .Accuracy}}</td><td class="num" data-label="blunders a game">{{pts .Blunders}}</td><td class="num" data-label="mistakes a game">{{pts .Mistakes}}</td><td class="num" data-label="points lost a game">{{pts .Lost}}</td></tr>{{end}}</table>
<table class="cards"><tr><th>phase</th><th class="num">decisions that lost</th><th class="num">blunders</th><th class="num">mistakes</th><th class="num">points lost</th></tr>
{{range .Phases}}<tr><td data-label="phase">{{.Group}}</td><td class="num" data-label="decisions that lost">{{.Decisions}}</td><td class="num" data-label="blunders">{{.Blunders}}</td><td class="num" data-label="mistakes">{{.Mistakes}}</td><td class="num" data-label="points lost">{{pts .Lost}}</td></tr>{{end}}</table>
{{if .Kinds}}<table class="cards kinds"><tr><th>kind of move</th><th class="num">decisions that lost</th><th class="num">blunders</th><th class="num">mistakes</th><th class="num">points lost</th></tr>
{{range .Kinds}}<tr><td data-label="kind of move">{{.Group}}</td><td class="num" data-label="decisions that lost">{{.Decisions}}</td><td class="num" data-label="blunders">{{.Blunders}}</td><td class="num" data-label="mistakes">{{.Mistakes}}</td><td class="num" data-label="points lost">{{pts .Lost}}</td></tr>{{end}}</table>{{end}}
<h3>Your costliest decisions</h3><table class="cards costliest"><tr><th>game</th><th>version</th><th>turn</th><th>you played</th><th>best</th><th class="num">lost</th><th class="wide">phase; kind of move</th></tr>
{{range .Costliest}}<tr><td data-label="game">{{if $.Play}}<a href="{{watchAt .Game .Turn}}" title="the analysis board at this decision">game {{.Game}}</a>{{else}}{{.Game}}{{end}}</td><td data-label="version">v{{.Version}} <span class="dim">as {{.Side}}</span></td><td data-label="turn">{{.Turn}}</td><td data-label="you played" class="bad">{{.Move}} <span class="dim">{{.Label}}{{if .Exact}}, exact{{end}}</span></td><td data-label="best">{{.Best}}</td><td class="num" data-label="lost">{{pts .Lost}}</td><td class="wide dim">{{.Phase}}{{if .Kind}}; {{.Kind}}{{end}}</td></tr>{{end}}</table>
{{else}}<p class="dim">No game of yours is analysed yet.</p>{{end}}
{{range .Suites}}<h3 id="suite-v{{.Version}}">Your past mistakes, played by v{{.Version}}: {{.Passed}} of {{n (len .Drills) "drill"}} passed</h3>
<p class="dim">Each position is given to v{{.Version}} on its game's seed; it passes within {{tolerance}} expected points of the best option (the best result where both are proved).</p>
<table class="cards suite"><tr><th>game</th><th>turn</th><th>then</th><th>v{{.Version}} plays</th><th class="num">lost</th><th>verdict</th></tr>
{{range .Drills}}<tr><td data-label="game">{{if $.Play}}<a href="{{watchAt .Game .Turn}}" title="the analysis board at this decision">game {{.Game}}</a>{{else}}{{.Game}}{{end}}</td><td data-label="turn">{{.Turn}} <span class="dim">as {{.Side}}</span></td><td data-label="then">v{{.Version}}: {{.Move}} <span class="dim">lost {{pts .Lost}}</span></td><td data-label="now plays">{{if .Error}}<span class="dim">{{.Error}}</span>{{else if .Answer.Failed}}<span class="bad">{{.Answer.Failed}}</span>{{else}}{{.Answer.Move}}{{end}}</td><td class="num" data-label="lost">{{if not .Error}}{{if not .Answer.Failed}}{{pts .Answer.Lost}}{{end}}{{end}}</td><td data-label="verdict">{{if .Error}}<span class="dim">not played</span>{{else if .Answer.Passed}}passed{{else}}<span class="bad">failed</span>{{end}}</td></tr>{{end}}</table>{{end}}{{end}}
{{if .Pseudonyms}}<h2>Your name on the leaderboard</h2><p class="dim">Your classmates see you by a pseudonym: {{if .Pseudonym}}<b>{{.Pseudonym}}</b>{{else}}none chosen yet, so a number{{end}}.</p>
<form class="line" method="post" action="{{base}}/api/ladder/pseudonym"><input name="pseudonym" maxlength="24" placeholder="a pseudonym" value="{{.Pseudonym}}"><button type="submit">Keep it</button></form>{{end}}
<h2>By opponent</h2><table class="cards"><tr><th>opponent</th><th class="num">games</th><th class="nw">W-D-L</th></tr>
{{range .P.Matchups}}<tr><td data-label="opponent"><a href="?opponent={{.Opponent}}#games">{{.Opponent}}</a></td><td class="num" data-label="games">{{.Games}}</td><td class="nw" data-label="W-D-L">{{.Wins}}-{{.Draws}}-{{.Losses}}</td></tr>{{else}}<tr><td colspan="3" class="dim">No games yet.</td></tr>{{end}}</table>
<h2 id="games">Games{{if .Opponent}} against {{.Opponent}}{{end}} <span class="dim">({{.Total}})</span></h2>
<form class="line" method="get" action="#games"><label>Opponent <select name="opponent"><option value="">any</option>{{range .P.Matchups}}<option{{if eq .Opponent $.Opponent}} selected{{end}}>{{.Opponent}}</option>{{end}}</select></label>
<label>Result <select name="result"><option value="">any</option>{{range $r := .Results}}<option{{if eq $r $.Result}} selected{{end}}>{{$r}}</option>{{end}}</select></label><button type="submit" class="small">Show</button></form>
<table class="cards"><tr><th>game</th><th>version</th><th>opponent</th><th>result</th><th class="wide">why</th></tr>
{{range .Games}}{{$g := .}}<tr><td data-label="game">{{if $.Play}}{{with index $.Lessons.Worst $g.ID}}<a href="{{watchAt $g.ID .}}" title="opens at your costliest decision, on the analysis board">watch {{$g.ID}}</a>{{else}}<a href="{{watch $g.ID}}">watch {{$g.ID}}</a>{{end}} <a class="dim" href="{{base}}{{.Replay}}" download="ladder-game-{{.ID}}.json" title="download the replay">⤓</a>{{else}}<a href="{{base}}{{.Replay}}" download="ladder-game-{{.ID}}.json">{{.ID}}</a>{{end}}</td><td data-label="version">v{{.Version}}{{if eq .Seat "check"}} <span class="dim">(its check)</span>{{else}} <span class="dim">as {{.Seat}}</span>{{end}}</td><td data-label="opponent">{{.Opponent}}</td><td data-label="result">{{.Result}}</td><td class="wide dim reason">{{.Reason}}</td></tr>{{else}}<tr><td colspan="5" class="dim">No game here.</td></tr>{{end}}</table>
{{if gt .Pages 1}}<div class="pager">{{if gt .Page 1}}<a href="{{.PageURL (dec .Page)}}">← newer</a>{{end}}<span class="dim">page {{.Page}} of {{.Pages}}</span>{{if lt .Page .Pages}}<a href="{{.PageURL (inc .Page)}}">older →</a>{{end}}</div>{{end}}
</body></html>{{end}}

{{define "submit"}}{{template "head" "Submit a version"}}<body>{{template "nav" .}}
<h1>Submit a version</h1>
<p>A <code>.go</code> file (a go: bot, as <code>arena template</code> writes one), or your program's folder as a <code>.zip</code>, <code>.tar</code> or <code>.tar.gz</code> with the command that runs it in that folder (<code>python3 agent.py</code>, or <code>py:student_agent.py</code> for a Colosseum agent). At most 16 MB, and 12 versions an hour.</p>
<p>Each version is first <b>checked</b>: it plays one game against the built-in random bot, usually within a minute. A version that crashes, times out or breaks the rules there is refused, with the reason on your page; one that passes joins the ladder, and your latest ready version is the one ranked.</p>
<form method="post" action="{{base}}/api/ladder/submit" enctype="multipart/form-data">
<p><input type="file" name="file" required></p><p><input name="command" placeholder="command, for a program" size="40"></p>
<input type="hidden" name="page" value="1"><p><button type="submit">Submit</button></p></form></body></html>{{end}}

{{define "token"}}{{template "head" "A new token"}}<body><nav><a href="{{base}}/staff">← Staff</a></nav>
<h1>A new token for {{.Name}}</h1><p>Their old token no longer works; everyone else's still does. This is the one time it is shown: give it to them now.</p>
<p><code style="font-size:20px;user-select:all">{{.Token}}</code></p></body></html>{{end}}
`))

// signed writes a rating with its sign, to whole points.
func signed(x float64) string {
	r := math.Round(x)
	if r > 0 {
		return "+" + trimFloat(r)
	}
	return trimFloat(r)
}

func trimFloat(x float64) string { return template.HTMLEscapeString(formatInt(math.Round(x))) }

func formatInt(x float64) string {
	if x == 0 {
		return "0"
	}
	neg := x < 0
	if neg {
		x = -x
	}
	var b []byte
	for n := int64(x); n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	if neg {
		return "−" + string(b)
	}
	return string(b)
}

// templates are the pages as this server writes them: every address
// under its Base, and a game's link to its playground (or, with none,
// to its replay). The package's pages are cloned, never executed: an
// html/template is cloned only before it first runs.
func (s *Server) templates() *template.Template {
	s.pagesOnce.Do(func() {
		s.pages = template.Must(pages.Clone()).Funcs(template.FuncMap{
			"base": func() string { return s.Base },
			"watch": func(id int64) string {
				if s.Playground == nil {
					return s.Base + fmt.Sprintf("/api/ladder/games/%d/replay", id)
				}
				return s.Base + watchURL(s.Base, id)
			},
			"watchAt": func(id int64, turn int) string {
				if s.Playground == nil {
					return s.Base + fmt.Sprintf("/api/ladder/games/%d/replay", id)
				}
				return s.Base + watchAtURL(s.Base, id, turn)
			},
		})
	})
	return s.pages
}

// render makes the page whole before a byte is sent: a template's error is
// then a clean 500, and a reader who leaves mid-page is not answered twice.
func (s *Server) render(w http.ResponseWriter, name string, data any) {
	var page bytes.Buffer
	if err := s.templates().ExecuteTemplate(&page, name, data); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(page.Bytes())
}

// untilText is a duration as a countdown says it: "in 2 d 03:04:05".
func untilText(d time.Duration) string {
	if d <= 0 {
		return "now"
	}
	s := int64(d / time.Second)
	out := fmt.Sprintf("%02d:%02d:%02d", s%86400/3600, s%3600/60, s%60)
	if days := s / 86400; days > 0 {
		out = fmt.Sprintf("%d d %s", days, out)
	}
	return "in " + out
}

// agoText says how long ago something was: "just now", "40 s ago",
// "3 min ago", "2 h ago", "5 d ago".
func agoText(d time.Duration) string {
	switch {
	case d < 5*time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d d ago", int(d.Hours()/24))
}

// view is what every page's header reads: who reads it, and the
// deadline it counts down to.
type view struct {
	// Course: the course's page, above its ladders; Home: the course's
	// page, from one of its ladders ("" for a ladder alone).
	Course   bool
	Home     string
	ID       Identity
	Deadline *Deadline
	Frozen   bool
	Now      int64
}

func (s *Server) view(id Identity) view {
	v := view{ID: id, Now: time.Now().UnixMilli()}
	if s.Home != "" && s.Home != s.Base+"/" {
		v.Home = s.Home
	}
	if d, ok := s.Store.Deadline(); ok {
		v.Deadline = &d
	}
	frozen, _ := s.Store.Meta("frozen")
	v.Frozen = frozen != ""
	return v
}

// leaderboard is the ladder's front page; the sign-in form without a
// token. ?section= shows one section's entries.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil {
		s.render(w, "signin", "")
		return
	}
	st, err := s.Store.Standings(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	entries, err := s.Store.Entries(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	section := r.URL.Query().Get("section")
	var sections []string
	for _, e := range entries {
		for _, sec := range strings.Split(e.Section, ", ") {
			if sec != "" && !slices.Contains(sections, sec) {
				sections = append(sections, sec)
			}
		}
	}
	slices.Sort(sections)
	board := st.View(id, entries, s.Pseudonyms, s.Top)
	if s.Title != "" {
		board.Title = s.Title
	}
	if section != "" {
		var rows []Row
		for _, row := range board.Ranked {
			if slices.Contains(strings.Split(entries[row.Name].Section, ", "), section) {
				rows = append(rows, row)
			}
		}
		board.Ranked = rows
	}
	if s.Pseudonyms && id.Role != Staff {
		sections = nil // a section would tell who a pseudonym is
	}
	s.render(w, "leaderboard", struct {
		V        view
		S        *Standings
		Open     func(string) bool
		Sections []string
		Section  string
	}{s.view(id), board, id.MayRead, sections, section})
}

// gamesPerPage are the games a student's page lists at a time.
const gamesPerPage = 25

// studentData is a student's page.
type studentData struct {
	V                  view
	P                  *StudentPage
	Shown              string
	Play               bool
	Checking           bool
	Queued             int
	Typical            string // how long the ladder's checks take lately
	Chart              template.HTML
	Pseudonyms         bool
	Pseudonym          string
	Games              []GameLine
	Lessons            *Lessons
	Opponent, Result   string
	Results            []string
	Page, Pages, Total int
}

// PageURL is the page's address at page p, with its filter.
func (d *studentData) PageURL(p int) string {
	return fmt.Sprintf("?opponent=%s&result=%s&page=%d#games", urlQuery(d.Opponent), urlQuery(d.Result), p)
}

// studentPage is a student's page: their own, or any for the staff.
// ?opponent= and ?result= filter its games, ?page= pages them.
func (s *Server) studentPage(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil {
		s.render(w, "signin", "")
		return
	}
	p, ok := s.readStudent(w, r, id)
	if !ok {
		return
	}
	name, entries := r.PathValue("name"), s.rename(r, id, p)
	q := r.URL.Query()
	d := &studentData{V: s.view(id), P: p, Shown: entries[name].Display, Play: s.Playground != nil, Chart: ratingChart(p.Versions),
		Pseudonyms: s.Pseudonyms, Pseudonym: entries[name].Pseudonym, Opponent: q.Get("opponent"), Result: q.Get("result"),
		Results: []string{"win", "draw", "loss", "failed"}}
	if d.Shown == "" {
		d.Shown = name
	}
	for _, v := range p.Versions {
		d.Checking = d.Checking || v.State == Checking
	}
	if d.Checking {
		st, _ := s.Store.Standings(r.Context())
		if st != nil {
			d.Queued = st.Queued
		}
		if typical, _ := s.Store.TypicalCheck(r.Context()); typical >= time.Second {
			d.Typical = typical.Round(time.Second).String()
		} else if typical > 0 {
			d.Typical = "a second"
		}
	}
	var games []GameLine
	for _, g := range p.Games {
		if (d.Opponent == "" || g.Opponent == d.Opponent || strings.HasPrefix(g.Opponent, d.Opponent+" v")) && (d.Result == "" || g.Result == d.Result) {
			games = append(games, g)
		}
	}
	d.Total = len(games)
	d.Pages = max(1, (len(games)+gamesPerPage-1)/gamesPerPage)
	d.Page, _ = strconv.Atoi(q.Get("page"))
	d.Page = min(max(d.Page, 1), d.Pages)
	d.Games = games[min(len(games), (d.Page-1)*gamesPerPage):min(len(games), d.Page*gamesPerPage)]
	if d.Lessons, err = s.Store.Lessons(r.Context(), p.Name); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.render(w, "student", d)
}

// rename names a student page's opponents as its reader may see them:
// by their roster names, or by their pseudonyms where the ladder shows
// pseudonyms and the reader is a student. It returns the entries' names.
func (s *Server) rename(r *http.Request, id Identity, p *StudentPage) map[string]EntryInfo {
	entries, _ := s.Store.Entries(r.Context())
	pseudonyms := s.Pseudonyms && id.Role != Staff
	shown := func(label string) string {
		name, version, _ := strings.Cut(label, " v")
		e, ok := entries[name]
		if !ok {
			return label // random
		}
		if version != "" {
			return e.Shown(pseudonyms) + " v" + version
		}
		return e.Shown(pseudonyms)
	}
	for i := range p.Matchups {
		p.Matchups[i].Opponent = shown(p.Matchups[i].Opponent)
	}
	for i := range p.Games {
		p.Games[i].Opponent = shown(p.Games[i].Opponent)
	}
	return entries
}

// ratingChart draws each rated version's rating and its interval, in
// the order submitted, as a small SVG (no script: the pages' policy).
func ratingChart(vs []VersionLine) template.HTML {
	var rated []VersionLine
	for _, v := range vs {
		if v.Rated {
			rated = append(rated, v)
		}
	}
	if len(rated) < 2 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range rated {
		lo, hi = math.Min(lo, v.Low), math.Max(hi, v.High)
	}
	if hi-lo < 50 {
		lo, hi = lo-25, hi+25
	}
	const width, height, left, pad = 600, 160, 44, 14
	step := float64(width-left-pad) / float64(len(rated)-1)
	y := func(e float64) float64 { return pad + (hi-e)/(hi-lo)*(height-2*pad) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %d %d" width="100%%" style="max-width:%dpx" role="img" aria-label="rating by version">`, width, height+14, width)
	fmt.Fprintf(&b, `<text x="0" y="%.0f">%s</text><text x="0" y="%.0f">%s</text>`, y(hi)+4, signed(hi), y(lo)+4, signed(lo))
	var line []string
	for i, v := range rated {
		x := left + float64(i)*step
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#475569" stroke-width="3"/>`, x, x, y(v.Low), y(v.High))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="#a78bfa"><title>v%d: %s (%s to %s)</title></circle>`, x, y(v.Rating), v.Number, signed(v.Rating), signed(v.Low), signed(v.High))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">v%d</text>`, x, height+10, v.Number)
		line = append(line, fmt.Sprintf("%.1f,%.1f", x, y(v.Rating)))
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#a78bfa" stroke-width="1.5"/></svg>`, strings.Join(line, " "))
	return template.HTML(b.String())
}

func (s *Server) submitPage(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil || id.Role != Student {
		s.render(w, "signin", "")
		return
	}
	s.render(w, "submit", s.view(id))
}

// signIn keeps a valid token in a cookie: HttpOnly (no script reads it),
// SameSite=Strict (no other site's page sends it), Secure over HTTPS.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	if why := crossSite(r); why != "" {
		fail(w, http.StatusForbidden, why)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		// A body cut short: too slow (bodyWait), too long, or not a form.
		fail(w, http.StatusRequestTimeout, "the sign-in's form did not arrive whole: "+err.Error())
		return
	}
	tok := r.FormValue("token")
	if _, err := s.token(r, tok); err != nil {
		why := "That token is not one this ladder gave."
		status := http.StatusUnauthorized
		if errors.Is(err, errTooManyFailures) {
			why, status = "Too many wrong tokens from this address: try again in a minute.", http.StatusTooManyRequests
		}
		w.WriteHeader(status)
		s.render(w, "signin", why)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https", MaxAge: 180 * 24 * 3600})
	http.Redirect(w, r, s.home(), http.StatusSeeOther)
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	if why := crossSite(r); why != "" {
		fail(w, http.StatusForbidden, why)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, s.home(), http.StatusSeeOther)
}
