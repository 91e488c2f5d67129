package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

// arena runs a command line and returns its exit status and outputs.
func arena(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestListings(t *testing.T) {
	code, out, _ := arena(t, "games")
	if code != 0 || !strings.Contains(out, "life") || !strings.Contains(out, "competition,64x64,128x128") {
		t.Errorf("games: %d\n%s", code, out)
	}
	// People read the games' names; the keys are what they type.
	for _, g := range match.Games() {
		label := g.Info().Label()
		if label == g.Info().Name || !strings.Contains(out, label+"  ") {
			t.Errorf("games: %s is not listed by its name (%q)\n%s", g.Info().Name, label, out)
		}
	}
	code, out, _ = arena(t, "bots", "-game", "life")
	for _, want := range []string{"random", "greedy", "strong", ":nodes=", ":horizon="} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("bots: %d, missing %q\n%s", code, want, out)
		}
	}
}

// TestPlayJSONMatchesReplay: play -json prints the result the replay
// holds, and the same arguments print the same result.
func TestPlayJSONMatchesReplay(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "r.json")
	args := []string{"play", "-game", "life", "-p1", "greedy", "-p2", "random", "-seed", "3", "-preset", "competition"}
	code, out, stderr := arena(t, append(args, "-json", "-replay", replay)...)
	if code != 0 {
		t.Fatalf("play: %d %s", code, stderr)
	}
	var got playJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	var rp struct {
		Result struct {
			Winner string         `json:"winner"`
			Scores [2]match.Score `json:"scores"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &rp); err != nil {
		t.Fatal(err)
	}
	if got.Result.Winner.String() != rp.Result.Winner || got.Result.Scores != rp.Result.Scores || got.Result.Turns != 500 {
		t.Errorf("-json result %+v, replay %+v", got.Result, rp.Result)
	}
	// Everything but the thinking times is the same on a second run.
	head := func(s string) string { return strings.Join(strings.SplitN(s, "\n", 4)[:3], "\n") }
	_, again, _ := arena(t, args...)
	_, third, _ := arena(t, args...)
	if head(again) != head(third) || !strings.Contains(again, got.Summary) {
		t.Errorf("same arguments, different output:\n%s\n%s", again, third)
	}
}

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "r.json")
	if code, _, stderr := arena(t, "play", "-game", "life", "-p1", "random", "-p2", "greedy", "-replay", replay); code != 0 {
		t.Fatal(stderr)
	}
	gifPath, pngPath := filepath.Join(dir, "m.gif"), filepath.Join(dir, "m.png")
	if code, _, stderr := arena(t, "record", "-game", "life", "-replay", replay, "-o", gifPath, "-size", "160"); code != 0 {
		t.Fatal(stderr)
	}
	f, err := os.Open(gifPath)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 501 || g.Config.Width != 160 {
		t.Fatalf("GIF: %v, %d frames", err, len(g.Image))
	}
	if code, _, stderr := arena(t, "record", "-game", "life", "-p1", "strong", "-p2", "greedy", "-seed", "2", "-o", pngPath, "-at", "40.5"); code != 0 {
		t.Fatal(stderr)
	}
	f, _ = os.Open(pngPath)
	m, err := png.Decode(f)
	f.Close()
	if err != nil || m.Bounds().Dx() != 480 {
		t.Fatalf("PNG: %v", err)
	}
	// -thinking draws what the bots thought: the GIF's palette has the
	// scale's colours and its frames use them; the one without has none.
	thinking := filepath.Join(dir, "t.gif")
	if code, _, stderr := arena(t, "record", "-game", "life", "-replay", replay, "-o", thinking, "-size", "160", "-to", "20", "-thinking"); code != 0 {
		t.Fatal(stderr)
	}
	if with, without := scaleUse(t, thinking), scaleUse(t, gifPath); with == 0 || without != 0 {
		t.Fatalf("the scale's colours cover %.4f of the frames (summed) with -thinking, %.4f without", with, without)
	}
}

// scaleUse is how much of a GIF's frames, summed, is in the thinking
// scale's colours.
func scaleUse(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, img := range g.Image {
		sum += render.Dark.ScaleShare(img, 0)
	}
	return sum
}

func TestConform(t *testing.T) {
	golden, _ := filepath.Glob("../../engine/life/testdata/golden/*.scenario.json")
	code, out, _ := arena(t, append([]string{"conform", "-game", "life"}, golden...)...)
	if code != 0 || !strings.HasSuffix(out, "33 passed, 0 failed\n") {
		t.Errorf("conform: %d\n%s", code, out)
	}
	// A damaged trace fails, with the difference, and exit status 1.
	dir := t.TempDir()
	for _, ext := range []string{".scenario.json", ".trace.jsonl"} {
		data, _ := os.ReadFile("../../engine/life/testdata/golden/q13_bank_gain_and_cap" + ext)
		if ext == ".trace.jsonl" {
			data = bytes.Replace(data, []byte(`"cellsRemainingP1":15`), []byte(`"cellsRemainingP1":16`), 1)
		}
		os.WriteFile(filepath.Join(dir, "q13"+ext), data, 0o644)
	}
	code, out, _ = arena(t, "conform", "-game", "life", filepath.Join(dir, "q13.trace.jsonl"))
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(out, "cellsRemainingP1 is 15, want 16") || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Errorf("damaged trace: %d\n%s", code, out)
	}
	// Map colouring: inputs or outputs, each checked against the other.
	csp, _ := filepath.Glob("../../engine/mapcolor/testdata/*case*.txt")
	code, out, _ = arena(t, append([]string{"conform", "-game", "mapcolor"}, csp...)...)
	if code != 0 || !strings.HasSuffix(out, "34 passed, 0 failed\n") {
		t.Errorf("conform mapcolor: %d\n%s", code, out)
	}
}

// TestBadInput: each mistake gets one line on stderr naming what and
// where, exit status 2 for usage errors and 1 for failures, and nothing
// half-written.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	badConfig := filepath.Join(dir, "bad.json")
	good, _ := os.ReadFile("../../engine/life/testdata/configFinal.json")
	os.WriteFile(badConfig, bytes.Replace(good, []byte(`[11, 17]`), []byte(`[11, 40]`), 1), 0o644)
	damaged := filepath.Join(dir, "damaged.json")
	os.WriteFile(damaged, []byte("{\n  \"format\": \"arena-replay\",\n  \"version\": 7\n}\n"), 0o644)
	out := filepath.Join(dir, "out.gif")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"play", "-game", "chess", "-p1", "a", "-p2", "b"}, 2, `unknown game "chess" (valid: life`},
		{[]string{"play", "-game", "life", "-p1", "strnog", "-p2", "greedy"}, 2, `-p1: unknown bot "strnog" for life (valid: random, greedy, strong)`},
		{[]string{"play", "-game", "life", "-p1", "strong", "-p2", "greedy:depth=2"}, 2, `-p2: bot greedy: unknown option "depth" (valid: seed)`},
		{[]string{"play", "-game", "life", "-p1", "strong:nodes=-5", "-p2", "greedy"}, 2, `option nodes="-5"`},
		{[]string{"play", "-game", "life", "-p1", "strong"}, 2, "-p2 is required"},
		{[]string{"play", "-game", "life", "-p1", "strong", "-p2", "greedy", "-preset", "huge"}, 2, `unknown preset "huge" for life (valid: competition, 64x64, 128x128)`},
		{[]string{"play", "-game", "life", "-p1", "strong", "-p2", "greedy", "-config", badConfig}, 1, "bad.json:17: players[1].startingCells[0]: cell (11,40) is off the 24x24 board"},
		{[]string{"play", "-game", "life", "-p1", "strong", "-p2", "greedy", "-config", filepath.Join(dir, "none.json")}, 1, "no such file"},
		{[]string{"record", "-game", "life", "-replay", damaged, "-o", out}, 1, "damaged.json:3: replay version 7: this arena reads version 1"},
		{[]string{"record", "-game", "life", "-p1", "random", "-p2", "random", "-o", filepath.Join(dir, "x.bmp")}, 2, "want a .gif or .png file"},
		{[]string{"autoplay", "-game", "life", "-p1", "random", "-p2", "random", "-n", "0"}, 2, "-n must be positive"},
		{[]string{"play", "-game", "life", "-p1", "random", "-p2", "random", "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"nonsense"}, 2, `unknown command "nonsense"`},
		{[]string{"play", "-game", "life", "-p1", "random", "-p2", "random", "-config", os.DevNull}, 1, os.DevNull + ": a device, not a file"},
		{[]string{"play", "-game", "life", "-p1", "random", "-p2", "random", "-clocks", "some"}, 2, `-clocks "some": want programs or all`},
		{[]string{"play", "-game", "colosseum", "-p1", "cmd:python3 'a.py", "-p2", "greedy"}, 2, `-p1: bot spec "cmd:python3 'a.py": the quote ' is not closed`},
		{[]string{"play", "-game", "colosseum", "-p1", "random", "-p2", "greedy", "-seed", "4294967296"}, 2, "-seed: seed 4294967296: the course's generator takes seeds from 0 to 4294967295"},
		{[]string{"autoplay", "-game", "colosseum", "-p1", "random", "-p2", "greedy", "-seed", "4294967290", "-n", "10"}, 2, "-seed 4294967290: the run's 10 seeds go up to 4294967299, and seed 4294967299: the course"},
		{[]string{"autoplay", "-game", "life", "-p1", "random", "-p2", "greedy", "-seed", "18446744073709551610", "-n", "10"}, 2, "the 10 games' seeds would run past 18446744073709551615"},
		{[]string{"tournament", "-game", "colosseum", "-o", filepath.Join(dir, "t"), "-seed", "4294967295", "a=random", "b=greedy", "c=strong"}, 2, "seed 4294967297: the course's generator"},
		{[]string{"tournament", "-game", "colosseum", "-o", filepath.Join(dir, "t"), "-sprt", "elo0=0,elo1=10", "a=random", "b=greedy"}, 2, "-sprt is for -format sprt"},
		{[]string{"tournament", "-game", "colosseum", "-o", filepath.Join(dir, "t"), "-format", "sprt", "-sprt", "elo0=0,elo1=2000", "a=random", "b=greedy"}, 2, "within ±1000"},
	}
	for _, c := range cases {
		code, _, stderr := arena(t, c.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != c.code || !strings.Contains(first, c.want) {
			t.Errorf("arena %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"games", "bots", "play", "record", "autoplay", "conform"} {
		code, out, _ := arena(t, cmd, "-h")
		if code != 0 || !strings.Contains(out, "Usage: arena "+cmd) {
			t.Errorf("%s -h: %d\n%s", cmd, code, out)
		}
	}
}

func TestAutoplayJSON(t *testing.T) {
	code, out, stderr := arena(t, "autoplay", "-game", "life", "-p1", "greedy", "-p2", "random", "-n", "4", "-json")
	if code != 0 {
		t.Fatal(stderr)
	}
	var res struct {
		Games int `json:"games"`
		Bots  [2]struct {
			Wins, Draws, Losses int
			Points              float64
		} `json:"bots"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	a, b := res.Bots[0], res.Bots[1]
	if res.Games != 4 || a.Wins+a.Draws+a.Losses != 4 || a.Wins != b.Losses || a.Points+b.Points != 4 {
		t.Errorf("autoplay -json: %+v", res)
	}
}

// TestCSP: arena csp prints the course's output.txt, or writes it with
// -o before or after the input, and names the line of a bad input.
func TestCSP(t *testing.T) {
	in := "../../engine/mapcolor/testdata/t5.txt"
	want, err := os.ReadFile("../../engine/mapcolor/testdata/output_t5.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := arena(t, "csp", in)
	if code != 0 || out != string(want) {
		t.Fatalf("csp t5.txt: %d %s\n%q", code, stderr, out)
	}
	dir := t.TempDir()
	for i, args := range [][]string{{"csp", in, "-o"}, {"csp", "-o"}} {
		file := filepath.Join(dir, fmt.Sprintf("output%d.txt", i))
		args = append(args, file)
		if i == 1 {
			args = append(args, in)
		}
		if code, _, stderr := arena(t, args...); code != 0 {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
		if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
			t.Errorf("%v wrote %d bytes, want the %d of output_t5.txt", args, len(got), len(want))
		}
	}
	bad := filepath.Join(dir, "input.txt")
	data, _ := os.ReadFile(in)
	os.WriteFile(bad, bytes.Replace(data, []byte("SA: G-2"), []byte("SA: G-3"), 1), 0o644)
	if code, _, stderr := arena(t, "csp", bad); code != 1 || !strings.Contains(stderr, `input.txt:2: player "3" of SA: want 1 or 2`) {
		t.Errorf("a bad player: %d %q", code, stderr)
	}
	if code, _, stderr := arena(t, "csp"); code != 2 || !strings.Contains(stderr, "give one input file") {
		t.Errorf("no input: %d %q", code, stderr)
	}
}

// TestVersion: arena version names the Go that built it and the system,
// and says when no commit was recorded.
func TestVersion(t *testing.T) {
	code, out, _ := arena(t, "version")
	if code != 0 || !strings.HasPrefix(out, "arena ") || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("arena version: %d %q", code, out)
	}
	if code, _, _ := arena(t, "version", "extra"); code != 2 {
		t.Errorf("arena version extra: exit %d, want 2", code)
	}
}
