package page

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestPagePaintsBeforeItsProgram loads the page over a slow line (256 KB
// a second: the program takes seconds to arrive): before any WebAssembly
// is compiled, it shows the start view's card (the title, each game's
// still, the rows greyed, the loading line), written by the page's server
// from the same theme and layout; the program then draws its card over
// it in the same place: the card's box and each still within a pixel,
// at 1280x800 and on a phone.
func TestPagePaintsBeforeItsProgram(t *testing.T) {
	b := newBrowser(t)
	for _, size := range []string{"window", "phone"} {
		name := "first-paint"
		if size == "phone" {
			b.phone()
			name = "phone-first-paint"
		}
		b.throttle(256 << 10)
		if err := chromedp.Do(b.ctx, chromedp.Navigate(b.base+"/")); err != nil {
			b.fatalf("navigate: %v", err)
		}
		b.waitJS(`document.querySelectorAll("#card .stills img").length == 10 && [...document.images].every(i => i.complete)`, 0)
		var painted [][4]float64
		if err := json.Unmarshal([]byte(eval[string](b, `JSON.stringify([...document.querySelectorAll("#card, #card .stills span")].map(e => {
			const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }))`)), &painted); err != nil {
			t.Fatal(err)
		}
		b.screenshot(name)
		if eval[bool](b, `!!(window.arenaTimings.instantiated || window.arenaTest)`) {
			b.fatalf("%s: the program had started before its card was measured and shot: the line is not slow enough", size)
		}
		b.throttle(-1)
		b.waitJS(`window.arenaTimings && window.arenaTimings.firstFrame > 0 && window.arenaTest`, 0)
		var s struct {
			Card   [4]float64            `json:"card"`
			Stills map[string][4]float64 `json:"stills"`
		}
		if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &s); err != nil {
			t.Fatal(err)
		}
		want := [][4]float64{s.Card}
		for _, g := range match.Games() {
			want = append(want, s.Stills[g.Info().Name])
		}
		if len(painted) != len(want) {
			b.fatalf("%s: the HTML painted %d boxes, the program has %d", size, len(painted), len(want))
		}
		for i, p := range painted {
			w := want[i]
			n := 4
			if i == 0 {
				n = 3 // the card's height is the rows', which the program lays out
			}
			for j := range n {
				if math.Abs(p[j]-w[j]) > 1 {
					b.fatalf("%s: box %d painted at %v, the program draws it at %v", size, i, p, w)
				}
			}
		}
		b.screenshot(name + "-then")
	}
}

// throttle limits what the page downloads to bytes a second (-1: no
// limit), as a slow line would.
func (b *browser) throttle(bytes float64) {
	b.t.Helper()
	set := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		// A slow line's visit fetches everything again: nothing cached.
		if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: bytes > 0}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: 20, DownloadThroughput: bytes, UploadThroughput: bytes}}})
		return err
	})
	if err := chromedp.Do(b.ctx, set); err != nil {
		b.t.Fatal(err)
	}
}
