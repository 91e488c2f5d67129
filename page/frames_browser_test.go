package page

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// spin keeps one core busy until the function it returns is called: the
// load a match's computing puts beside the page.
func spin() (stop func() float64) { return spinShare(1) }

// spinShare keeps a share of one core busy until the function it
// returns is called, which says the share it kept. The share is counted
// in the thread's CPU time, not the wall clock's: a thread that spun for
// a share of each 10 ms of the wall clock got less than that share on a
// machine the page's frames also fill, while a match's computing, which
// wants all it can have, gets what the scheduler gives; so the blank
// page was measured under less load than the stream it was set beside.
// This spinner spins whenever its CPU time is behind share times the
// time since it began, and sleeps a millisecond when it is ahead.
func spinShare(share float64) (stop func() float64) {
	var done atomic.Bool
	kept := make(chan float64, 1)
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		start, cpu0 := time.Now(), threadCPU()
		for !done.Load() {
			if float64(threadCPU()-cpu0) >= share*float64(time.Since(start)) {
				time.Sleep(time.Millisecond)
				continue
			}
			for t := time.Now(); time.Since(t) < 200*time.Microsecond; {
			}
		}
		kept <- float64(threadCPU()-cpu0) / float64(time.Since(start))
	}()
	return func() float64 {
		done.Store(true)
		return <-kept
	}
}

// spinCores keeps cores of the machine busy, a fraction of one included
// (1.3: one core and 30% of another), until the function it returns is
// called, which says how many it kept.
func spinCores(cores float64) (stop func() float64) {
	var stops []func() float64
	for ; cores > 0; cores-- {
		stops = append(stops, spinShare(min(cores, 1)))
	}
	return func() float64 {
		kept := 0.0
		for _, s := range stops {
			kept += s()
		}
		return kept
	}
}

// computingCPU is the CPU time the computing of a page's match has taken
// so far, from /proc: the page's match workers (Chromium's threads named
// DedicatedWorker) or, for a match the server computes (onServer), this
// process and every process it started but Chromium's.
func computingCPU(onServer bool) time.Duration {
	procs := readProcs()
	var ticks int64
	if !onServer {
		for pid, p := range procs {
			if !strings.HasPrefix(p.comm, "chrom") {
				continue
			}
			tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/stat", pid))
			for _, t := range tasks {
				if th, ok := statOf(t); ok && strings.HasPrefix(th.comm, "DedicatedWorker") {
					ticks += th.cpu
				}
			}
		}
		return time.Duration(ticks) * time.Second / 100
	}
	self := os.Getpid()
	for pid, p := range procs {
		if strings.HasPrefix(p.comm, "chrom") {
			continue
		}
		// Started by this process, not by Chromium.
		for at := pid; at > 1; at = procs[at].ppid {
			if at == self {
				ticks += p.cpu
				break
			}
			if strings.HasPrefix(procs[at].comm, "chrom") {
				break
			}
		}
	}
	return time.Duration(ticks) * time.Second / 100
}

// proc is what computingCPU reads of a process: its name, parent and
// CPU ticks (user and system).
type proc struct {
	comm  string
	state string // R, S, Z …
	ppid  int
	cpu   int64
}

func readProcs() map[int]proc {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	procs := map[int]proc{}
	for _, path := range stats {
		var pid int
		fmt.Sscan(strings.Split(path, "/")[2], &pid)
		if p, ok := statOf(path); ok {
			procs[pid] = p
		}
	}
	return procs
}

// statOf reads a process's or a thread's /proc stat file: its name
// (which may hold spaces and parentheses: the fields are read after the
// last ')'), its state and parent (the 3rd and 4th fields) and its CPU
// ticks (utime and stime, the 14th and 15th).
func statOf(path string) (proc, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return proc{}, false
	}
	open, shut := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || shut < open {
		return proc{}, false
	}
	f := strings.Fields(string(data[shut+1:]))
	if len(f) < 13 {
		return proc{}, false
	}
	p := proc{comm: string(data[open+1 : shut]), state: f[0]}
	var u, s int64
	fmt.Sscan(f[1], &p.ppid)
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	p.cpu = u + s
	return p, true
}

// BenchmarkBlankUnderLoad measures what any computing beside the page
// costs its frames on this machine: the blank Ebitengine page's rate
// while a share of one core is kept busy, as a ratio to its rate idle
// just before (medians of 3 rounds), and the cores Chromium's processes
// take while it draws idle (Linux: /proc). In software WebGL the blank
// page takes nearly every core it can: a match's worker computing on one
// of two cores takes its frames whatever the page draws.
func BenchmarkBlankUnderLoad(bm *testing.B) {
	s, err := builtSite()
	if err != nil {
		bm.Fatal(err)
	}
	blank, err := blankSite(s)
	if err != nil {
		bm.Fatal(err)
	}
	b := newBrowserOn(bm, blank)
	rate := func() (fps, cores float64) {
		b.open("")
		b.awaitFrames(30)
		cpu0, t0 := chromiumCPU(), time.Now()
		fr, _ := measureRate(b, false, "", "", bm)
		return fr.fps, (chromiumCPU() - cpu0).Seconds() / time.Since(t0).Seconds()
	}
	for bm.Loop() {
		shares := []float64{0.1, 0.25, 0.5, 1}
		ratios := make([][]float64, len(shares))
		var idleCores []float64
		for range 3 {
			for i, share := range shares {
				idle, cores := rate()
				stop := spinShare(share)
				busy, _ := rate()
				stop()
				ratios[i] = append(ratios[i], busy/idle)
				idleCores = append(idleCores, cores)
			}
		}
		for i, share := range shares {
			bm.ReportMetric(median(ratios[i]), fmt.Sprintf("x-idle-at-%.0f%%-of-a-core", 100*share))
		}
		bm.ReportMetric(median(idleCores), "chromium-cores-idle")
		bm.ReportMetric(float64(goruntime.NumCPU()), "cores")
	}
}

// chromiumCPU is the CPU time Chromium's processes (any process named
// chrom…) have taken so far, from /proc; 0 where there is none.
func chromiumCPU() time.Duration {
	var ticks int64
	for _, p := range readProcs() {
		if strings.HasPrefix(p.comm, "chrom") {
			ticks += p.cpu
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// BenchmarkPageFrames measures the page's frame rate on each view at
// 1280x800, three times, each right after that of a blank Ebitengine program
// (internal/blank, built here with the same Ebitengine) on the same
// index.html in the same browser: each view reports its rate as a ratio
// to the blank page's just before (x-blank), so that a machine that gets
// busier or quieter during the run moves both, beside the longest frame,
// the frames over 250 ms (slow), the Go side of a frame and the share of
// the screen a frame drew. A stream (a view measured while its match is
// computed) is also held to the blank page under the same load in the
// same round (x-blank-same-load): the blank page opened with as many
// cores kept busy as the stream's computing took (computing-cores, from
// /proc), counted for as long and from the same frame.
//
// With ARENA_TRACE set to a directory, each round is also traced from its
// 31st frame, a stream from its navigation (the rates are then not
// comparable with untraced ones): the traces are written there for
// Perfetto's UI, and the log (go test -v) says where each slow frame's
// time went (slowFrames). With ARENA_PROFILE
// set to a directory, the main thread's CPU is profiled while each stream
// comes in (views measured during their match): the profiles are written
// there, and the log names the functions that took the time (build the
// page with ARENA_WASM_NAMES=1 for Go's names). With ARENA_BEFORE set to
// a revision, each stream is also measured on the page built at that
// revision, in the same rounds (the -before metrics): a change's before
// and after from one run. With ARENA_GAPS set, the log gives every
// interval between frames of each stream's pass and of the blank page
// counted beside it: a short stream's rate is a handful of frames, and
// its first interval (the view's first composite) weighs the most.
func BenchmarkPageFrames(bm *testing.B) {
	// The site offers the tests' programs: the last view plays one.
	s := programSite(bm)
	blank, err := blankSite(s)
	if err != nil {
		bm.Fatal(err)
	}
	b := newBrowserOn(bm, s)
	onBlank := b.on(blank)
	var before *browser
	if rev := os.Getenv("ARENA_BEFORE"); rev != "" {
		old, err := siteAt(bm, rev)
		if err != nil {
			bm.Fatal(err)
		}
		// The page of then, served by the server of now.
		before = b.on(&Site{files: old.files, programs: s.programs, gauntletDir: s.gauntletDir, serve: s.serve})
	}
	traceDir := os.Getenv("ARENA_TRACE")
	profileDir := os.Getenv("ARENA_PROFILE")
	for _, dir := range []string{traceDir, profileDir} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			bm.Fatal(err)
		}
	}
	// rate plays a view for 240 frames after its first 30, once its match
	// is computed (a bot computing in the worker shares the CPU with the
	// drawing); the longest and the slow frames count those while it
	// computes too.
	rate := func(b *browser, query string, match bool, name string) (fr frames, st status) {
		b.open(query)
		b.awaitFrames(30)
		return measureRate(b, match, name, traceDir, bm)
	}
	// Life at 4096x4096, as a person opens it: the config dropped on a
	// Life match (a link cannot carry a file), 16 generations.
	life4096 := filepath.Join(bm.TempDir(), "life-4096.json")
	if err := os.WriteFile(life4096, []byte(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": 4096, "cols": 4096, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": 16, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`), 0o644); err != nil {
		bm.Fatal(err)
	}
	// during counts the frames drawn while a match is computed, from the
	// page's first frame to the match's end, as its turns stream in; a
	// query with a file to drop counts from the drop's match instead.
	traced := 0 // the passes traced so far
	during := func(b *browser, query, drop string) (fr frames, st status) {
		var start time.Time
		var cpu0, main0, gpu0 time.Duration
		var threads0 map[string]int64
		onServer := strings.Contains(query, "served:")
		// Polled without the status's JSON: the blank page it is held
		// to is not polled at all (a page of before this hook is).
		wait := func() {
			b.waitJS(`window.arenaTest.done ? window.arenaTest.done() : JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
		}
		run := func() {
			b.open(query)
			if drop != "" {
				b.waitJS(`JSON.parse(window.arenaTest.status()).view == "match"`, time.Minute)
				b.drop(drop)
				b.waitJS(`JSON.parse(window.arenaTest.status()).preset == "file:`+filepath.Base(drop)+`"`, time.Minute)
			}
			eval[any](b, `window.arenaFrames.reset()`)
			start, cpu0 = time.Now(), computingCPU(onServer)
			main0, gpu0 = browserCPU()
			threads0 = chromiumThreads()
			if profileDir == "" {
				wait()
				return
			}
			p := b.profile(wait)
			if err := os.WriteFile(filepath.Join(profileDir, fileName(query)+".cpuprofile"), profileJSON(p), 0o644); err != nil {
				bm.Fatal(err)
			}
			for _, line := range topFunctions(p, 60) {
				bm.Logf("%s: %s", query, line)
			}
		}
		if traceDir == "" {
			run()
		} else {
			// From the navigation: a trace started after the first
			// frame misses the frames right after it. Each pass's is
			// kept: a slow frame comes in one pass, not in each.
			traced++
			b.saveTrace(bm, traceDir, fmt.Sprintf("%s-%d", fileName(query), traced), run)
		}
		fr.n = eval[int](b, `window.arenaFrames.count`)
		fr.dur = time.Since(start)
		fr.fps = float64(fr.n) / fr.dur.Seconds()
		fr.load = (computingCPU(onServer) - cpu0).Seconds() / fr.dur.Seconds()
		fr.perFrame(main0, gpu0)
		if os.Getenv("ARENA_THREADS") != "" {
			bm.Logf("%s: Chromium's threads, ms a frame: %s", query, threadsPerFrame(threads0, chromiumThreads(), fr.n))
		}
		fr.longest, fr.slow = eval[float64](b, `window.arenaFrames.max`), eval[int](b, `window.arenaFrames.slow`)
		fr.memMB = eval[float64](b, `window.arenaMemory ? window.arenaMemory() : 0`) / (1 << 20)
		if os.Getenv("ARENA_GAPS") != "" {
			bm.Logf("%s: gaps %v", query, roundAll(eval[[]float64](b, `window.arenaFrames.gaps`)))
		}
		st = b.status()
		if fr.slow > 0 {
			bm.Logf("%s: the frames over 250 ms: %s (the pass's longest Go update %.1f ms, of which the view's layout %.1f ms and following the turns %.1f ms; Go draw %.1f ms)", query, slowGaps(eval[[]float64](b, `window.arenaFrames.gaps`)), st.UpdateMax, st.UpdateMaxLayout, st.UpdateMaxFollow, st.DrawMax)
		}
		return fr, st
	}
	// blankLike counts the blank page's frames as a stream's were
	// counted: with the cores its match's computing took kept busy, for
	// as long, from the page's first frame (fresh) or, as a stream on a
	// page already open (a dropped file's match) was, from its 31st.
	blankLike := func(v frames, fresh bool) (fr frames) {
		stop := spinCores(v.load)
		defer func() { fr.load = stop() }()
		onBlank.open("")
		if !fresh {
			onBlank.awaitFrames(30)
		}
		eval[any](onBlank, `window.arenaFrames.reset()`)
		start := time.Now()
		main0, gpu0 := browserCPU()
		threads0 := chromiumThreads()
		time.Sleep(v.dur)
		fr.n = eval[int](onBlank, `window.arenaFrames.count`)
		fr.perFrame(main0, gpu0)
		if os.Getenv("ARENA_THREADS") != "" {
			bm.Logf("the blank page under the same load: Chromium's threads, ms a frame: %s", threadsPerFrame(threads0, chromiumThreads(), fr.n))
		}
		fr.dur = time.Since(start)
		fr.fps = float64(fr.n) / fr.dur.Seconds()
		fr.longest, fr.slow = eval[float64](onBlank, `window.arenaFrames.max`), eval[int](onBlank, `window.arenaFrames.slow`)
		if os.Getenv("ARENA_GAPS") != "" {
			bm.Logf("blank alike: gaps %v", roundAll(eval[[]float64](onBlank, `window.arenaFrames.gaps`)))
		}
		return fr
	}
	for _, c := range []struct {
		name, query string
		during      bool   // measured while the match is computed, not after
		drop        string // a config file dropped on the query's match
	}{
		{"start", "", false, ""},
		{"life", "?game=life&p1=strong&p2=greedy&seed=7", false, ""},
		{"colosseum", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7", false, ""},
		{"mapcolor", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5", false, ""},
		{"evasion", "?game=evasion&p1=strong&p2=greedy&seed=7", false, ""},
		{"pathgame", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5", false, ""},
		// The thinking layer on, the playhead held at a turn whose notes
		// mark the board: the marks are drawn every frame.
		{"life-thinking", "?game=life&p1=strong&p2=greedy&seed=7&thinking=1&turn=20", false, ""},
		{"colosseum-thinking", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7&thinking=1&turn=6", false, ""},
		{"mapcolor-thinking", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5&thinking=1&turn=3", false, ""},
		{"evasion-thinking", "?game=evasion&p1=strong&p2=greedy&seed=7&thinking=1&turn=41", false, ""},
		{"pathgame-thinking", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5&thinking=1&turn=6", false, ""},
		// The layer on while the match plays: each turn's marks drawn as
		// the playhead reaches it.
		{"life-thinking-playing", "?game=life&p1=strong&p2=greedy&seed=7&thinking=1", false, ""},
		{"colosseum-thinking-playing", "?game=colosseum&p1=strong&p2=greedy&preset=9&seed=7&thinking=1", false, ""},
		{"mapcolor-thinking-playing", "?game=mapcolor&p1=course&p2=greedy&preset=voronoi&seed=5&thinking=1", false, ""},
		{"evasion-thinking-playing", "?game=evasion&p1=strong&p2=greedy&seed=7&thinking=1", false, ""},
		{"pathgame-thinking-playing", "?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5&thinking=1", false, ""},
		// A student's Evasion client plays on the server while the page
		// draws what streams in (30,000 turns, several seconds): its
		// frames are counted from the page's first to the match's end.
		{"program", "?game=evasion&p1=served:client&p2=strong&seed=7", true, ""},
		// Its peer: a session of built-in bots counted the same way, from
		// the first frame to the end of the worker's computing.
		{"computing", "?game=evasion&p1=greedy&p2=strong&seed=7", true, ""},
		// The long streams of Step 29: an Evasion session of 30,269
		// ticks (walls every tick, two at most), the shortest path on
		// 1,000 nodes, each counted from the first frame to the end of
		// the worker's computing.
		{"stream-evasion", "?game=evasion&preset=2-1&p1=strong&p2=greedy&seed=3", true, ""},
		{"stream-pathgame", "?game=pathgame&preset=gen-1000&p1=strong&p2=greedy&seed=5", true, ""},
		{"stream-life-4096", "?game=life&p1=random&p2=random&seed=1", true, life4096},
	} {
		bm.Run(c.name, func(bm *testing.B) {
			for bm.Loop() {
				// Three rounds, the median reported: one round's rate in
				// software WebGL varies by a tenth or more.
				var views, blanks, busyBlanks, befores, alike []frames
				// The longest Go-side draw and update of any pass or round.
				var goDrawMax, goUpdateMax float64
				goMax := func(s status) {
					goDrawMax, goUpdateMax = max(goDrawMax, s.DrawMax), max(goUpdateMax, s.UpdateMax)
				}
				var st status
				for round := range 3 {
					bl, _ := rate(onBlank, "", false, fmt.Sprintf("%s-%d-blank", c.name, round))
					if c.during {
						// The blank page again with one core taken, as
						// the match's computing takes one: on two cores
						// the page then has the other, and so has the
						// blank page here.
						stop := spin()
						bb, _ := rate(onBlank, "", false, fmt.Sprintf("%s-%d-blank-busy", c.name, round))
						stop()
						busyBlanks = append(busyBlanks, bb)
					}
					var v frames
					var s status
					if c.during {
						// The stream, then the blank page under the same
						// load counted the same way (and the page before,
						// if asked), in turn, until the stream has counted
						// streamFrames: a short stream (computing is over
						// in half a second) counts a handful of frames a
						// pass, and one frame more or less moved a round's
						// ratio by a tenth or more. The passes' frames and
						// times are pooled.
						var a, w frames
						for pass := 0; pass == 0 || v.n < streamFrames && pass < maxPasses; pass++ {
							pv, ps := during(b, c.query, c.drop)
							bm.Logf("%s round %d: %d frames in %v while %d turns were computed, the computing taking %.2f cores", c.name, round, pv.n, pv.dur.Round(time.Millisecond), ps.Computed, pv.load)
							v, s, a = v.pool(pv), ps, a.pool(blankLike(pv, c.drop == ""))
							goMax(ps)
							if before != nil {
								pw, _ := during(before, c.query, c.drop)
								w = w.pool(pw)
							}
						}
						alike = append(alike, a)
						bm.Logf("%s round %d: %d frames, %.1f frames/s, the blank page under the same load %.1f (%.2f), main thread %.1f against %.1f ms a frame, the program's memory %.0f MB", c.name, round,
							v.n, v.fps, a.fps, v.fps/a.fps, v.mainMs, a.mainMs, v.memMB)
						if before != nil {
							bm.Logf("%s round %d, before: %d frames in %v, %.1f frames/s (%.2f of the blank page under the same load), main thread %.1f ms a frame, the program's memory %.0f MB",
								c.name, round, w.n, w.dur.Round(time.Millisecond), w.fps, w.fps/a.fps, w.mainMs, w.memMB)
							befores = append(befores, w)
						}
					} else {
						v, s = rate(b, c.query, c.query != "", fmt.Sprintf("%s-%d", c.name, round))
						goMax(s)
					}
					views, blanks, st = append(views, v), append(blanks, bl), s
				}
				var ratios []float64
				for i := range views {
					ratios = append(ratios, views[i].fps/blanks[i].fps)
				}
				bm.ReportMetric(median(fpsOf(views)), "frames/s")
				bm.ReportMetric(median(fpsOf(blanks)), "blank-frames/s")
				bm.ReportMetric(median(ratios), "x-blank")
				bm.ReportMetric(slices.Min(ratios), "x-blank-min")
				if busyBlanks != nil {
					var busy []float64
					for i := range views {
						busy = append(busy, views[i].fps/busyBlanks[i].fps)
					}
					bm.ReportMetric(median(fpsOf(busyBlanks)), "busy-blank-frames/s")
					bm.ReportMetric(median(busy), "x-busy-blank")
					bm.ReportMetric(longestOf(busyBlanks), "busy-blank-longest-frame-ms")
				}
				if alike != nil {
					var same, loads, spun []float64
					for i := range views {
						same = append(same, views[i].fps/alike[i].fps)
						loads = append(loads, views[i].load)
						spun = append(spun, alike[i].load)
					}
					bm.ReportMetric(median(same), "x-blank-same-load")
					bm.ReportMetric(slices.Min(same), "x-blank-same-load-min")
					bm.ReportMetric(median(loads), "computing-cores")
					var mem []float64
					for _, v := range views {
						mem = append(mem, v.memMB)
					}
					bm.ReportMetric(median(mem), "memory-mb")
					// What the spinner kept busy beside the blank page: the
					// same load, counted the same way.
					bm.ReportMetric(median(spun), "same-load-spun-cores")
					bm.ReportMetric(median(fpsOf(alike)), "same-load-blank-frames/s")
					bm.ReportMetric(longestOf(alike), "same-load-blank-longest-frame-ms")
					// Where a frame's CPU goes, the page's against the
					// blank page's under the same load.
					main, gpu := msOf(views)
					bmain, bgpu := msOf(alike)
					bm.ReportMetric(median(main), "main-thread-ms/frame")
					bm.ReportMetric(median(bmain), "same-load-blank-main-thread-ms/frame")
					bm.ReportMetric(median(gpu), "gpu-process-ms/frame")
					bm.ReportMetric(median(bgpu), "same-load-blank-gpu-process-ms/frame")
				}
				if befores != nil {
					var was, wasBusy []float64
					for i := range befores {
						was = append(was, befores[i].fps/blanks[i].fps)
						wasBusy = append(wasBusy, befores[i].fps/busyBlanks[i].fps)
					}
					bm.ReportMetric(median(fpsOf(befores)), "before-frames/s")
					bm.ReportMetric(median(was), "x-blank-before")
					if alike != nil {
						var wasSame []float64
						for i := range befores {
							wasSame = append(wasSame, befores[i].fps/alike[i].fps)
						}
						bm.ReportMetric(median(wasSame), "x-blank-same-load-before")
					}
					bm.ReportMetric(median(wasBusy), "x-busy-blank-before")
					// The page's own CPU a frame, then and now: steadier
					// than the rates, which vary by a tenth a round.
					if wasMain, _ := msOf(befores); alike != nil {
						main, _ := msOf(views)
						bm.ReportMetric(median(wasMain), "before-main-thread-ms/frame")
						bm.ReportMetric(median(main)/median(wasMain), "main-thread-x-before")
					}
					bm.ReportMetric(longestOf(befores), "before-longest-frame-ms")
					slow, _ := slowOf(befores)
					bm.ReportMetric(float64(slow), "before-slow-frames")
				}
				bm.ReportMetric(longestOf(views), "longest-frame-ms")
				bm.ReportMetric(longestOf(blanks), "blank-longest-frame-ms")
				vs, vn := slowOf(views)
				bs, bn := slowOf(blanks)
				bm.ReportMetric(float64(vs), "slow-frames")
				bm.ReportMetric(float64(vn), "frames")
				bm.ReportMetric(float64(bs), "blank-slow-frames")
				bm.ReportMetric(float64(bn), "blank-frames")
				bm.ReportMetric(st.DrawMs, "go-draw-ms")
				bm.ReportMetric(goDrawMax, "go-draw-max-ms")
				bm.ReportMetric(goUpdateMax, "go-update-max-ms")
				bm.ReportMetric(100*st.Drawn, "%-drawn")
			}
		})
	}
}

// measureRate counts a view's frames: with match, once its match is
// computed; with traceDir, traced (see BenchmarkPageFrames).
func measureRate(b *browser, match bool, name, traceDir string, bm *testing.B) (fr frames, st status) {
	measure := func() {
		eval[any](b, `window.arenaFrames.reset()`)
		if match {
			b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
		}
		fr.longest, fr.slow = eval[float64](b, `window.arenaFrames.max`), eval[int](b, `window.arenaFrames.slow`)
		fr.n = eval[int](b, `window.arenaFrames.count`)
		eval[any](b, `window.arenaFrames.reset()`)
		start := time.Now()
		b.awaitFrames(240)
		n := eval[int](b, `window.arenaFrames.count`)
		fr.fps = float64(n) / time.Since(start).Seconds()
		fr.longest = max(fr.longest, eval[float64](b, `window.arenaFrames.max`))
		fr.slow += eval[int](b, `window.arenaFrames.slow`)
		fr.n += n
		st = b.status()
	}
	if traceDir == "" {
		measure()
		return fr, st
	}
	b.saveTrace(bm, traceDir, name, measure)
	return fr, st
}

// saveTrace traces do (see trace) into dir/name.json, for Perfetto's UI,
// and logs where each slow frame's time went (slowFrames).
func (b *browser) saveTrace(bm *testing.B, dir, name string, do func()) {
	data, events := b.trace(do)
	if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
		bm.Fatal(err)
	}
	for _, line := range slowFrames(events) {
		bm.Logf("%s: %s", name, line)
	}
}

// fileName is a page's query as a file's name.
func fileName(query string) string {
	return strings.NewReplacer("?", "", "&", "-", "=", "-").Replace(query)
}

// slowGaps says which of a page's frames (the intervals it measured)
// took over 250 ms, and how long: "frame 3 of 40, 331 ms".
func slowGaps(gaps []float64) string {
	var out []string
	for i, ms := range gaps {
		if ms > 250 {
			out = append(out, fmt.Sprintf("frame %d of %d, %.0f ms", i+1, len(gaps), ms))
		}
	}
	return strings.Join(out, "; ")
}

// frames is what one round saw of a page: its rate once the match was
// computed, its longest frame, and how many of its n frames took over
// 250 ms (slow), computing included.
type frames struct {
	fps, longest float64
	slow, n      int
	// A stream's: how long it was counted, and the cores its match's
	// computing took meanwhile (computingCPU).
	dur  time.Duration
	load float64
	// Chromium's CPU while they were counted, a frame: its renderers'
	// main threads' (where the page's Go runs and WebGL is called) and
	// its GPU process's (where SwiftShader draws), in ms.
	mainMs, gpuMs float64
	// The page's program's memory when its match ended, in MB (0 for a
	// page before boot.js told it).
	memMB float64
}

// streamFrames is the fewest frames a round of a stream counts, in
// passes of the stream and of the blank page beside it (at most
// maxPasses).
const streamFrames, maxPasses = 60, 8

// pool is the count of f and g, counted one after the other, as one.
func (f frames) pool(g frames) frames {
	n := f.n + g.n
	p := frames{n: n, dur: f.dur + g.dur, slow: f.slow + g.slow, longest: max(f.longest, g.longest), memMB: max(f.memMB, g.memMB)}
	if p.dur > 0 {
		p.fps = float64(n) / p.dur.Seconds()
		p.load = (f.load*f.dur.Seconds() + g.load*g.dur.Seconds()) / p.dur.Seconds()
	}
	if n > 0 {
		p.mainMs = (f.mainMs*float64(f.n) + g.mainMs*float64(g.n)) / float64(n)
		p.gpuMs = (f.gpuMs*float64(f.n) + g.gpuMs*float64(g.n)) / float64(n)
	}
	return p
}

// browserCPU is the CPU Chromium's renderers' main threads and its GPU
// process have taken so far.
func browserCPU() (main, gpu time.Duration) {
	var mainTicks, gpuTicks int64
	for pid, p := range readProcs() {
		if !strings.HasPrefix(p.comm, "chrom") {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		switch {
		case bytes.Contains(cmd, []byte("--type=gpu-process")):
			gpuTicks += p.cpu
		case bytes.Contains(cmd, []byte("--type=renderer")):
			// The renderer's main thread is its first (named as the
			// process, not CrRendererMain, on Linux).
			if th, ok := statOf(fmt.Sprintf("/proc/%d/task/%d/stat", pid, pid)); ok {
				mainTicks += th.cpu
			}
		}
	}
	return time.Duration(mainTicks) * time.Second / 100, time.Duration(gpuTicks) * time.Second / 100
}

// perFrame sets fr's browser CPU a frame from browserCPU's figures at the
// start of its count.
func (fr *frames) perFrame(main0, gpu0 time.Duration) {
	main, gpu := browserCPU()
	if fr.n > 0 {
		fr.mainMs = float64((main - main0).Milliseconds()) / float64(fr.n)
		fr.gpuMs = float64((gpu - gpu0).Milliseconds()) / float64(fr.n)
	}
}

// msOf are each count's main-thread and GPU-process ms a frame.
func msOf(fs []frames) (main, gpu []float64) {
	for _, f := range fs {
		main, gpu = append(main, f.mainMs), append(gpu, f.gpuMs)
	}
	return main, gpu
}

func fpsOf(fs []frames) []float64 {
	var out []float64
	for _, f := range fs {
		out = append(out, f.fps)
	}
	return out
}

func longestOf(fs []frames) float64 {
	var m float64
	for _, f := range fs {
		m = max(m, f.longest)
	}
	return m
}

func slowOf(fs []frames) (slow, n int) {
	for _, f := range fs {
		slow, n = slow+f.slow, n+f.n
	}
	return slow, n
}

// median returns the middle of vs (the mean of the two middle ones for
// an even count).
func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// siteAt builds the page as it was at a revision of the repository: its
// files (git archive) unpacked in a temporary directory and built there.
func siteAt(t testing.TB, rev string) (*Site, error) {
	dir := t.TempDir()
	tarball := filepath.Join(dir, "rev.tar")
	for _, c := range []*exec.Cmd{
		exec.Command("git", "-C", "..", "archive", "-o", tarball, rev),
		exec.Command("tar", "-xf", tarball, "-C", dir),
	} {
		if out, err := c.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: %v: %s", strings.Join(c.Args, " "), err, out)
		}
	}
	return buildAt(dir)
}

// blankSite is s with the blank Ebitengine program in arena.wasm's place.
func blankSite(s *Site) (*Site, error) {
	dir, err := os.MkdirTemp("", "arena-blank")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	data, err := buildWasm(root, "./internal/blank", filepath.Join(dir, "blank.wasm"), "") // as Ebitengine is
	if err != nil {
		return nil, err
	}
	out := &Site{}
	for _, f := range s.files {
		if f.name == "arena.wasm" {
			f = &file{name: f.name, ctype: f.ctype, data: data, gz: gzipBytes(data)}
		}
		out.files = append(out.files, f)
	}
	return out, nil
}

// chromiumThreads is the CPU ticks each kind of Chromium thread has taken
// so far, by process type and thread name ("renderer/Compositor"), summed
// over processes: where a frame's CPU went beyond the main thread and the
// GPU process (ARENA_THREADS).
func chromiumThreads() map[string]int64 {
	out := map[string]int64{}
	for pid, p := range readProcs() {
		if !strings.HasPrefix(p.comm, "chrom") {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		kind := "browser"
		if _, after, ok := bytes.Cut(cmd, []byte("--type=")); ok {
			kind = string(after[:max(0, bytes.IndexAny(after, "\x00 "))])
		}
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/stat", pid))
		for _, t := range tasks {
			if th, ok := statOf(t); ok {
				out[kind+"/"+th.comm] += th.cpu
			}
		}
	}
	return out
}

// threadsPerFrame says, largest first, the ms a frame each kind of
// Chromium thread took between two chromiumThreads readings.
func threadsPerFrame(from, to map[string]int64, n int) string {
	type use struct {
		name string
		ms   float64
	}
	var uses []use
	for k, v := range to {
		if d := v - from[k]; d > 0 && n > 0 {
			uses = append(uses, use{k, float64(d) * 10 / float64(n)})
		}
	}
	slices.SortFunc(uses, func(a, b use) int { return int(b.ms*1000 - a.ms*1000) })
	var parts []string
	for _, u := range uses[:min(len(uses), 12)] {
		parts = append(parts, fmt.Sprintf("%s %.1f", u.name, u.ms))
	}
	return strings.Join(parts, ", ")
}

// roundAll is each interval to the millisecond, for the log.
func roundAll(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}
