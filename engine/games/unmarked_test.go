package games

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/play"
)

var update = flag.Bool("update", false, "rewrite testdata/unmarked from the bots as they play now")

// unmarkedMatches are matches of every built-in bot that marks its
// thinking, against another, at budgets that keep the test short.
var unmarkedMatches = []struct{ game, preset, p1, p2 string }{
	{"colosseum", "8", "strong:nodes=100000", "greedy"},
	{"colosseum", "9", "greedy", "strong:nodes=100000"},
	{"life", "", "strong:nodes=8000", "greedy"},
	{"life", "", "greedy", "strong:nodes=8000"},
	{"evasion", "", "greedy", "strong"},
	{"evasion", "", "strong", "greedy"},
	{"evasion", "", "bfs", "greedy"},
	{"pathgame", "gen-300", "strong:nodes=300000", "greedy"},
	{"pathgame", "gen-300", "greedy", "strong:nodes=300000"},
	{"mapcolor", "usa", "strong:nodes=30000", "greedy"},
	{"mapcolor", "usa", "course", "strong:nodes=30000"},
}

// TestMarksChangeNoMove: the bots mark what they weighed from what they
// computed anyway, so they play as they did before they marked. Each
// match's replay, its notes' marks and expected lines left out, is the
// one recorded in testdata/unmarked before the bots marked anything:
// the same moves, the same evaluations, depths and node counts.
func TestMarksChangeNoMove(t *testing.T) {
	for _, m := range unmarkedMatches {
		name := strings.NewReplacer(":", "-", "=", "-").Replace(strings.Join([]string{m.game, m.preset, m.p1, m.p2}, "_")) + ".jsonl.gz"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := unmarkedReplay(t, playGame(t, m.game, m.preset, m.p1, m.p2))
			file := filepath.Join("testdata", "unmarked", name)
			if *update {
				var z bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
				zw.Write(got)
				zw.Close()
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, z.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := readGzip(t, file)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s vs %s plays otherwise than before it marked:\n%s", m.p1, m.p2, firstLineDiff(got, want))
			}
		})
	}
}

func playGame(t testing.TB, game, preset, p1, p2 string) *play.Record {
	t.Helper()
	s, err := play.NewSetup(game, preset, 5, p1, p2)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.Play(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// unmarkedReplay is a match's replay with its notes' marks and expected
// lines left out, one turn a line.
func unmarkedReplay(t *testing.T, rec *play.Record) []byte {
	t.Helper()
	rp, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, turn := range rp.Unmarked().Turns {
		// As maps, whose keys marshal sorted, as testdata/unmarked was written.
		var notes [2]map[string]any
		for side, n := range turn.Notes {
			if n != nil {
				data, _ := json.Marshal(n)
				json.Unmarshal(data, &notes[side])
			}
		}
		line, err := json.Marshal(struct {
			Actions  [2]json.RawMessage `json:"actions"`
			Notes    [2]map[string]any  `json:"notes"`
			Replaced [2]string          `json:"replaced"`
		}{turn.Actions, notes, turn.Replaced})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	res, _ := json.Marshal(rp.Result)
	b.Write(res)
	b.WriteByte('\n')
	return b.Bytes()
}

// readGzip reads a gzipped file whole.
func readGzip(t *testing.T, file string) []byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return data
}

// firstLineDiff shows the first line where got and want differ.
func firstLineDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(i+1) + ":\n got  " + trim(gl) + "\n want " + trim(wl)
		}
	}
	return "(no line differs)"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func trim(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// BenchmarkReplayGrowth reports what marks add to a replay, per game:
// each match of unmarkedMatches written with its notes' marks and
// expected lines and without them (docs/replays.md gives the figures).
func BenchmarkReplayGrowth(b *testing.B) {
	for _, m := range unmarkedMatches {
		b.Run(strings.Join([]string{m.game, m.p1, m.p2}, "/"), func(b *testing.B) {
			rec := playGame(b, m.game, m.preset, m.p1, m.p2)
			for b.Loop() {
				with, without := replaySizes(b, rec)
				b.ReportMetric(float64(with), "bytes")
				b.ReportMetric(float64(without), "bytes-unmarked")
				b.ReportMetric(float64(with)/float64(without), "x-unmarked")
				b.ReportMetric(float64(with-without)/float64(len(rec.Turns)), "bytes-added/turn")
			}
		})
	}
}

// replaySizes is the size of rec's replay, and of the same without its
// notes' marks and expected lines.
func replaySizes(b *testing.B, rec *play.Record) (with, without int) {
	rp, err := rec.Replay()
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := rp.WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	with = buf.Len()
	buf.Reset()
	if _, err := rp.Unmarked().WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	return with, buf.Len()
}
