package ui

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/hajimehoshi/ebiten/v2"
)

func TestQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("game=life&p1=strong:nodes=5000&p2=you&seed=7&preset=64x64")
	o := ParseLink(q)
	if !o.Start || o.Game != "life" || o.P1 != "strong:nodes=5000" || o.P2 != You || o.Seed != 7 || o.Preset != "64x64" {
		t.Fatalf("ParseLink = %+v", o)
	}
	if back := ParseLink(o.Query()); back.Query().Encode() != o.Query().Encode() {
		t.Errorf("round trip: %v then %v", o.Query(), back.Query())
	}
	if d := ParseLink(url.Values{}); d.Start || d.Game != "life" || d.P1 != "strong" || d.P2 != "greedy" {
		t.Errorf("defaults: %+v", d)
	}
}

// TestLinkCarriesMovesOfTimedBots: a match whose bot thinks on the clock
// is linked with its moves, which replay it exactly (a second run of its
// bots could differ); a node-budget match needs none; damaged or
// oversized moves are refused with a reason.
func TestLinkCarriesMovesOfTimedBots(t *testing.T) {
	cfg, _ := match.LookupPreset(mustGame(t, "colosseum"), "6")
	pb := computed(t, "colosseum", cfg.Config, 3, "strong:time=20ms", "greedy")
	moves, note := linkMoves(pb.setup, pb.rec)
	if moves == "" || !strings.Contains(note, "strong:time=20ms thinks on the clock") {
		t.Fatalf("moves %q, note %q", moves, note)
	}
	decoded, err := decodeMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	// The page opens the link: the moves are played as given.
	g := mustGame(t, "colosseum")
	again, err := newPlayback(play.Setup{Game: g, Config: cfg.Config, Seed: 3,
		Players: [2]play.Spec{{Name: "strong", Options: [][2]string{{"time", "20ms"}}}, {Name: "greedy"}}}, decoded, localHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.stop()
	for again.rec.Result == nil {
		if err := again.receive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	a, b := replayOf(t, pb.rec), replayOf(t, again.rec)
	if a != b {
		t.Errorf("the link's match differs:\n%s\nfrom\n%s", b, a)
	}
	if m, _ := linkMoves(computed(t, "colosseum", cfg.Config, 3, "strong:nodes=2000", "greedy").setup, pb.rec); m != "" {
		t.Error("a node-budget match's link carries moves")
	}
	for _, bad := range []string{"!!!", "AAAA", strings.Repeat("A", 30000)} {
		if _, err := decodeMoves(bad); err == nil {
			t.Errorf("moves %.20q decoded", bad)
		}
	}
}

// TestReplayToolbar: a replay file's match (a class ladder's game, two
// programs the page cannot run) offers what a replay can do, and not New
// seed, Restart or a link that would start another match; a match the
// page computes offers them.
func TestReplayToolbar(t *testing.T) {
	played := computedMatch(t, Options{Link: Link{Game: "mapcolor", P1: "greedy", P2: "random", Preset: "australia", Seed: 2, Start: true}})
	rp, err := played.match.pb.rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	rp.Players = [2]string{"alice v3", "bob v1"}
	var b bytes.Buffer
	if _, err := rp.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	screen := ebiten.NewImage(1280, 800)
	for _, c := range []struct {
		name string
		a    *App
	}{{"a computed match", played}, {"a replay", New(Options{File: "ladder-game-7.json", FileData: b.Bytes()})}} {
		c.a.Layout(1280, 800)
		c.a.Draw(screen)
		c.a.Update() // the status is taken at the end of an update
		targets := c.a.Status().Targets
		for _, id := range []string{"think", "analyse", "gif", "back", "help"} {
			if _, ok := targets[id]; !ok {
				t.Errorf("%s offers no %s", c.name, id)
			}
		}
		for _, id := range []string{"new", "restart", "link"} {
			if _, ok := targets[id]; ok != (c.name == "a computed match") {
				t.Errorf("%s: %s offered %v", c.name, id, ok)
			}
		}
		c.a.showStart()
	}
}

// addressBar is a Platform that keeps what was shared, as the page's
// address bar does.
type addressBar struct{ shared []url.Values }

func (*addressBar) SaveGIF(string, []byte) (string, error) { return "", nil }

func (p *addressBar) Share(q url.Values, _ bool) (string, error) {
	p.shared = append(p.shared, q)
	return "?" + q.Encode(), nil
}

// TestReplayLinkNamesTheReplay: the link of a replay a link opened (a
// ladder's game, ?replay=URL&thinking=1) keeps naming that replay as the
// view's toggles change it: the address bar never turns into a new match
// of the replay's programs, which a reload would then try to play. A
// replay dropped as a file puts nothing in the address bar, and a match
// started after it names its own settings again.
func TestReplayLinkNamesTheReplay(t *testing.T) {
	played := computedMatch(t, Options{Link: Link{Game: "mapcolor", P1: "greedy", P2: "random", Preset: "australia", Seed: 2, Start: true}})
	var b bytes.Buffer
	if err := play.SaveReplay(&b, played.match.pb.rec); err != nil {
		t.Fatal(err)
	}
	const url = "/api/ladder/games/7/ladder-game-7.json"
	var bar addressBar
	var in presses
	l := ParseLink(map[string][]string{"replay": {url}, "thinking": {"1"}, "turn": {"1"}})
	a := New(Options{Link: l, Platform: &bar, Presses: in.take})
	a.open(url, b.Bytes())
	in.keys = []ebiten.Key{ebiten.KeyT}
	a.Update()
	if len(bar.shared) == 0 {
		t.Fatal("T shared nothing")
	}
	for _, q := range bar.shared {
		if q.Get("replay") != url || q.Has("game") || q.Has("p1") {
			t.Fatalf("the replay's address became %v", q)
		}
	}
	if last := bar.shared[len(bar.shared)-1]; last.Has("thinking") {
		t.Fatalf("T left thinking in the address: %v", last)
	}
	if l := ParseLink(map[string][]string{"replay": {"file:ladder-game-8.json"}}); l.Replay != "" || l.Query() == nil {
		t.Fatalf("a link naming a dropped file: %+v", l)
	}
	bar.shared = nil
	a.open("ladder-game-8.json", b.Bytes())
	in.keys = []ebiten.Key{ebiten.KeyT}
	a.Update()
	if len(bar.shared) != 0 {
		t.Fatalf("a dropped replay's address: %v", bar.shared)
	}
	a.startMatch(Link{Game: "life", P1: "strong", P2: "greedy", Seed: 4, Turn: -1})
	if n := len(bar.shared); n == 0 || bar.shared[n-1].Get("game") != "life" || bar.shared[n-1].Has("replay") {
		t.Fatalf("a match after the replay shared %v", bar.shared)
	}
}

// TestLinkTurnComputesThere: a link to turn 250 of a Life match opens
// there as soon as the match is computed that far, not after a minute
// and a half of playing from turn 0, and is paused there.
func TestLinkTurnComputesThere(t *testing.T) {
	a := New(Options{Link: Link{Game: "life", P1: "greedy", P2: "random", Seed: 4, Start: true, Turn: 250}})
	pb := a.match.pb
	for pb.span() < 250 && pb.rec.Result == nil && pb.failed == nil {
		if err := pb.receive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	pb.tick(1.0 / 60) // one frame
	if pb.t != 250 || pb.playing {
		t.Fatalf("one frame after turn 250 was computed: playhead at %v, playing %v", pb.t, pb.playing)
	}
}
