package tournament

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/plural"
	"github.com/arena-playground/arena/internal/untrusted"
)

// Title says what the tournament is, on one line.
func (s *Standings) Title() string {
	p := s.Plan
	game := p.Game
	if g, err := match.Lookup(p.Game); err == nil {
		game = g.Info().Label()
	}
	what := map[string]string{RoundRobin: "round robin", Gauntlet: "gauntlet", SPRTMatch: "SPRT match"}[p.Format]
	if p.Board != "" {
		game += " (" + p.Board + ")"
	}
	total := p.Games()
	if p.Format == SPRTMatch {
		return fmt.Sprintf("%s %s: %s vs %s, %s (at most %d), seed %d", game, what, p.Entrants[0].Name, p.Entrants[1].Name, plural.S(s.Played, "game"), total, p.Seed)
	}
	return fmt.Sprintf("%s %s, %s, %s, %d of %s, seed %d", game, what, plural.S(len(p.Entrants), "entrant"), plural.S(p.Rounds, "round"), s.Played, plural.S(total, "game"), p.Seed)
}

// WriteText writes the standings for a terminal: the table, the
// cross-table, the SPRT's verdict, and each entrant's forfeits and
// replaced moves with their reasons. Call Rate first.
func (s *Standings) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s\n\n", s.Title())
	order := s.Order()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tentrant\tpoints\tgames\twins\tdraws\tlosses\tscore\tElo\t95% CI\tforfeits\treplaced\tavg ms/move\tmax ms/move\t")
	for rank, i := range order {
		e := s.Entrants[i]
		score := 0.0
		if e.Games > 0 {
			score = e.Points / float64(e.Games)
		}
		fmt.Fprintf(tw, "%d\t%s\t%g\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t[%s, %s]\t%d\t%d\t%.2f\t%.2f\t\n", rank+1, e.Name, e.Points, e.Games, e.Wins, e.Draws, e.Losses,
			100*score, EloText(e.Elo), EloText(e.EloLow), EloText(e.EloHigh), e.Forfeits, e.Replaced, e.MeanMs(), e.MaxMs)
	}
	tw.Flush()
	if s.Plan.Format == SPRTMatch {
		fmt.Fprintf(w, "\n%s\n", s.SPRTText())
	} else if len(order) <= 24 {
		fmt.Fprintf(w, "\ncross-table: the row's points against the column, of the games between them\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, j := range order {
			fmt.Fprintf(tw, "%s\t", s.Entrants[j].Name)
		}
		fmt.Fprintln(tw)
		for _, i := range order {
			fmt.Fprintf(tw, "%s\t", s.Entrants[i].Name)
			for _, j := range order {
				fmt.Fprintf(tw, "%s\t", s.Cell(i, j))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	var notes []string
	for _, i := range order {
		e := s.Entrants[i]
		for _, r := range e.ReasonList() {
			notes = append(notes, fmt.Sprintf("  %s: %s", e.Name, untrusted.Text(r)))
		}
	}
	if notes != nil {
		fmt.Fprintf(w, "\nforfeits and replaced moves, by entrant:\n%s\n", strings.Join(notes, "\n"))
	}
}

// Cell is the cross-table's cell: i's points against j, of their games.
func (s *Standings) Cell(i, j int) string {
	if i == j {
		return "-"
	}
	if s.Games[i][j] == 0 {
		return "."
	}
	return fmt.Sprintf("%g/%d", s.Points[i][j], s.Games[i][j])
}

// SPRTText is the SPRT's state on one line.
func (s *Standings) SPRTText() string {
	t := s.Plan.SPRT
	lo, hi := t.Bounds()
	verdict := "no decision yet"
	switch s.Decision {
	case "H1":
		verdict = fmt.Sprintf("H1 accepted: %s is at least %g Elo stronger", s.Plan.Entrants[0].Name, t.Elo1)
	case "H0":
		verdict = fmt.Sprintf("H0 accepted: %s is not %g Elo stronger (at most %g)", s.Plan.Entrants[0].Name, t.Elo1, t.Elo0)
	}
	elo, elo0, elo1 := PentaElo(s.Penta)
	return fmt.Sprintf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f in (%.2f, %.2f) after %d pairs: %s\npairs by %s's points (0, 0.5, 1, 1.5, 2): %v; Elo %s [%s, %s]",
		t.Elo0, t.Elo1, t.Alpha, t.Beta, s.LLR, lo, hi, s.Penta.Pairs(), verdict, s.Plan.Entrants[0].Name, s.Penta, EloText(elo), EloText(elo0), EloText(elo1))
}

// EloText writes a rating with its sign, whole.
func EloText(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "?"
	}
	return fmt.Sprintf("%+.0f", math.Round(x)+0) // +0: no "-0" for a rating just under zero
}
