package ladder

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Lesson is what the ladder keeps of a game's report: each side's
// figures and the decisions that lost expected points, without their
// lines (the board works them out again when a student opens one), so
// that a term of reports stays small.
type Lesson struct {
	Turns int                 `json:"turns"`
	Sides [2]analysis.Summary `json:"sides"`
	Lost  []LostDecision      `json:"lost"`
	// Error says why the game has no report (its replay would not load,
	// its analysis failed): kept so that it is not tried again.
	Error string `json:"error,omitempty"`
}

// LostDecision is a decision that lost expected points.
type LostDecision struct {
	Turn  int        `json:"turn"`
	Side  match.Side `json:"side"`
	Move  string     `json:"move"`
	Best  string     `json:"best"`
	Lost  float64    `json:"lost"`
	Label string     `json:"label,omitempty"`
	Exact bool       `json:"exact,omitempty"`
	// Kind is the kind of move played, as the game names it
	// (analysis.MoveKinds); "" in lessons kept before kinds were.
	Kind string `json:"kind,omitempty"`
}

// lessonOf trims a report to its lesson.
func lessonOf(r *analysis.Report, turns int) Lesson {
	l := Lesson{Turns: turns, Sides: r.Sides, Lost: []LostDecision{}}
	for _, d := range r.Decisions {
		if d.Lost > 0 {
			l.Lost = append(l.Lost, LostDecision{d.Turn, d.Side, d.Move, d.Best, d.Lost, d.Label, d.Exact, d.Kind})
		}
	}
	return l
}

// unreported is the newest finished ladder game with a replay and no
// report: students see their latest games' reports first.
func (s *Store) unreported(ctx context.Context) (int64, []byte, error) {
	var id int64
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT g.id, g.replay FROM games g LEFT JOIN reports r ON r.game = g.id
		WHERE g.state = 'done' AND g.kind = 'ladder' AND r.game IS NULL AND length(g.replay) > 0 ORDER BY g.id DESC LIMIT 1`).Scan(&id, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	return id, data, err
}

// saveLesson keeps game's lesson.
func (s *Store) saveLesson(ctx context.Context, game int64, l Lesson) error {
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO reports (game, made, data) VALUES (?, ?, ?)`, game, time.Now().UnixMilli(), data)
		return err
	})
}

// ReportOne reports on the newest unreported game, if there is one: it
// says whether there was.
func (s *Store) ReportOne(ctx context.Context) (bool, error) {
	id, data, err := s.unreported(ctx)
	if err != nil || id == 0 {
		return false, err
	}
	l := Lesson{Lost: []LostDecision{}}
	rec, err := play.LoadReplay(replayFile(id), data)
	if err == nil {
		var r *analysis.Report
		if r, err = analysis.Make(ctx, rec, analysis.Options{}); err == nil {
			l = lessonOf(r, len(rec.Turns))
		}
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		l.Error = err.Error()
	}
	return true, s.saveLesson(ctx, id, l)
}

// Report reports on the ladder's games for as long as ctx lasts, newest
// first, on a thread of its own whose priority it lowers as far as the
// system lets it: the games' players take the machine first, and a
// report uses only what they leave (docs/analysis.md). With every game
// reported it plays a new version's suite (DrillWith), whose programs run
// in their boxes under their caps as a game's do; with nothing to do it
// waits for wake or idle.
func (s *Store) Report(ctx context.Context, idle time.Duration, wake <-chan struct{}, log func(string)) {
	// The priority is the thread's: no other goroutine runs on it, and
	// it is never unlocked, so that the thread ends with this goroutine
	// rather than going back to the runtime's pool at nice 19.
	runtime.LockOSThread()
	if err := lowerThreadPriority(); err != nil {
		log("reports: the reporting thread keeps its priority: " + err.Error())
	}
	for ctx.Err() == nil {
		did, err := s.ReportOne(ctx)
		if err != nil && ctx.Err() == nil {
			log(fmt.Sprintf("reports: %v", err))
		}
		if !did && err == nil { // every game reported: a new version's suite
			if did, err = s.DrillOne(ctx); err != nil && ctx.Err() == nil {
				log(fmt.Sprintf("drills: %v", err))
			}
		}
		if !did || err != nil {
			sleep(ctx, idle, wake)
		}
	}
}

// Lessons are what a student's reported games teach: the decisions that
// cost their versions most, grouped by the game's phase and by the kind
// of move (the patterns a course teaches: Colosseum's wall beside the
// opponent, map colouring's state with the most neighbours left), and
// each version's accuracy.
type Lessons struct {
	Reported, Games int // the student's games reported, of all they played
	// Costliest are the decisions that lost most expected points, most
	// first (at most MaxCostliest).
	Costliest []Costly `json:"costliest"`
	// Phases sum every lost decision by the game's phase, Kinds by the
	// kind of move, the costliest kind first.
	Phases []GroupLoss `json:"phases"`
	Kinds  []GroupLoss `json:"kinds"`
	// Versions are each version's figures over its reported games.
	Versions []VersionLesson `json:"versions"`
	// Worst is each reported game's costliest decision of the student's,
	// by game: where its link opens.
	Worst map[int64]int `json:"-"`
	// Suites are the student's versions' suites (their past mistakes
	// played again), the newest version first.
	Suites []Suite  `json:"suites,omitempty"`
	lost   []Costly // every lost decision, costliest first
}

// MaxCostliest is how many decisions a student's page lists.
const MaxCostliest = 12

// Costly is one of a student's decisions that lost.
type Costly struct {
	Game    int64      `json:"game"`
	Version int        `json:"version"`
	Side    match.Side `json:"side"`
	LostDecision
	Phase string `json:"phase"`
}

// GroupLoss is what a student's decisions lost in one group of them: a
// phase of their games (the opening, the first third of the turns; the
// middle; the end), or a kind of move.
type GroupLoss struct {
	Group     string  `json:"group"`
	Lost      float64 `json:"lost"` // expected points, summed over the games
	Decisions int     `json:"decisions"`
	Blunders  int     `json:"blunders"`
	Mistakes  int     `json:"mistakes"`
}

// VersionLesson is a version's figures over its reported games.
type VersionLesson struct {
	Number   int     `json:"number"`
	Games    int     `json:"games"`
	Accuracy float64 `json:"accuracy"` // the mean of its games' accuracies
	// Blunders, Mistakes and Lost are per game.
	Blunders, Mistakes, Lost float64
}

// add counts a lost decision in the group.
func (g *GroupLoss) add(d LostDecision) {
	g.Lost += d.Lost
	g.Decisions++
	switch d.Label {
	case "blunder":
		g.Blunders++
	case "mistake":
		g.Mistakes++
	}
}

// phases names the thirds of a game.
var phases = []string{"opening", "middle game", "end game"}

// phaseOf is the phase of turn k of a game of turns turns.
func phaseOf(k, turns int) string {
	return phases[min(2, 3*k/max(1, turns))]
}

// Lessons reads what the student's reported games teach.
func (s *Store) Lessons(ctx context.Context, student string) (*Lessons, error) {
	numbers := map[int64]int{}
	rows, err := s.db.QueryContext(ctx, `SELECT id, number FROM versions WHERE student = ?`, student)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			rows.Close()
			return nil, err
		}
		numbers[id] = n
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, `SELECT g.id, g.p1, g.p2, r.data FROM games g LEFT JOIN reports r ON r.game = g.id
		WHERE g.state = 'done' AND g.kind = 'ladder' AND (g.p1 IN (SELECT id FROM versions WHERE student = ?) OR g.p2 IN (SELECT id FROM versions WHERE student = ?))`, student, student)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ls := &Lessons{Worst: map[int64]int{}}
	byPhase, byKind := map[string]*GroupLoss{}, map[string]*GroupLoss{}
	for _, p := range phases {
		byPhase[p] = &GroupLoss{Group: p}
	}
	byVersion := map[int]*VersionLesson{}
	var all []Costly
	for rows.Next() {
		var id int64
		var seats [2]int64
		var data []byte
		if err := rows.Scan(&id, &seats[0], &seats[1], &data); err != nil {
			return nil, err
		}
		ls.Games++
		var l Lesson
		if len(data) == 0 || json.Unmarshal(data, &l) != nil || l.Error != "" {
			continue
		}
		ls.Reported++
		for side, v := range seats {
			n, mine := numbers[v]
			if !mine {
				continue
			}
			vl := byVersion[n]
			if vl == nil {
				vl = &VersionLesson{Number: n}
				byVersion[n] = vl
			}
			sum := l.Sides[side]
			vl.Games++
			vl.Accuracy += sum.Accuracy
			vl.Blunders += float64(sum.Blunders)
			vl.Mistakes += float64(sum.Mistakes)
			vl.Lost += sum.Lost
			worst := -1.0
			for _, d := range l.Lost {
				if int(d.Side) != side {
					continue
				}
				byPhase[phaseOf(d.Turn, l.Turns)].add(d)
				kind := cmp.Or(d.Kind, "not named (reported before kinds were)")
				if byKind[kind] == nil {
					byKind[kind] = &GroupLoss{Group: kind}
				}
				byKind[kind].add(d)
				all = append(all, Costly{Game: id, Version: n, Side: d.Side, LostDecision: d, Phase: phaseOf(d.Turn, l.Turns)})
				if d.Lost > worst {
					worst, ls.Worst[id] = d.Lost, d.Turn
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortCostly(all)
	ls.lost = all
	ls.Costliest = all[:min(len(all), MaxCostliest)]
	for _, p := range phases {
		ls.Phases = append(ls.Phases, *byPhase[p])
	}
	for _, k := range byKind {
		ls.Kinds = append(ls.Kinds, *k)
	}
	slices.SortFunc(ls.Kinds, func(a, b GroupLoss) int { return cmp.Or(cmp.Compare(b.Lost, a.Lost), cmp.Compare(a.Group, b.Group)) })
	for _, vl := range byVersion {
		g := float64(vl.Games)
		vl.Accuracy, vl.Blunders, vl.Mistakes, vl.Lost = vl.Accuracy/g, vl.Blunders/g, vl.Mistakes/g, vl.Lost/g
		ls.Versions = append(ls.Versions, *vl)
	}
	slices.SortFunc(ls.Versions, func(a, b VersionLesson) int { return cmp.Compare(a.Number, b.Number) })
	ls.Suites, err = s.Suites(ctx, student)
	return ls, err
}

// lostDecisions are every decision of the student's that lost expected
// points in a reported game, costliest first.
func (s *Store) lostDecisions(ctx context.Context, student string) ([]Costly, error) {
	ls, err := s.Lessons(ctx, student)
	if err != nil {
		return nil, err
	}
	return ls.lost, nil
}
