package evasion

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// Replies the original server would crash on are refused with a reason;
// those it ignores parse and are ignored by Orders.
func TestParseReply(t *testing.T) {
	for _, tc := range []struct{ line, err string }{
		{"", "empty reply"},
		{" 0 1 2", "starts with whitespace"},
		{"0 1 x", `token 3 "x" is not a whole number`},
		{"0 1 2147483648", "is not a whole number"},
		{"0", "at least the game and the tick"},
		{"0 1 two 3", "is not a whole number"},
	} {
		if _, err := ParseReply(tc.line); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %v, want %q", tc.line, err, tc.err)
		}
	}
	a, err := ParseReply("0 7 9 -1 3\t\r\n")
	if err != nil || a.String() != "0 7 9 -1 3" {
		t.Fatalf("%v %v", a, err)
	}
	h, p, why := Orders(0, 7, a.Reply, []int{0, 6, 1, 1})
	if h.Build != NoWall || len(h.Delete) != 2 || why[0] != "" || why[1] != "lagging" || p != (PreyMove{}) {
		t.Errorf("unknown wall type 9 with deletions, a lagging prey: %+v %+v %q", h, p, why)
	}
	_, p, why = Orders(1, 7, []int{0, 7}, []int{0, 7, 1, 1})
	if why != [2]string{"ignored", "ignored"} || p != (PreyMove{}) {
		t.Errorf("wrong game: %q %+v", why, p)
	}
}

// Damaged transcripts are refused with the file, the line and what was
// expected; never a panic.
func TestDamagedTranscripts(t *testing.T) {
	data, err := os.ReadFile("testdata/golden/hand_m5_d3.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(data))
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	lines := strings.Split(plain.String(), "\n")
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"truncated.gz", "damaged gzip data", data[:len(data)/2]},
		{"state.txt", "state differs", []byte(strings.Replace(plain.String(), "STATE 0 3 ", "STATE 0 3 9", 1))},
		{"noend.txt", "before its END line", []byte(strings.Join(lines[:40], "\n"))},
		{"junk.txt", "unknown record", []byte("PARAMS maxWalls=5 delay=3\nGAME 0 1 2\nHELLO\n")},
		{"params.txt", "want maxWalls=<n> delay=<n>", []byte("PARAMS maxWalls=five\n")},
		{"reply.txt", "hunter reply", []byte("PARAMS maxWalls=5 delay=3\nGAME 0 1 2\nSTATE 0 0 5 3 300 300 0 0 0 1 1 230 200 0\nHUNTER  0 0 1\n")},
		{"empty.txt", "not an Evasion transcript", nil},
	} {
		read := func(string) ([]byte, error) { return tc.data, nil }
		_, err := Conform(tc.name, read)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.name) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The session's clock gives each player 120 s per game, afresh in the
// second game; exactly zero left is still in time.
func TestClockPerGame(t *testing.T) {
	cfg := Preset(10, 10)
	c := Game{}.Clock(cfg, match.P1)
	s := NewState(cfg)
	if got := c.Begin(s); got.Seconds() != 120 {
		t.Fatalf("first move: %v", got)
	}
	if err := c.End(119e9); err != nil {
		t.Fatal(err)
	}
	if err := c.End(1e9); err != nil {
		t.Errorf("exactly zero left: %v", err)
	}
	if got := c.Begin(s); got != 0 {
		t.Errorf("after 120 s: %v left", got)
	}
	if err := c.End(1); err == nil {
		t.Error("a nanosecond over the 120 s is in time")
	}
	s.game = 1
	if got := c.Begin(s); got.Seconds() != 120 {
		t.Errorf("second game: %v", got)
	}
}

// FuzzParseState: any line a host sends is read or refused, never a panic,
// and what is read writes back a message that reads the same.
func FuzzParseState(f *testing.F) {
	f.Add("0 12 10 10 300 300 3 12 12 1 1 230 200 1 0 5 0 299")
	f.Add("1 0 5 3 300 300 0 0 0 1 1 230 200 2 3 0 2 2 0 1 2 0 1 0 1 1")
	f.Add("0 0 0 0 300 300 0 0 0 1 1 230 200 1 9")
	f.Fuzz(func(t *testing.T, msg string) {
		s, err := ParseState(msg)
		if err != nil {
			return
		}
		again, err := ParseState(s.Message())
		if err != nil || again.Message() != s.Message() {
			t.Errorf("read %q, wrote %q, which reads back as %q (%v)", msg, s.Message(), again.Message(), err)
		}
	})
}

// FuzzParseReply: any reply line is read or refused, never a panic.
func FuzzParseReply(f *testing.F) {
	f.Add("0 12 1 3 4")
	f.Add(" 0 1")
	f.Add("0 1 +7 -0")
	f.Fuzz(func(t *testing.T, line string) {
		if a, err := ParseReply(line); err == nil && len(a.Reply) < 2 {
			t.Errorf("%q read as %v", line, a)
		}
	})
}

// FuzzDecodeAction holds the hand reading of an action to encoding/json's:
// what replyWritten reads, encoding/json reads the same, and DecodeAction
// refuses what encoding/json refuses.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{`[0,845,0]`, `[0,845,-1,1]`, `[]`, `"timeout"`, `[0, 1]`, `[01]`, `[1.0]`, `[1e2]`, `[-]`, `[1,]`, `null`, `[99999999999999999999]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want Action
		wantErr := json.Unmarshal(data, &want)
		if reply, ok := replyWritten(data); ok && (wantErr != nil || !reflect.DeepEqual(Action{Reply: reply}, want)) {
			t.Fatalf("%q: read by hand as %v, by encoding/json as %v (%v)", data, reply, want, wantErr)
		}
		got, err := Game{}.DecodeAction(data)
		if (err == nil) != (wantErr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: DecodeAction gave %v (%v), encoding/json %v (%v)", data, got, err, want, wantErr)
		}
	})
}
