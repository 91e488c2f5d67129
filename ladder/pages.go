package ladder

import (
	"errors"
	"html/template"
	"math"
	"net/http"
	"time"

	"github.com/arena-playground/arena/internal/plural"
)

// The pages are plain HTML, made here: the leaderboard, a student's
// page and the upload form, each readable on a phone. A browser signs in
// with its token once (a cookie); the pages show what the token may see.

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"watch": watchURL,
	"n":     plural.S,
	"elo": func(x float64) string {
		if math.IsNaN(x) {
			return "?"
		}
		return template.HTMLEscapeString(signed(x))
	},
	"pm":   func(lo, hi float64) string { return "±" + trimFloat((hi-lo)/2) },
	"when": func(ms int64) string { return time.UnixMilli(ms).UTC().Format("Jan 2 15:04 UTC") },
}).Parse(`
{{define "head"}}<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>
body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:12px;background:#0f172a;color:#e2e8f0}
a{color:#a78bfa} table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 8px;text-align:left;border-bottom:1px solid #334155} th{color:#94a3b8;font-weight:600}
.num{text-align:right;white-space:nowrap} .nw{white-space:nowrap} .wrap{overflow-x:auto} .dim{color:#94a3b8} .bad{color:#f87171}
input,button{font:inherit;padding:10px;min-height:44px;border-radius:8px;border:1px solid #475569;background:#1e293b;color:#e2e8f0}
button{background:#a78bfa;color:#0f172a;border:0;font-weight:600} form.line{display:flex;gap:8px;flex-wrap:wrap}
nav{display:flex;gap:16px;flex-wrap:wrap;align-items:center;margin-bottom:8px} nav a{display:inline-block;padding:10px 0}
@media (max-width:600px){.wide{display:none}}
</style></head><body>{{end}}

{{define "nav"}}<nav><a href="/">Leaderboard</a>{{if .Student}}<a href="/students/{{.Student}}">My page</a><a href="/submit">Submit</a>{{end}}
<form method="post" action="/signout"><button type="submit">Sign out</button></form></nav>{{end}}

{{define "signin"}}{{template "head" "Ladder: sign in"}}
<h1>Class ladder</h1><p>Sign in with the token your course staff gave you.</p>
<form class="line" method="post" action="/signin"><input name="token" type="password" autocomplete="current-password" placeholder="token" required size="36"><button type="submit">Sign in</button></form>
{{if .}}<p class="bad">{{.}}</p>{{end}}</body></html>{{end}}

{{define "leaderboard"}}{{template "head" "Ladder"}}{{template "nav" .ID}}
<h1>{{.S.Title}} ladder{{if .S.Board}} <span class="dim">({{.S.Board}})</span>{{end}}</h1>
<p class="dim">{{n .S.Played "game"}} played{{if .S.Checking}}; {{n .S.Checking "version"}} being checked{{end}}{{if .S.Frozen}}; <b>submissions are closed</b>{{end}}. Ratings: Bradley-Terry on the Elo scale, fitted over every game of the versions that played, with their 95% interval; a rating is provisional, and ranked after the established ones, until its interval is narrower than {{.S.Width}} Elo or it has {{.S.ProvisionalGames}} games. "=" marks a tie, "*" a provisional rating.</p>
<div class="wrap"><table><tr><th class="num">#</th><th>name</th><th class="num">rating</th><th class="num">games</th><th class="nw">W-D-L</th><th class="wide">last submission</th></tr>
{{range .S.Ranked}}<tr><td class="num">{{if .Tied}}={{end}}{{.Rank}}</td><td>{{if call $.Open .Name}}<a href="/students/{{.Name}}">{{.Name}}</a>{{else}}{{.Name}}{{end}} <span class="dim">v{{.Version}}</span></td>
<td class="num">{{if .Rated}}{{elo .Rating}} <span class="dim">{{pm .Low .High}}</span>{{else}}<span class="dim">unrated</span>{{end}}{{if and .Rated .Provisional}}<span class="dim" title="provisional: ranked after the established ratings until its interval is narrow enough or it has played enough games">*<span class="wide"> (prov.)</span></span>{{end}}</td><td class="num">{{.Games}}</td><td class="nw">{{.Wins}}-{{.Draws}}-{{.Losses}}</td><td class="wide dim">{{when .Submitted}}</td></tr>
{{else}}<tr><td colspan="6" class="dim">No version plays yet.</td></tr>{{end}}</table></div>
{{if .S.Refused}}<h2>Refused versions</h2><ul>{{range .S.Refused}}<li>{{.Name}} v{{.Version}}: <span class="bad">{{.Reason}}</span></li>{{end}}</ul>{{end}}
</body></html>{{end}}

{{define "student"}}{{template "head" .P.Name}}{{template "nav" .ID}}
<h1>{{.P.Name}}</h1>
<h2>Versions</h2><div class="wrap"><table><tr><th>version</th><th class="wide">submitted</th><th>state</th><th class="num">rating</th><th class="num">games</th><th class="nw">W-D-L</th></tr>
{{range .P.Versions}}<tr><td>v{{.Number}} <span class="dim wide">{{.Kind}} {{.Digest}}</span>{{if .Ranked}} <b>ranked</b>{{end}}</td><td class="dim wide">{{when .Submitted}}</td>
<td>{{if eq .State "refused"}}<span class="bad">refused: {{.Reason}}</span>{{else}}{{.State}}{{end}}</td>
<td class="num">{{if .Rated}}{{elo .Rating}} <span class="dim">{{pm .Low .High}}</span>{{end}}</td><td class="num">{{.Games}}</td><td class="nw">{{.Wins}}-{{.Draws}}-{{.Losses}}</td></tr>
{{if .Faults}}<tr><td colspan="6"><ul>{{range .Faults}}<li class="bad">{{.}}</li>{{end}}</ul></td></tr>{{end}}
{{end}}</table></div>
<h2>Matchups</h2><div class="wrap"><table><tr><th>opponent</th><th class="num">games</th><th class="nw">W-D-L</th></tr>
{{range .P.Matchups}}<tr><td>{{.Opponent}}</td><td class="num">{{.Games}}</td><td class="nw">{{.Wins}}-{{.Draws}}-{{.Losses}}</td></tr>{{else}}<tr><td colspan="3" class="dim">No games yet.</td></tr>{{end}}</table></div>
<h2>Games</h2><div class="wrap"><table><tr><th>game</th><th class="wide">version</th><th>seat</th><th>opponent</th><th>result</th><th class="wide">why</th></tr>
{{range .P.Games}}<tr><td>{{if $.Play}}<a href="{{watch .ID}}">{{.ID}}</a> <a class="dim" href="{{.Replay}}" download="ladder-game-{{.ID}}.json" title="download the replay">⤓</a>{{else}}<a href="{{.Replay}}" download="ladder-game-{{.ID}}.json">{{.ID}}</a>{{end}}</td><td class="wide">v{{.Version}}</td><td>{{.Seat}}</td><td>{{.Opponent}}</td><td>{{.Result}}</td><td class="wide dim">{{.Reason}}</td></tr>{{end}}</table></div>
</body></html>{{end}}

{{define "submit"}}{{template "head" "Submit a version"}}{{template "nav" .}}
<h1>Submit a version</h1>
<p>A <code>.go</code> file (a go: bot, as <code>arena template</code> writes one), or your program's folder as a <code>.zip</code>, <code>.tar</code> or <code>.tar.gz</code> with the command that runs it in that folder (<code>python3 agent.py</code>, or <code>py:student_agent.py</code> for a Colosseum agent). At most 16 MB; each version first plays one game against random, and a version that crashes, times out or forfeits there is refused with the reason.</p>
<form method="post" action="/api/ladder/submit" enctype="multipart/form-data">
<p><input type="file" name="file" required></p><p><input name="command" placeholder="command, for a program" size="40"></p>
<input type="hidden" name="page" value="1"><p><button type="submit">Submit</button></p></form></body></html>{{end}}
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

func render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
	}
}

// leaderboard is the ladder's front page; the sign-in form without a
// token.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil {
		render(w, "signin", "")
		return
	}
	st, err := s.Store.Standings(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	render(w, "leaderboard", struct {
		ID   Identity
		S    *Standings
		Open func(string) bool
	}{id, st.For(id), id.MayRead})
}

// studentPage is a student's page: their own, or any for the staff.
func (s *Server) studentPage(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil {
		render(w, "signin", "")
		return
	}
	name := r.PathValue("name")
	if !id.MayRead(name) {
		fail(w, http.StatusForbidden, "a student sees their own page only")
		return
	}
	p, err := s.Store.StudentPage(r.Context(), name)
	if err != nil {
		fail(w, http.StatusNotFound, err.Error())
		return
	}
	render(w, "student", struct {
		ID   Identity
		P    *StudentPage
		Play bool
	}{id, p, s.Playground != nil})
}

func (s *Server) submitPage(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil || id.Role != Student {
		render(w, "signin", "")
		return
	}
	render(w, "submit", id)
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
		render(w, "signin", why)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https", MaxAge: 180 * 24 * 3600})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	if why := crossSite(r); why != "" {
		fail(w, http.StatusForbidden, why)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
