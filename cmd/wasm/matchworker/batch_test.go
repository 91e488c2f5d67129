package matchworker

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/play"
)

// posts records what a batcher posted, as the page would take it.
type posts struct{ runs []string }

func (p *posts) post(b []byte) { p.runs = append(p.runs, string(b)) }

// stillBatcher is a batcher on a clock of its own, which moves only when
// a test moves it: its timer never fires.
func stillBatcher(p *posts, clock *time.Time) *batcher {
	b := newBatcher(p.post)
	b.now = func() time.Time { return *clock }
	b.afterFunc = func(time.Duration, func()) *time.Timer { return time.AfterFunc(time.Hour, func() {}) }
	return b
}

func turn(k int, soon bool) (play.Message, []byte) {
	return play.Message{Kind: play.MsgTurn, Turn: k, Soon: soon}, []byte(fmt.Sprintf(`{"kind":"turn","turn":%d}`, k))
}

// Turns Serve expects to be followed soon are held, and go with the next
// message that is not; every message reaches the page once, in order, a
// line each.
func TestBatcherHoldsSoonTurns(t *testing.T) {
	var p posts
	clock := time.Unix(0, 0)
	b := stillBatcher(&p, &clock)
	for k := range 3 {
		b.add(turn(k, true))
	}
	if len(p.runs) != 0 {
		t.Fatalf("soon turns were posted: %q", p.runs)
	}
	b.add(turn(3, false))
	b.add(play.Message{Kind: play.MsgEnd}, []byte(`{"kind":"end"}`))
	want := []string{
		`{"kind":"turn","turn":0}` + "\n" + `{"kind":"turn","turn":1}` + "\n" + `{"kind":"turn","turn":2}` + "\n" + `{"kind":"turn","turn":3}`,
		`{"kind":"end"}`,
	}
	if strings.Join(p.runs, "|") != strings.Join(want, "|") {
		t.Fatalf("posted %q, want %q", p.runs, want)
	}
}

// A turn is held for holdFor at most: the first turn added after that
// goes with the ones held, soon or not.
func TestBatcherHoldsForAFrame(t *testing.T) {
	var p posts
	clock := time.Unix(0, 0)
	b := stillBatcher(&p, &clock)
	b.add(turn(0, true))
	clock = clock.Add(holdFor - time.Millisecond)
	b.add(turn(1, true))
	if len(p.runs) != 0 {
		t.Fatalf("posted before holdFor: %q", p.runs)
	}
	clock = clock.Add(time.Millisecond)
	b.add(turn(2, true))
	if len(p.runs) != 1 || strings.Count(p.runs[0], "\n") != 2 {
		t.Fatalf("after holdFor, posted %q; want the three turns in one run", p.runs)
	}
}

// What is held goes by itself once holdFor has passed, when nothing else
// comes (a bot thinking in a worker of its own).
func TestBatcherPostsWhatIsHeldWhenDue(t *testing.T) {
	got := make(chan string, 1)
	b := newBatcher(func(data []byte) { got <- string(data) })
	b.add(turn(0, true))
	if run := <-got; run != `{"kind":"turn","turn":0}` {
		t.Fatalf("posted %q", run)
	}
}

// A run never passes batchBytes: what is held goes first.
func TestBatcherBoundsARun(t *testing.T) {
	var p posts
	clock := time.Unix(0, 0)
	b := stillBatcher(&p, &clock)
	big := bytes.Repeat([]byte("x"), batchBytes/3)
	n := 0
	for range 10 {
		m, _ := turn(n, true)
		b.add(m, big)
		n++
	}
	b.add(play.Message{Kind: play.MsgEnd}, []byte(`{"kind":"end"}`))
	lines := 0
	for _, run := range p.runs {
		if len(run) >= batchBytes {
			t.Errorf("a run of %d bytes", len(run))
		}
		lines += strings.Count(run, "\n") + 1
	}
	if lines != n+1 {
		t.Errorf("%d lines posted, want %d", lines, n+1)
	}
}
