package evasion

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-playground/arena/internal/safefile"
)

// Every golden transcript replays state for state, FINAL and END included.
func TestGoldenTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txt.gz")
	if len(files) != 9 {
		t.Fatalf("found %d transcripts, want the 9 of the reference folder", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			got, err := Conform(f, safefile.ReadFile)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(got)
		})
	}
}

// The capture line of every offset is the reference table's.
func TestCaptureLineTable(t *testing.T) {
	fh, err := os.Open("testdata/capture_line_cells.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "dx,") || line == "" {
			continue
		}
		parts := strings.Split(line, ",")
		dx, _ := strconv.Atoi(parts[0])
		dy, _ := strconv.Atoi(parts[1])
		var want []string
		if len(parts) > 3 && parts[3] != "" {
			want = strings.Split(parts[3], ";")
		}
		var got []string
		for _, c := range CaptureLine(dx, dy) {
			got = append(got, fmt.Sprintf("%d:%d", c.X, c.Y))
		}
		if strings.Join(got, ";") != strings.Join(want, ";") {
			t.Errorf("offset (%d,%d): cells %v, want %v", dx, dy, got, want)
		}
		rows++
	}
	// Offsets within distance 4: 49 in a radius-4 disc, less the centre.
	if rows != 48 {
		t.Errorf("read %d offsets, want 48", rows)
	}
}
