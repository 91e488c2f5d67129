package pathgame

import (
	"path/filepath"
	"testing"

	"github.com/arena-playground/arena/internal/safefile"
)

// Every public scenario replays to its golden trace line for line, LOG
// lines aside; s08 shows the crash at the step the original died.
func TestGoldenScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.json")
	if len(files) != 13 {
		t.Fatalf("found %d scenarios, want the 13 of the reference folder", len(files))
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
