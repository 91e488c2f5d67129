package ladder

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arena-playground/arena/tournament"
)

// Grades where courses keep them: the final round robin's standings,
// a mark for each student by the rule the staff state, written in the
// formats grade books take. Every student of the roster has a row, a
// team's people each their team's mark; a student with no entrant in
// the final has 0 and the reason.

// GradeRow is a student's mark and what it was computed from.
type GradeRow struct {
	Person
	Entry       string  `json:"entry"`
	Rank        int     `json:"rank"` // 0: not in the final
	Entrants    int     `json:"entrants"`
	Rating      float64 `json:"rating"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	Draws       int     `json:"draws"`
	Losses      int     `json:"losses"`
	Points      float64 `json:"points"`
	PanelPoints float64 `json:"panel_points"`
	PanelGames  int     `json:"panel_games"`
	Grade       float64 `json:"grade"`
	Note        string  `json:"note,omitempty"`
}

// GradeSheet is every student's mark.
type GradeSheet struct {
	Game     string     `json:"game"`
	Rule     string     `json:"rule"`
	Max      float64    `json:"max"`   // the points a mark is out of
	Panel    []string   `json:"panel"` // the reference entries, not graded
	Complete bool       `json:"complete"`
	Made     time.Time  `json:"made"`
	Rows     []GradeRow `json:"rows"`
}

// GradeOptions say how to mark: the rule, the points it is out of, and
// the reference panel (entries of the roster the staff submit for,
// which are not graded themselves).
type GradeOptions struct {
	Rule  *GradeRule
	Max   float64
	Panel []string
}

// Grades marks every student of the roster by the final round robin,
// once its games are played (ErrFinalUnplayed before).
func (s *Store) Grades(ctx context.Context, o GradeOptions) (*GradeSheet, error) {
	st, fg, err := s.Final(ctx)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("%w: no final yet (the ladder is frozen at its deadline, or by arena ladder freeze)", ErrFinalUnplayed)
	}
	if fg.Remaining > 0 {
		return nil, fmt.Errorf("%w: %d of its games are still to play", ErrFinalUnplayed, fg.Remaining)
	}
	if o.Rule == nil {
		o.Rule, _ = ParseGradeRule("")
	}
	if o.Max <= 0 {
		o.Max = 100
	}
	people, err := s.People(ctx)
	if err != nil {
		return nil, err
	}
	absent, err := s.Absent(ctx, st)
	if err != nil {
		return nil, err
	}
	game, _ := s.Meta("game")
	sheet := &GradeSheet{Game: game, Rule: o.Rule.String(), Max: o.Max, Panel: o.Panel, Complete: fg.Failed == 0, Made: time.Now().UTC(), Rows: []GradeRow{}}
	panel := map[string]bool{}
	for _, p := range o.Panel {
		panel[p] = true
	}
	index := map[string]int{}
	for i, e := range st.Entrants {
		index[e.Name] = i
	}
	rank := map[string]int{}
	ranked := 0
	for _, i := range st.Order() {
		if n := st.Entrants[i].Name; !panel[n] {
			ranked++
			rank[n] = ranked
		}
	}
	for _, p := range people {
		e := p.Entry()
		if panel[e] {
			continue
		}
		row := GradeRow{Person: p, Entry: e, Entrants: ranked}
		i, in := index[e]
		if !in {
			row.Note = absent[e]
			if row.Note == "" {
				row.Note = "not in the final"
			}
			sheet.Rows = append(sheet.Rows, row)
			continue
		}
		es := st.Entrants[i]
		row.Rank, row.Rating = rank[e], es.Elo
		row.Games, row.Wins, row.Draws, row.Losses, row.Points = es.Games, es.Wins, es.Draws, es.Losses, es.Points
		for j, other := range st.Entrants {
			if panel[other.Name] {
				row.PanelPoints += st.Points[i][j]
				row.PanelGames += st.Games[i][j]
			}
		}
		row.Grade = o.Rule.Grade(Figures{"points": row.Points, "games": float64(row.Games), "wins": float64(row.Wins), "draws": float64(row.Draws),
			"losses": float64(row.Losses), "rank": float64(row.Rank), "entrants": float64(ranked), "rating": row.Rating,
			"panel_points": row.PanelPoints, "panel_games": float64(row.PanelGames)})
		if es.Replaced > 0 {
			row.Note = fmt.Sprintf("%d moves replaced by the rules", es.Replaced)
		}
		if fg.Failed > 0 {
			row.Note = strings.TrimPrefix(row.Note+fmt.Sprintf("; %d of the final's games could not be played and are not counted", fg.Failed), "; ")
		}
		sheet.Rows = append(sheet.Rows, row)
	}
	sort.SliceStable(sheet.Rows, func(a, b int) bool { return sheet.Rows[a].ID < sheet.Rows[b].ID })
	return sheet, nil
}

// Export formats.
var ExportFormats = []string{"csv", "canvas", "moodle", "gradescope"}

// ExportName is the file an export is saved as.
func ExportName(format string) string {
	if format == "gradescope" {
		return "ladder-gradescope.zip"
	}
	return "ladder-" + format + ".csv"
}

// WriteExport writes a sheet in a format: "csv" (every figure), "canvas"
// (a gradebook import: Student, ID, SIS User ID, SIS Login ID, Section,
// and the assignment's column, with its Points Possible row), "moodle"
// (a grade import: ID number and Email address to map a user by, the
// grade and its feedback) or "gradescope" (a zip of ID/results.json,
// each an autograder's results). assignment names the grade book's
// column ("Ladder (1234)" matches Canvas's assignment 1234).
func WriteExport(w io.Writer, sheet *GradeSheet, format, assignment string) error {
	if assignment == "" {
		assignment = "Ladder"
	}
	switch format {
	case "csv":
		return writeCSV(w, sheet)
	case "canvas":
		return writeCanvas(w, sheet, assignment)
	case "moodle":
		return writeMoodle(w, sheet, assignment)
	case "gradescope":
		return writeGradescope(w, sheet)
	}
	return fmt.Errorf("no export format %q (want %s)", format, strings.Join(ExportFormats, ", "))
}

func grade(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// cellText is a cell of words, kept words by the spreadsheet that opens the
// file: a cell that starts with = + - @ (or a tab or a return) is a
// formula to Excel, LibreOffice and Google Sheets, and a note can quote
// what a student's program printed. It is written after a ', which the
// spreadsheets show as nothing (OWASP's advice on CSV injection).
func cellText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// summary is a row's figures as a student reads them.
func (r GradeRow) summary(sheet *GradeSheet) string {
	if r.Rank == 0 {
		return r.Note
	}
	s := fmt.Sprintf("rank %d of %d in the final round robin: %d-%d-%d (W-D-L), %s points of %d games, rating %s; grade %s of %s by %s",
		r.Rank, r.Entrants, r.Wins, r.Draws, r.Losses, grade(r.Points), r.Games, tournament.EloText(r.Rating), grade(r.Grade), grade(sheet.Max), sheet.Rule)
	if r.PanelGames > 0 {
		s += fmt.Sprintf("; against the reference panel: %s points of %d games", grade(r.PanelPoints), r.PanelGames)
	}
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}

func writeCSV(w io.Writer, sheet *GradeSheet) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "name", "email", "section", "team", "rank", "entrants", "rating", "games", "wins", "draws", "losses", "points", "panel_points", "panel_games", "grade", "max", "rule", "complete", "note"})
	for _, r := range sheet.Rows {
		rank, rating := "", ""
		if r.Rank > 0 {
			rank, rating = strconv.Itoa(r.Rank), tournament.EloText(r.Rating)
		}
		cw.Write([]string{cellText(r.ID), cellText(r.Name), cellText(r.Email), cellText(r.Section), cellText(r.Team), rank, strconv.Itoa(r.Entrants), rating, strconv.Itoa(r.Games), strconv.Itoa(r.Wins),
			strconv.Itoa(r.Draws), strconv.Itoa(r.Losses), grade(r.Points), grade(r.PanelPoints), strconv.Itoa(r.PanelGames),
			grade(r.Grade), grade(sheet.Max), cellText(sheet.Rule), strconv.FormatBool(sheet.Complete), cellText(r.Note)})
	}
	cw.Flush()
	return cw.Error()
}

// writeCanvas writes Canvas's gradebook import. Canvas matches a row on
// ID (its user number), SIS User ID or SIS Login ID, and reads a column
// whose name is an assignment's as its grades; the row of Points
// Possible, which its own export writes, says what the column is out of.
func writeCanvas(w io.Writer, sheet *GradeSheet, assignment string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment})
	cw.Write([]string{"    Points Possible", "", "", "", "", grade(sheet.Max)})
	for _, r := range sheet.Rows {
		cw.Write([]string{cellText(canvasName(r.Name)), cellText(r.LMSID), cellText(r.ID), cellText(r.Login), cellText(r.Section), grade(r.Grade)})
	}
	cw.Flush()
	return cw.Error()
}

// canvasName is "Last, First", as Canvas's export names a student.
func canvasName(name string) string {
	if i := strings.LastIndexByte(name, ' '); i > 0 && !strings.Contains(name, ",") {
		return name[i+1:] + ", " + name[:i]
	}
	return name
}

// writeMoodle writes a CSV for Moodle's grade import: its form maps one
// column to a user field (ID number, or Email address) and the others
// to a grade item and its feedback.
func writeMoodle(w io.Writer, sheet *GradeSheet, assignment string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"ID number", "Email address", "Full name", assignment, assignment + " (feedback)"})
	for _, r := range sheet.Rows {
		cw.Write([]string{cellText(r.ID), cellText(r.Email), cellText(r.Name), grade(r.Grade), cellText(r.summary(sheet))})
	}
	cw.Flush()
	return cw.Error()
}

// GradescopeResults is an autograder's results.json, as Gradescope
// reads it: the score (which overrides the tests' sum), the tests, and
// the leaderboard's columns.
type GradescopeResults struct {
	Score       float64            `json:"score"`
	Output      string             `json:"output"`
	Visibility  string             `json:"visibility"`
	Tests       []GradescopeTest   `json:"tests"`
	Leaderboard []GradescopeColumn `json:"leaderboard"`
}

// GradescopeTest is one of its tests.
type GradescopeTest struct {
	Name       string  `json:"name"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Output     string  `json:"output"`
	Visibility string  `json:"visibility"`
}

// GradescopeColumn is a leaderboard's value; order says which is best.
type GradescopeColumn struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Order string  `json:"order,omitempty"`
}

// Gradescope is a student's row as Gradescope's results.json.
func (r GradeRow) Gradescope(sheet *GradeSheet) GradescopeResults {
	res := GradescopeResults{Score: r.Grade, Output: r.summary(sheet), Visibility: "visible",
		Tests:       []GradescopeTest{{Name: "The ladder's final round robin", Score: r.Grade, MaxScore: sheet.Max, Output: r.summary(sheet), Visibility: "visible"}},
		Leaderboard: []GradescopeColumn{{Name: "Rating", Value: float64(int(r.Rating + 0.5*sign(r.Rating))), Order: "desc"}, {Name: "Points", Value: r.Points, Order: "desc"}}}
	if r.PanelGames > 0 {
		res.Tests = append(res.Tests, GradescopeTest{Name: "Against the reference panel", Score: 0, MaxScore: 0,
			Output: fmt.Sprintf("%s points of %d games", grade(r.PanelPoints), r.PanelGames), Visibility: "visible"})
	}
	return res
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// writeGradescope writes a zip of ID/results.json, one a student.
func writeGradescope(w io.Writer, sheet *GradeSheet) error {
	zw := zip.NewWriter(w)
	for _, r := range sheet.Rows {
		f, err := zw.Create(r.ID + "/results.json")
		if err != nil {
			return err
		}
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r.Gradescope(sheet)); err != nil {
			return err
		}
	}
	return zw.Close()
}
