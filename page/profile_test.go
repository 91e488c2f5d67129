package page

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profile records V8's CPU profile of the page's main thread while do
// runs, sampling every 200 µs: the profile as DevTools saves it
// (.cpuprofile, which its performance panel and speedscope open). The
// page's Go functions carry their names only in a program built with
// ARENA_WASM_NAMES=1 (see buildWasm).
func (b *browser) profile(do func()) *profiler.Profile {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, profiler.Start, cdp.Empty{})
		return err
	})); err != nil {
		b.fatalf("profiling: %v", err)
	}
	do()
	var p *profiler.Profile
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, profiler.Stop, cdp.Empty{})
		p = r.Profile
		return err
	})); err != nil {
		b.fatalf("profiling: %v", err)
	}
	return p
}

// profileJSON is the profile as DevTools writes a .cpuprofile file.
func profileJSON(p *profiler.Profile) []byte {
	data, _ := json.Marshal(p)
	return data
}

// topFunctions says where the main thread's time went: the n functions
// with the most time with them on the stack (total, each counted once a
// sample however often it recurs), and each one's own time (self), in
// milliseconds and as a share of the profile's length.
func topFunctions(p *profiler.Profile, n int) []string {
	parent := map[int64]int64{}
	byID := map[int64]*profiler.ProfileNode{}
	for _, node := range p.Nodes {
		byID[node.ID] = node
		for _, c := range node.Children {
			parent[c] = node.ID
		}
	}
	name := func(node *profiler.ProfileNode) string {
		if node.CallFrame.FunctionName == "" {
			return "(anonymous " + node.CallFrame.URL + ")"
		}
		return node.CallFrame.FunctionName
	}
	self, total := map[string]float64{}, map[string]float64{}
	for i, id := range p.Samples {
		if i+1 >= len(p.TimeDeltas) {
			break
		}
		ms := float64(p.TimeDeltas[i+1]) / 1000 // the time until the next sample
		self[name(byID[id])] += ms
		seen := map[string]bool{}
		for at, ok := id, true; ok; at, ok = parent[at] {
			f := name(byID[at])
			if !seen[f] {
				seen[f], total[f] = true, total[f]+ms
			}
		}
	}
	length := (p.EndTime - p.StartTime) / 1000
	names := slices.SortedFunc(maps.Keys(total), func(a, b string) int { return cmp.Compare(total[b], total[a]) })
	var out []string
	for _, f := range names[:min(n, len(names))] {
		out = append(out, fmt.Sprintf("%7.0f ms %5.1f%% total, %7.0f ms self: %s", total[f], 100*total[f]/length, self[f], f))
	}
	return out
}
