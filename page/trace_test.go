package page

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceEvent is one event of a Chrome trace (the Trace Event Format):
// times in microseconds, tdur the thread's own CPU time in the event.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Tdur float64         `json:"tdur"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceCategories are those DevTools' performance panel records, with the
// GPU process's and the compositor's: where a frame of software WebGL
// spends its time.
var traceCategories = []string{"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline",
	"blink.console", "gpu", "viz", "cc", "v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed", "__metadata"}

// trace records a Chrome trace of every process of the browser while do
// runs: the trace as Chrome wrote it (JSON, which Perfetto's UI and
// chrome://tracing open) and its events. It comes back as one stream
// (IO.read), in order.
func (b *browser) trace(do func()) ([]byte, []traceEvent) {
	b.t.Helper()
	var complete iter.Seq2[tracing.EventTracingComplete, error]
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		complete = cdp.Events(context.WithoutCancel(ctx), t, tracing.TracingComplete)
		_, err := cdp.Call(ctx, t, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReturnAsStream,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: traceCategories},
		})
		return err
	})); err != nil {
		b.fatalf("tracing: %v", err)
	}
	do()
	var data []byte
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{}); err != nil {
			return err
		}
		for done, err := range complete {
			if err != nil {
				return err
			}
			defer cdp.Call(ctx, t, io.Close, io.CloseParams{Handle: done.Stream})
			for {
				r, err := cdp.Call(ctx, t, io.Read, io.ReadParams{Handle: done.Stream, Size: 1 << 20})
				if err != nil {
					return err
				}
				data = append(data, r.Data...)
				if r.EOF {
					return nil
				}
			}
		}
		return errors.New("no tracingComplete event")
	})); err != nil {
		b.fatalf("tracing: %v", err)
	}
	var trace struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal(data, &trace); err != nil {
		b.fatalf("tracing: the trace of %d bytes: %v", len(data), err)
	}
	return data, trace.TraceEvents
}

// slowFrames says, for each frame the page marked as slow (over 250 ms:
// index.html's console.timeStamp), where its time went: the GPU
// process's SwapBuffers (wall time, and its own CPU time: the rest it
// waited for SwiftShader's raster threads), and the time the GPU
// process's main thread, the page's main thread and a match's worker ran
// tasks (wall, and CPU: a thread starved by other processes has much less
// of the second).
func slowFrames(events []traceEvent) []string {
	threads := map[[2]int]string{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct{ Name string }
			if json.Unmarshal(e.Args, &a) == nil {
				threads[[2]int{e.Pid, e.Tid}] = a.Name
			}
		}
	}
	var out []string
	for _, mark := range events {
		var a struct{ Data struct{ Message string } }
		var ms float64
		if mark.Name != "TimeStamp" || json.Unmarshal(mark.Args, &a) != nil {
			continue
		}
		if _, err := fmt.Sscanf(a.Data.Message, "arena: a frame of %f ms", &ms); err != nil {
			continue
		}
		from, to := mark.Ts-ms*1000, mark.Ts
		overlap := func(e traceEvent) float64 { return max(0, min(e.Ts+e.Dur, to)-max(e.Ts, from)) / 1000 }
		var swap, swapCPU float64
		busy, cpu := map[string]float64{}, map[string]float64{}
		for _, e := range events {
			if e.Ph != "X" || overlap(e) == 0 {
				continue
			}
			switch {
			case e.Name == "SkiaOutputSurfaceImplOnGpu::SwapBuffers":
				swap += overlap(e)
				swapCPU += e.Tdur / 1000 * overlap(e) / (e.Dur / 1000)
			case e.Cat == "toplevel":
				name := threads[[2]int{e.Pid, e.Tid}]
				busy[name] += overlap(e)
				cpu[name] += e.Tdur / 1000 * overlap(e) / (e.Dur / 1000)
			}
		}
		parts := []string{fmt.Sprintf("a frame of %.0f ms: the GPU process's SwapBuffers %.0f ms (its own CPU %.1f ms)", ms, swap, swapCPU)}
		for _, name := range slices.Sorted(maps.Keys(busy)) {
			if strings.HasPrefix(name, "CrRendererMain") || strings.HasPrefix(name, "DedicatedWorker") || strings.HasPrefix(name, "CrGpuMain") {
				parts = append(parts, fmt.Sprintf("%s busy %.0f ms (CPU %.0f ms)", name, busy[name], cpu[name]))
			}
		}
		out = append(out, strings.Join(parts, ", "))
	}
	return out
}
