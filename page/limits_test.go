package page

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkPageLimits plays the README's largest Life match in the page,
// as a person would: the config dropped on a Life match, the match then
// computed by the page's worker to its end. It reports the wall time from
// the drop to the end, the computed turns per second, the peak resident
// memory of the browser's renderer process (the page and its worker
// live there), and the longest frame drawn while the worker computed.
// Run it with make limits (LIMITS=page).
func BenchmarkPageLimits(bm *testing.B) {
	cfg := filepath.Join(bm.TempDir(), "life-4096.json")
	// The same config as cmd/arena's limits: 4096x4096 for 4,096
	// iterations, 2^36 cell-generations.
	text := fmt.Sprintf(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": 4096, "cols": 4096, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": %d, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`, (1<<36)/(4096*4096))
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		bm.Fatal(err)
	}
	bm.Run("page/life-4096x4096x4096/random-random", func(bm *testing.B) {
		for bm.Loop() {
			b := newBrowser(bm)
			b.open("?game=life&p1=random&p2=random&seed=1")
			b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match"`, time.Minute)
			before := renderersPeak()
			start := time.Now()
			b.drop(cfg)
			b.waitJS(`JSON.parse(window.arenaTest.status()).preset == "file:life-4096.json"`, time.Minute)
			eval[any](b, `window.arenaFrames.reset()`)
			// The match takes many minutes: say how far it is now and then.
			st := b.status()
			for last := time.Now(); !st.Done; st = b.status() {
				if time.Since(last) > time.Minute {
					fmt.Fprintf(os.Stderr, "%s: %d turns computed, renderer peak %d MB\n",
						time.Since(start).Round(time.Second), st.Computed, renderersPeak()>>20)
					last = time.Now()
				}
				time.Sleep(time.Second)
			}
			wall := time.Since(start)
			longest := eval[float64](b, `window.arenaFrames.max`)
			slow, frames := eval[int](b, `window.arenaFrames.slow`), eval[int](b, `window.arenaFrames.count`)
			peak := renderersPeak()
			bm.ReportMetric(wall.Seconds(), "s/run")
			bm.ReportMetric(float64(st.Computed)/wall.Seconds(), "turns/s")
			bm.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			bm.ReportMetric(longest, "longest-frame-ms")
			bm.ReportMetric(float64(slow), "slow-frames")
			bm.ReportMetric(float64(frames), "frames")
			bm.Logf("%d turns computed in %s; renderer peak %d MB (%d MB before the drop); longest frame %.0f ms, %d of %d frames over 250 ms; result %q",
				st.Computed, wall.Round(time.Second), peak>>20, before>>20, longest, slow, frames, st.Result)
			b.awaitFrames(2)
			b.screenshot("limits-life-4096")
		}
	})
}

// renderersPeak is the largest peak resident memory (VmHWM) of the
// Chromium renderer processes running: the page's, with its worker, is
// the one that holds the match.
func renderersPeak() int64 {
	var peak int64
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !bytes.Contains(cmd, []byte("--type=renderer")) {
			continue
		}
		f, err := os.Open(filepath.Join(d, "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				peak = max(peak, kb<<10)
			}
		}
		f.Close()
	}
	return peak
}
