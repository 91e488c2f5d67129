package page

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
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
		on := b.screenshot("thinking-" + c.name)
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
	}
}

// TestPageThinkingOfItsBot: the bot written in the page (the template,
// which marks every move it weighs) marks the board from its worker, and
// on a phone the layer and its panel fit the screen.
func TestPageThinkingOfItsBot(t *testing.T) {
	b := newBrowser(t)
	// The link carries the bot's source, as Copy link writes it.
	src, err := gobot.Template("colosseum")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestCompression)
	zw.Write([]byte(src))
	zw.Close()
	b.open("?game=colosseum&p1=go:bot.go&p2=greedy&preset=8&seed=3&thinking=1&turn=2&bot=" + base64.RawURLEncoding.EncodeToString(z.Bytes()))
	b.waitJS(`(s => s.turn == 2 && !s.playing && s.thought_turn == 2)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	b.awaitFrames(3)
	if s := b.thinking(); s.ThoughtTurn != 2 || s.Placed == 0 || len(s.Thought) == 0 {
		b.fatalf("the page's bot's thinking: %+v\nnotes: %.600s\nstatus: %.600s", s, eval[string](b, `window.arenaTest.notes()`), eval[string](b, `window.arenaTest.status()`))
	}
	b.screenshot("thinking-page-bot")
	b.phone()
	b.open("?game=colosseum&p1=strong&p2=greedy&preset=8&seed=3&thinking=1&turn=4")
	b.waitJS(`(s => s.turn == 4 && !s.playing && s.thought_turn == 4)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	b.awaitFrames(3)
	b.phoneCheck("colosseum thinking")
	if s := b.thinking(); s.Placed == 0 {
		b.fatalf("on a phone the layer places nothing: %+v", s)
	}
	b.screenshot("phone-thinking-colosseum")
	b.open("?game=pathgame&p1=strong&p2=greedy&preset=gen-300&seed=5&thinking=1&turn=5")
	b.waitJS(`(s => s.turn == 5 && !s.playing && s.thought_turn == 5)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	b.awaitFrames(3)
	b.phoneCheck("pathgame thinking")
	b.screenshot("phone-thinking-pathgame")
}

// thoughtFrom is the first turn from `from` whose notes mark the board,
// and how many marks and expected places they hold; -1 when none does.
func thoughtFrom(rec *match.Record, from int) (int, int) {
	for k := from; k < len(rec.Turns); k++ {
		n := 0
		for _, note := range rec.Turns[k].Notes {
			if note != nil {
				n += len(note.Marks) + len(note.Expects)
			}
		}
		if n > 0 {
			return k, n
		}
	}
	return -1, 0
}

// unclocked is a turn's notes as JSON values, for comparing the page's
// with arena play's.
func unclocked(notes [2]*match.Note) string {
	b, _ := json.Marshal(notes)
	return string(b)
}

// scaleShares is the share of a screenshot's pixels near one of the
// thinking scale's colours.
func scaleShares(t *testing.T, png []byte) float64 {
	sum := 0.0
	for _, s := range colourShare(t, png, render.Dark.Scale[:]...) {
		sum += s
	}
	return sum
}
