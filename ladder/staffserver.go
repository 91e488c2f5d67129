package ladder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The staff's routes: their page, and what its buttons do (each also an
// API for arena ladder's commands). A button's form posts and comes back
// to the page; a program's request gets JSON.

// fromPage: the request is a form of the staff page, answered by going
// back to it.
func fromPage(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data"
}

// backToStaff answers a page's form: to the staff page, with a note.
func (s *Server) backToStaff(w http.ResponseWriter, r *http.Request, note string) {
	http.Redirect(w, r, s.Base+"/staff?note="+urlQuery(note)+"#top", http.StatusSeeOther)
}

// field is a request's value by name: a form's field, or a JSON body's.
func field(r *http.Request, body map[string]any, name string) string {
	if body == nil {
		return r.FormValue(name)
	}
	switch v := body[name].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// readRequest reads a small request's fields: a form's, or a JSON
// object's (nil then for a form).
func readRequest(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if fromPage(r) {
		return nil, r.ParseForm()
	}
	body := map[string]any{}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return body, nil
	}
	return body, json.Unmarshal(data, &body)
}

// recheck checks a refused version again: POST
// /api/ladder/versions/{id}/recheck.
func (s *Server) recheck(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, true, Staff); !ok {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		fail(w, http.StatusNotFound, "no such version")
		return
	}
	v, err := s.Store.Recheck(r.Context(), id)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrNotRefused) {
			status = http.StatusConflict
		}
		fail(w, status, err.Error())
		return
	}
	s.wake()
	if fromPage(r) {
		s.backToStaff(w, r, fmt.Sprintf("%s v%d is being checked again.", v.Student, v.Number))
		return
	}
	writeJSON(w, v)
}

// issueToken gives one student a new token: POST /api/ladder/tokens
// {"student": ID}. The page shows it once.
func (s *Server) issueToken(w http.ResponseWriter, r *http.Request) {
	_, body, ok := s.change(w, r, `{"student": ID}`, Staff)
	if !ok {
		return
	}
	is, err := s.auth().IssueToken(r.Context(), field(r, body, "student"))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	if body == nil {
		w.Header().Set("Cache-Control", "no-store")
		s.render(w, "token", is)
		return
	}
	writeJSON(w, map[string]string{"student": is.Name, "token": is.Token})
}

// gradeOptions are the export's: the server's, with the request's rule,
// max and panel over them.
func (s *Server) gradeOptions(r *http.Request) (GradeOptions, error) {
	o := s.Grading
	q := r.URL.Query()
	if rule := q.Get("grade"); rule != "" {
		gr, err := ParseGradeRule(rule)
		if err != nil {
			return o, err
		}
		o.Rule = gr
	}
	if m := q.Get("max"); m != "" {
		x, err := strconv.ParseFloat(m, 64)
		if err != nil || x <= 0 {
			return o, fmt.Errorf("max %q: want the points a mark is out of, as 100", m)
		}
		o.Max = x
	}
	if p := q.Get("panel"); p != "" {
		o.Panel = strings.Split(p, ",")
	}
	return o, nil
}

// export writes the grades: GET /api/ladder/export?format=csv|canvas|
// moodle|gradescope[&grade=RULE&max=N&panel=A,B&assignment=NAME]
// [&student=ID: one student's results.json, for a Gradescope autograder
// that fetches it].
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.need(w, r, false, Staff); !ok {
		return
	}
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		format = "csv"
	}
	o, err := s.gradeOptions(r)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	sheet, err := s.Store.Grades(r.Context(), o)
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, ErrFinalUnplayed) {
			status = http.StatusConflict
		}
		fail(w, status, err.Error())
		return
	}
	if id := q.Get("student"); id != "" && format == "gradescope" {
		for _, row := range sheet.Rows {
			if row.ID == id {
				writeJSON(w, row.Gradescope(sheet))
				return
			}
		}
		fail(w, http.StatusNotFound, fmt.Sprintf("no student with the id %q on the roster", id))
		return
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, sheet, format, q.Get("assignment")); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	ct := "text/csv; charset=utf-8"
	if format == "gradescope" {
		ct = "application/zip"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", `attachment; filename="`+ExportName(format)+`"`)
	w.Write(buf.Bytes())
}

// pseudonym is a student's chosen name on a leaderboard of pseudonyms:
// POST /api/ladder/pseudonym {"pseudonym": NAME}.
func (s *Server) pseudonym(w http.ResponseWriter, r *http.Request) {
	id, body, ok := s.change(w, r, `{"pseudonym": NAME}`, Student)
	if !ok {
		return
	}
	if err := s.Store.SetPseudonym(r.Context(), id.Student, field(r, body, "pseudonym")); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	if body == nil {
		http.Redirect(w, r, s.Base+"/students/"+id.Student, http.StatusSeeOther)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// staffPage is the staff's page: GET /staff[?kind=&state=&worker=&student=&page=N].
func (s *Server) staffPage(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(r)
	if err != nil || id.Role != Staff {
		s.render(w, "signin", "")
		return
	}
	ctx := r.Context()
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	f := GameFilter{Kind: q.Get("kind"), State: q.Get("state"), Worker: q.Get("worker"), Student: q.Get("student"), Limit: 50, Offset: (page - 1) * 50}
	games, err := s.Store.FindGames(ctx, f)
	if err == nil {
		var d StaffData
		d.Games, d.Filter, d.Page, d.Note, d.Section = games, f, page, q.Get("note"), q.Get("section")
		err = s.staffData(r, &d)
		if err == nil {
			s.render(w, "staff", &d)
			return
		}
	}
	fail(w, http.StatusInternalServerError, err.Error())
}

// StaffData is what the staff page shows.
type StaffData struct {
	ID       Identity
	S        *Standings
	Deadline *Deadline
	Frozen   string
	Workers  []WorkerLine
	Versions []Version
	People   []Person
	Sections []string
	Section  string
	Entries  map[string]EntryInfo
	Names    map[int64]string
	Games    *GamePage
	Filter   GameFilter
	Page     int
	Note     string
	Formats  []string
	Rule     string
	Now      int64
	Base     string
	Home     string // the course's page, for a course's ladder
}

// Pages is how many pages the games fill.
func (d *StaffData) Pages() int { return max(1, (d.Games.Total+d.Filter.Limit-1)/d.Filter.Limit) }

// PageURL is the staff page with the same filter, at page p.
func (d *StaffData) PageURL(p int) string {
	return fmt.Sprintf("%s/staff?kind=%s&state=%s&worker=%s&student=%s&section=%s&page=%d#games", d.Base, urlQuery(d.Filter.Kind), urlQuery(d.Filter.State),
		urlQuery(d.Filter.Worker), urlQuery(d.Filter.Student), urlQuery(d.Section), p)
}

func (s *Server) staffData(r *http.Request, d *StaffData) error {
	ctx := r.Context()
	var err error
	d.ID, _ = s.who(r)
	if d.S, err = s.Store.Standings(ctx); err != nil {
		return err
	}
	if s.Title != "" {
		d.S.Title = s.Title
	}
	d.Home = s.view(d.ID).Home
	if dl, ok := s.Store.Deadline(); ok {
		d.Deadline = &dl
	}
	d.Frozen, _ = s.Store.Meta("frozen")
	if d.Workers, err = s.Store.Workers(ctx); err != nil {
		return err
	}
	if d.Versions, err = s.Store.Versions(ctx, ""); err != nil {
		return err
	}
	for i, j := 0, len(d.Versions)-1; i < j; i, j = i+1, j-1 { // the latest first
		d.Versions[i], d.Versions[j] = d.Versions[j], d.Versions[i]
	}
	if d.People, err = s.Store.People(ctx); err != nil {
		return err
	}
	if d.Entries, err = s.Store.Entries(ctx); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, p := range d.People {
		if p.Section != "" && !seen[p.Section] {
			seen[p.Section] = true
			d.Sections = append(d.Sections, p.Section)
		}
	}
	if d.Section != "" {
		inSection := map[string]bool{}
		var people []Person
		for _, p := range d.People {
			if p.Section == d.Section {
				people = append(people, p)
				inSection[p.Entry()] = true
			}
		}
		d.People = people
		var vs []Version
		for _, v := range d.Versions {
			if inSection[v.Student] {
				vs = append(vs, v)
			}
		}
		d.Versions = vs
	}
	d.Names, err = s.Store.versionNames(ctx)
	d.Formats, d.Now, d.Base = ExportFormats, time.Now().UnixMilli(), s.Base
	d.Rule = DefaultGradeRule
	if s.Grading.Rule != nil {
		d.Rule = s.Grading.Rule.String()
	}
	return err
}

// The staff page's template.
var _ = template.Must(pages.New("staff").Parse(`{{template "head" "Ladder: staff"}}<body id="top">{{template "nav" .View}}
<h1>{{.S.Title}} ladder <span class="dim">staff</span></h1>
{{if .Note}}<p class="banner">{{.Note}}</p>{{end}}
<p>{{n .S.Played "game"}} played, {{.S.Queued}} queued, {{.S.Leased}} being played; {{nof (len .S.Ranked) "entry" "entries"}} ranked, {{n .S.Checking "version"}} being checked, {{n (len .S.Refused) "version"}} refused.</p>
<h2>The deadline and the final</h2>
{{if .Frozen}}<p>Frozen at {{stamp .Frozen}}. <a href="{{base}}/api/ladder/final/report">The final's report</a> · <a href="{{base}}/api/ladder/final/csv">its standings (CSV)</a></p>
{{else}}<p>{{if .Deadline}}The ladder closes on its own at {{when .Deadline.Closes.UnixMilli}} (<b data-until="{{.Deadline.Closes.UnixMilli}}">{{until .Deadline.Closes .Now}}</b>) and queues a final of {{n .Deadline.Rounds "round"}}.{{else}}No deadline is set (arena ladder serve -deadline): the ladder closes when you freeze it.{{end}}</p>
<form class="line" method="post" action="{{base}}/api/ladder/freeze"><label>Final round robin of <input name="rounds" type="number" min="1" max="100" value="2" style="width:5em"> rounds</label><button type="submit">Freeze now</button></form>{{end}}
<h2>Grades</h2>
<form class="line" method="get" action="{{base}}/api/ladder/export"><select name="format">{{range .Formats}}<option>{{.}}</option>{{end}}</select>
<input name="grade" value="{{.Rule}}" size="22" title="the grade rule: an expression of points, games, wins, draws, losses, rank, entrants, rating, panel_points, panel_games; or rank bands, as rank:1-3=100,4-10=90,*=70">
<input name="max" value="100" size="4" title="what a mark is out of"><input name="panel" placeholder="reference panel (entries)" size="20"><input name="assignment" placeholder="grade book column" size="16"><button type="submit">Export</button></form>
<p class="dim">Every student of the roster has a row; a team's people each have their team's mark. Exports are made from the final round robin, once it is played.</p>
<h2>Workers</h2><table class="cards"><tr><th>worker</th><th>last contact</th><th>playing</th></tr>
{{range .Workers}}<tr><td data-label="worker"><a href="{{base}}/staff?worker={{.Name}}#games">{{.Name}}</a></td><td data-label="last contact">{{ago .Seen $.Now}}</td><td data-label="playing">{{if .Game}}game {{.Game}}{{else}}<span class="dim">nothing</span>{{end}}</td></tr>{{else}}<tr><td colspan="3" class="dim">No worker has asked for a game yet.</td></tr>{{end}}</table>
<h2>Versions</h2>
{{if .Sections}}<form class="line" method="get" action="{{base}}/staff"><label>Section <select name="section"><option value="">all</option>{{range .Sections}}<option{{if eq . $.Section}} selected{{end}}>{{.}}</option>{{end}}</select></label><button type="submit" class="small">Show</button></form>{{end}}
<table class="cards"><tr><th>version</th><th class="wide">submitted</th><th>state</th><th></th></tr>
{{range .Versions}}<tr><td data-label="version"><a href="{{base}}/students/{{.Student}}">{{.Student}}</a> v{{.Number}} {{.File}} <span class="dim">{{.Kind}}{{if .Command}} <code>{{.Command}}</code>{{end}}</span></td><td class="wide dim nw">{{when .Submitted}}</td>
<td data-label="state" class="reason">{{if eq .State "refused"}}<span class="bad">refused{{if eq .Cause "host"}} for the host's want{{end}}: {{.Reason}}</span>{{else}}{{.State}}{{end}}</td>
<td>{{if eq .State "refused"}}<form class="inline" method="post" action="{{base}}/api/ladder/versions/{{.ID}}/recheck"><button class="small" type="submit">Re-check</button></form>{{end}}</td></tr>{{else}}<tr><td colspan="4" class="dim">No version yet.</td></tr>{{end}}</table>
<h2 id="games">Games <span class="dim">({{.Games.Total}})</span></h2>
<form class="line" method="get" action="{{base}}/staff#games">
<select name="kind"><option value="">any kind</option>{{range $k := list "check" "ladder" "final"}}<option{{if eq $k $.Filter.Kind}} selected{{end}}>{{$k}}</option>{{end}}</select>
<select name="state"><option value="">any state</option>{{range $k := list "queued" "leased" "done"}}<option{{if eq $k $.Filter.State}} selected{{end}}>{{$k}}</option>{{end}}</select>
<input name="worker" placeholder="worker" value="{{.Filter.Worker}}" size="10"><input name="student" placeholder="entry" value="{{.Filter.Student}}" size="10"><button class="small" type="submit">Filter</button></form>
<table class="cards"><tr><th>game</th><th>kind</th><th>players</th><th>state</th><th>result</th></tr>
{{range .Games.Games}}<tr><td data-label="game">{{if eq .State "done"}}<a href="{{watch .ID}}">{{.ID}}</a>{{else}}{{.ID}}{{end}}</td><td data-label="kind">{{.Kind}}</td><td data-label="players">{{index $.Names (index .Seats 0)}} – {{index $.Names (index .Seats 1)}}</td>
<td data-label="state">{{.State}}{{if .Worker}} <span class="dim">by {{.Worker}}</span>{{end}}</td><td data-label="result" class="reason">{{if .Failure}}<span class="bad">{{if .Host}}the host's want: {{end}}{{.Failure}}</span>{{else if eq .State "done"}}{{.Points1}}–{{sub1 .Points1}}{{end}}</td></tr>{{else}}<tr><td colspan="5" class="dim">No game here.</td></tr>{{end}}</table>
{{if gt .Pages 1}}<div class="pager">{{if gt .Page 1}}<a href="{{.PageURL (dec .Page)}}">← newer</a>{{end}}<span class="dim">page {{.Page}} of {{.Pages}}</span>{{if lt .Page .Pages}}<a href="{{.PageURL (inc .Page)}}">older →</a>{{end}}</div>{{end}}
<h2>Roster</h2><table class="cards"><tr><th>id</th><th>name</th><th class="wide">email</th><th>section</th><th>team</th><th></th></tr>
{{range .People}}<tr><td data-label="id">{{.ID}}</td><td data-label="name">{{.Name}}</td><td class="wide dim">{{.Email}}</td><td data-label="section">{{.Section}}</td><td data-label="team">{{.Team}}</td>
<td><form class="inline" method="post" action="{{base}}/api/ladder/tokens"><input type="hidden" name="student" value="{{.ID}}"><button class="small" type="submit" title="their old token stops working; no one else's does">New token</button></form></td></tr>{{end}}</table>
</body></html>`))

// View is the staff page's header.
func (d *StaffData) View() view {
	return view{ID: d.ID, Deadline: d.Deadline, Frozen: d.Frozen != "", Now: d.Now, Home: d.Home}
}
