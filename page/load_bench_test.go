package page

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkPageFirstFrame measures how long after navigation the page
// draws its first frame, on a first visit (a browser with an empty cache)
// and on a reload (the same browser again: the HTTP cache answers 304 and
// the browser may reuse the code it compiled), each the median of rounds,
// and the same for the blank Ebitengine program served the same way as
// the reference, rounds alternated. Localhost, headless Chromium, software
// WebGL: what the network adds is the first load's size (site_test.go).
func BenchmarkPageFirstFrame(bm *testing.B) {
	s, err := builtSite()
	if err != nil {
		bm.Fatal(err)
	}
	s.compressBrotli() // as the servers serve it
	blank, err := blankSite(s)
	if err != nil {
		bm.Fatal(err)
	}
	blank.compressBrotli()
	const rounds = 5
	for bm.Loop() {
		times := map[string][]float64{}
		for round := range rounds {
			for _, site := range []struct {
				name string
				s    *Site
			}{{"page", s}, {"blank", blank}} {
				first, reload := firstFrames(bm, site.s)
				times[site.name+"-first"] = append(times[site.name+"-first"], first.frame)
				times[site.name+"-reload"] = append(times[site.name+"-reload"], reload.frame)
				times[site.name+"-paint-first"] = append(times[site.name+"-paint-first"], first.paint)
				times[site.name+"-paint-reload"] = append(times[site.name+"-paint-reload"], reload.paint)
				bm.Logf("round %d, %s: first visit painted at %.0f ms, its first frame at %.0f ms; reload %.0f, %.0f ms", round, site.name, first.paint, first.frame, reload.paint, reload.frame)
			}
		}
		for _, k := range []string{"page-first", "page-reload", "blank-first", "blank-reload", "page-paint-first", "page-paint-reload", "blank-paint-first"} {
			bm.ReportMetric(median(times[k]), k+"-ms")
		}
		bm.ReportMetric(median(times["page-first"])/median(times["blank-first"]), "first-x-blank")
		bm.ReportMetric(median(times["page-reload"])/median(times["blank-reload"]), "reload-x-blank")
		bm.ReportMetric(slices.Max(times["page-first"]), "page-first-max-ms")
		bm.ReportMetric(slices.Max(times["page-reload"]), "page-reload-max-ms")
	}
}

// visitTimes are a visit's milliseconds from the navigation to the
// first paint (the browser's first-contentful-paint) and to the program's
// first frame.
type visitTimes struct{ paint, frame float64 }

// firstFrames opens s in a new browser (an empty profile: nothing cached)
// and then once more in the same one, and returns each visit's times.
func firstFrames(bm *testing.B, s *Site) (first, reload visitTimes) {
	ts := httptest.NewServer(s.handler())
	defer ts.Close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium()),
		chromedp.NoSandbox,
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(bm.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the browser started before the clock
		bm.Fatal(err)
	}
	visit := func() visitTimes {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
			bm.Fatal(err)
		}
		// The first frame's time and the first paint's, read at once:
		// polled, as the page's context comes and goes while it loads.
		var got []float64
		for try := 0; ; try++ {
			js, err := chromedp.Run(ctx, chromedp.Poll[string](`window.arenaTimings && window.arenaTimings.sinceNavigation &&
				JSON.stringify([window.arenaTimings.sinceNavigation, (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime])`,
				chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute)))
			if err == nil {
				err = json.Unmarshal([]byte(js), &got)
			}
			if err == nil {
				break
			}
			if try == 3 {
				bm.Fatal(err)
			}
		}
		ms, paint := got[0], got[1]
		for try := 0; paint <= 0; try++ { // the browser records it a little later
			p, err := chromedp.Run(ctx, chromedp.Poll[float64](`(performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime`,
				chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
			if err == nil {
				paint = p
			} else if try == 3 {
				bm.Fatal(err)
			}
		}
		return visitTimes{paint, ms}
	}
	first = visit()
	// Let the browser finish what it does after a load (writing the
	// compiled code to its cache) as a person's next visit would.
	time.Sleep(2 * time.Second)
	return first, visit()
}

// BenchmarkWorkerMatch computes the same match in the page's worker, as
// the page's program serving as its own worker, and as the engine-only
// worker the page loaded before (page/testdata/engineworker, given with
// ?worker=), rounds alternated, and reports the turns a second of each
// (the median of 3) and their ratio.
func BenchmarkWorkerMatch(bm *testing.B) {
	s, err := builtSite()
	if err != nil {
		bm.Fatal(err)
	}
	root, _ := filepath.Abs("..")
	dir := bm.TempDir()
	engine, err := buildWasm(root, "./page/testdata/engineworker", filepath.Join(dir, "engineworker.wasm"), "")
	if err != nil {
		bm.Fatal(err)
	}
	withEngine := &Site{files: append(slices.Clone(s.files), &file{name: "engineworker.wasm", ctype: "application/wasm", data: engine, gz: gzipBytes(engine)})}
	b := newBrowserOn(bm, withEngine)
	// strong's searches, CPU-bound: their rate is taken from the first
	// turn computed to the last, so that neither program's start counts.
	const match = "?game=colosseum&p1=strong:nodes=30000&p2=strong:nodes=30000&preset=9&seed=7"
	rate := func(query string) float64 {
		b.open(query)
		b.waitJS(`JSON.parse(window.arenaTest.status()).computed >= 1`, 5*time.Minute)
		start, from := time.Now(), b.status().Computed
		b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
		return float64(b.status().Computed-from) / time.Since(start).Seconds()
	}
	for bm.Loop() {
		var page, old []float64
		for range 3 {
			page = append(page, rate(match))
			old = append(old, rate(match+"&worker=engineworker.wasm"))
		}
		bm.Logf("turns a second, the page's program: %.1f; the engine-only worker: %.1f (%d turns)", page, old, b.status().Computed)
		bm.ReportMetric(median(page), "turns/s")
		bm.ReportMetric(median(old), "engine-worker-turns/s")
		bm.ReportMetric(median(page)/median(old), "x-engine-worker")
	}
}
