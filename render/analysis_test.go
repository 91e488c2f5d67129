package render

import (
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// texts is a canvas that keeps what is written on it.
type texts struct {
	*Image
	got []string
}

func (t *texts) Text(s string, x, y float64, f Face, align Align, c color.RGBA) {
	t.got = append(t.got, s)
	t.Image.Text(s, x, y, f, align, c)
}

// analysed is the analysis of turn k of rec, with k best.
func analysed(t *testing.T, rec *play.Record, k, best int) *match.Analysis {
	t.Helper()
	s := rec.State(k)
	side := match.AnalysisSide(rec.Game, s)
	an, err := match.Analyse(rec.Game, match.NewTurn(s, side, rand.New(rand.NewPCG(1, 2)), match.Budget{}), match.Query{K: best})
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// TestACrowdedAnalysisWritesTheBestOnly: Life weighs hundreds of cells;
// the board writes the values of the best (and a click's), not hundreds.
func TestACrowdedAnalysisWritesTheBestOnly(t *testing.T) {
	rec := playThinking(t, "life", "", "strong:nodes=3000", "greedy")
	an := analysed(t, rec, 6, 3)
	if len(an.Others) <= crowdedPlaces {
		t.Fatalf("the analysis weighs %d options: not a crowded board", len(an.Others))
	}
	c := &texts{Image: NewImage(480, 480)}
	DrawAnalysis(c, Rect{0, 0, 480, 480}, rec, 6, an, NoPick, Dark)
	values := 0
	for _, s := range c.got {
		if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "−") || strings.HasPrefix(s, "≤") {
			values++
		}
	}
	if values > len(an.Best) {
		t.Errorf("%d values written for %d best of %d options: %q", values, len(an.Best), len(an.Others)+len(an.Best), c.got)
	}
}

// TestBestAtOnePlaceShareABadge: two of the best at one place (two walls
// of a Colosseum cell, two colours of a state) are numbered by one
// badge listing both ranks, not two badges piled up.
func TestBestAtOnePlaceShareABadge(t *testing.T) {
	rec := playThinking(t, "colosseum", "8", "strong:nodes=20000", "greedy")
	an := analysed(t, rec, 2, 3)
	an.Best = an.Best[:2]
	an.Best[1].Place = match.AtMove(an.Best[0].Place.A, an.Best[0].Place.B, (an.Best[0].Place.Side+1)%4)
	c := &texts{Image: NewImage(480, 480)}
	DrawAnalysis(c, Rect{0, 0, 480, 480}, rec, 2, an, NoPick, Dark)
	count := map[string]int{}
	for _, s := range c.got {
		count[s]++
	}
	// One badge "1·2"; "1" and "2" once each, numbering the line's moves.
	if count["1·2"] != 1 || count["1"] != 1 || count["2"] != 1 {
		t.Errorf("the ranks written: %q", c.got)
	}
}

// TestAnEdgeNamesItsEnds: the shortest path's board draws no ids; an
// edge in a line has both its ends' ids written beside them.
func TestAnEdgeNamesItsEnds(t *testing.T) {
	rec := playThinking(t, "pathgame", "", "strong:nodes=200000", "greedy")
	pl := drawers["pathgame"].(Placer)
	c := &texts{Image: NewImage(480, 480)}
	s, _ := pl.Spot(rec, 0, match.P2, Rect{0, 0, 480, 480}, match.AtEdge(0, 1))
	writeName(c, pl, rec, 0, match.P2, match.AtEdge(0, 1), s, 1, Dark)
	want := []string{pl.PlaceName(rec, 0, match.P2, match.AtNode(0)), pl.PlaceName(rec, 0, match.P2, match.AtNode(1))}
	if strings.Join(c.got, ",") != strings.Join(want, ",") {
		t.Errorf("an edge's names: %q, want %q", c.got, want)
	}
}
