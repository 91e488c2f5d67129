package page

import (
	"fmt"
	"math"
	"testing"
	"time"

	cdpinput "github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestPageScrubsWhileItStreams drags the timeline of a 30,000-tick
// Evasion session while the page's worker still computes it: the
// playhead stays on the turn under the pointer for as long as it is
// held, while more turns stream in; ⏭ then follows the newest turn
// (live), and a click back on the timeline leaves it.
func TestPageScrubsWhileItStreams(t *testing.T) {
	b := newBrowser(t)
	b.open("?game=evasion&preset=2-1&p1=strong&p2=greedy&seed=3")
	b.waitJS(`JSON.parse(window.arenaTest.status()).computed >= 3000`, 3*time.Minute)
	st := b.status()
	tl := st.Targets["timeline"]
	if tl[2] == 0 {
		b.fatalf("no timeline: %+v", st.Targets)
	}
	at := func(f float64) (float64, float64) { return tl[0] + tl[2]*f, tl[1] + tl[3]/2 }
	mouse := func(typ cdpinput.DispatchMouseEventType, f float64) {
		x, y := at(f)
		if err := chromedp.Do(b.ctx, chromedp.MouseEvent(typ, x, y, chromedp.ButtonLeft)); err != nil {
			b.fatalf("mouse %s at %.2f: %v", typ, f, err)
		}
	}
	// The computed part is a share of the session's ticks: drag within it.
	mouse(cdpinput.DispatchMouseEventTypeMousePressed, 0.02)
	mouse(cdpinput.DispatchMouseEventTypeMouseMoved, 0.05)
	mouse(cdpinput.DispatchMouseEventTypeMouseMoved, 0.03)
	b.awaitFrames(3)
	held := b.status()
	computed := held.Computed
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).computed > %d`, computed+500), 2*time.Minute)
	b.awaitFrames(10)
	still := b.status()
	if still.Turn != held.Turn || still.Turn == 0 {
		b.fatalf("held at %v while the stream went from %d to %d turns, the playhead moved to %v", held.Turn, computed, still.Computed, still.Turn)
	}
	mouse(cdpinput.DispatchMouseEventTypeMouseReleased, 0.03)
	b.awaitFrames(2)
	b.click("last")
	b.waitJS(`(s => s.live && s.turn == s.computed)(JSON.parse(window.arenaTest.status()))`, time.Minute)
	live := b.status()
	b.waitJS(fmt.Sprintf(`JSON.parse(window.arenaTest.status()).computed > %d`, live.Computed+300), 2*time.Minute)
	b.waitJS(`(s => s.live && s.turn >= s.computed - 50)(JSON.parse(window.arenaTest.status()))`, time.Minute)
	followed := b.status()
	mouse(cdpinput.DispatchMouseEventTypeMousePressed, 0.01)
	mouse(cdpinput.DispatchMouseEventTypeMouseReleased, 0.01)
	b.awaitFrames(3)
	back := b.status()
	if back.Live || math.Abs(back.Turn-followed.Turn) < 100 {
		b.fatalf("after a click back near the start: live %v at %v (it followed to %v)", back.Live, back.Turn, followed.Turn)
	}
	t.Logf("held at turn %v while %d more turns streamed in; live followed to %v of %d; a click went back to %v", still.Turn, still.Computed-computed, followed.Turn, followed.Computed, back.Turn)
}
