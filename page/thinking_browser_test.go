package page

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"reflect"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/linktext"
	"github.com/arena-playground/arena/render"
)

// thinkingStatus is what the test hook says of the thinking layer.
type thinkingStatus struct {
	Thinking    bool     `json:"thinking"`
	ThoughtTurn int      `json:"thought_turn"`
	Thought     []string `json:"thought"`
	Placed      int      `json:"placed"`
	Turn        float64  `json:"turn"`
	Playing     bool     `json:"playing"`
}

func (b *browser) thinking() thinkingStatus {
	b.t.Helper()
	var s thinkingStatus
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &s); err != nil {
		b.fatalf("status: %v", err)
	}
	return s
}

// thinkingCases are a match of each game whose bots mark the board, and
// the bot written in the page (the template, which shows how to mark).
var thinkingCases = []struct {
	name, game, preset, p1, p2 string
	seed                       uint64
	from                       int // the first turn worth looking at
}{
	{"colosseum", "colosseum", "8", "strong", "greedy", 3, 2},
	{"life", "life", "", "strong", "greedy", 3, 2},
	{"evasion", "evasion", "", "greedy", "strong", 3, 40},
	{"pathgame", "pathgame", "gen-300", "strong", "greedy", 5, 3},
	{"mapcolor", "mapcolor", "usa", "strong", "greedy", 2, 2},
}

// TestPageThinking opens a match of each game with the layer on (the
// link's thinking=1), at a turn whose notes mark the board (the link's
// turn=N, where playing stops). The page's notes of that turn are arena
// play's, marks and all; the panel lists the candidates; every mark is
// placed on the board and drawn in the scale's colours. T hides the
// layer and the Thinking button shows it again.
func TestPageThinking(t *testing.T) {
	b := newBrowser(t)
	queries, held := map[string]string{}, map[string]int{}
	for _, c := range thinkingCases {
		rec := cliPresetRecord(t, c.game, c.preset, c.p1, c.p2, c.seed)
		k, marks := thoughtFrom(rec, c.from)
		if k < 0 {
			t.Fatalf("%s: arena play's %s vs %s marks no turn from %d", c.name, c.p1, c.p2, c.from)
		}
		q := fmt.Sprintf("?game=%s&p1=%s&p2=%s&seed=%d&thinking=1&turn=%d", c.game, c.p1, c.p2, c.seed, k)
		if c.preset != "" {
			q += "&preset=" + c.preset
		}
		queries[c.name], held[c.name] = q, k
		b.open(q)
		// Held at turn k; the turn played from it is computed after.
		b.waitJS(fmt.Sprintf(`(s => s.turn == %d && !s.playing && s.thought_turn == %d)(JSON.parse(window.arenaTest.status()))`, k, k), 3*time.Minute)
		b.awaitFrames(3)
		s := b.thinking()
		if !s.Thinking || s.ThoughtTurn != k || len(s.Thought) == 0 || s.Placed != marks {
			b.fatalf("%s at turn %d: the layer says %+v; arena play's notes hold %d marks and places", c.name, k, s, marks)
		}
		var notes [][2]*match.Note
		if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.notes()`)), &notes); err != nil {
			b.fatalf("notes: %v", err)
		}
		if k >= len(notes) || !reflect.DeepEqual(unclocked(notes[k]), unclocked(rec.Turns[k].Notes)) {
			b.fatalf("%s: the page's notes of turn %d differ from arena play's", c.name, k)
		}
		on := b.screenshot("playground-thinking-" + c.name)
		b.key("t")
		b.waitJS(`!JSON.parse(window.arenaTest.status()).thinking`, time.Minute)
		b.awaitFrames(3)
		off := b.screenshot("thinking-off-" + c.name)
		if s := b.thinking(); s.Placed != 0 || len(s.Thought) != 0 {
			b.fatalf("%s: with the layer off the hook says %+v", c.name, s)
		}
		if sOn, sOff := scaleShares(t, on), scaleShares(t, off); sOn <= sOff {
			b.fatalf("%s: the scale's colours cover %.5f of the page with the layer on, %.5f with it off", c.name, sOn, sOff)
		}
		b.click("think")
		b.waitJS(`JSON.parse(window.arenaTest.status()).thinking`, time.Minute)
		t.Logf("%s turn %d: %d marks placed; %q", c.name, k, s.Placed, s.Thought)
		if c.name == "colosseum" {
			gifWithThinking(b, rec)
		}
	}
	// On a phone, the layer and its panel fit the screen.
	b.phone()
	for _, c := range thinkingCases {
		b.open(queries[c.name])
		k := held[c.name]
		b.waitJS(fmt.Sprintf(`(s => s.turn == %d && !s.playing && s.thought_turn == %d)(JSON.parse(window.arenaTest.status()))`, k, k), 3*time.Minute)
		b.awaitFrames(3)
		b.phoneCheck(c.name + " thinking")
		if s := b.thinking(); s.Placed == 0 || len(s.Thought) == 0 {
			b.fatalf("%s on a phone: the layer says %+v", c.name, s)
		}
		b.screenshot("phone-thinking-" + c.name)
	}
}

// gifWithThinking: with the layer on, the GIF button records the match
// with its thinking drawn, as arena record -thinking does.
func gifWithThinking(b *browser, rec *play.Record) {
	b.t.Helper()
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
	got := b.downloadGIF(fmt.Sprintf("arena-%s-%s-vs-%s-seed%d.gif", rec.Game.Info().Name, rec.Players[0], rec.Players[1], rec.Seed))
	var want, plain bytes.Buffer
	opts := render.DefaultGIF
	if err := render.WriteGIF(&plain, rec, opts); err != nil {
		b.fatalf("%v", err)
	}
	opts.Thinking = true
	if err := render.WriteGIF(&want, rec, opts); err != nil {
		b.fatalf("%v", err)
	}
	if bytes.Equal(want.Bytes(), plain.Bytes()) {
		b.fatalf("arena record draws the same GIF with thinking and without")
	}
	if !bytes.Equal(got, want.Bytes()) {
		b.fatalf("the GIF the page downloads with the layer on (%d bytes) is not arena record -thinking's (%d bytes; %d without thinking)", len(got), want.Len(), plain.Len())
	}
	b.t.Logf("the GIF with thinking: %d bytes, %d without", len(got), plain.Len())
}

// TestPageThinkingOfItsBot: the bot written in the page (the template,
// which marks every move it weighs) marks the board from its worker.
func TestPageThinkingOfItsBot(t *testing.T) {
	b := newBrowser(t)
	// The link carries the bot's source, as Copy link writes it.
	src, err := gobot.Template("colosseum")
	if err != nil {
		t.Fatal(err)
	}
	b.open("?game=colosseum&p1=go:bot.go&p2=greedy&preset=8&seed=3&thinking=1&turn=2&bot=" + linktext.Encode(src))
	b.waitJS(`(s => s.turn == 2 && !s.playing && s.thought_turn == 2)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	b.awaitFrames(3)
	if s := b.thinking(); s.ThoughtTurn != 2 || s.Placed == 0 || len(s.Thought) == 0 {
		b.fatalf("the page's bot's thinking: %+v\nnotes: %.600s\nstatus: %.600s", s, eval[string](b, `window.arenaTest.notes()`), eval[string](b, `window.arenaTest.status()`))
	}
	b.screenshot("thinking-page-bot")
}

// thoughtFrom is the first turn from `from` whose notes mark the board,
// and how many marks and expected places the layer shows there: the
// turn's notes', and in Evasion, whose layer holds each side's last
// decision until its next, the last decision of a side that made none
// at that turn; -1 when no turn marks.
func thoughtFrom(rec *play.Record, from int) (int, int) {
	count := func(k *play.KeptNote) int {
		n := k.Get()
		if n == nil {
			return 0
		}
		return len(n.Marks) + len(n.Expects)
	}
	for k := from; k < len(rec.Turns); k++ {
		n := 0
		for _, note := range rec.Turns[k].Notes {
			n += count(note)
		}
		if n == 0 {
			continue
		}
		if rec.Game.Info().Name == "evasion" {
			for side, note := range rec.Turns[k].Notes {
				for j := k - 1; count(note) == 0 && j >= 0; j-- {
					if c := count(rec.Turns[j].Notes[side]); c > 0 {
						n += c
						break
					}
				}
			}
		}
		return k, n
	}
	return -1, 0
}

// unclocked is a turn's notes as JSON values, for comparing the page's
// with arena play's.
func unclocked[N any](notes [2]*N) string {
	b, _ := json.Marshal(notes)
	return string(b)
}

// scaleShares is the share of a screenshot's pixels near one of the
// thinking scale's colours.
func scaleShares(t *testing.T, data []byte) float64 {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return render.Dark.ScaleShare(img, 23)
}
