package matchworker

import (
	"strings"
	"testing"
	"time"
)

// A burst's messages go in one post, in order, and at once when urgent,
// when too many bytes are kept or when the burst lasts; a message after a
// pause goes at once with the burst before it; a burst that stops is
// posted by the timer.
func TestBatchJoinsBursts(t *testing.T) {
	var posts []string
	clock := time.Unix(0, 0)
	b := newBatch(func(s string) { posts = append(posts, s) })
	b.now = func() time.Time { return clock }
	step := func(d time.Duration, line string, urgent bool) {
		clock = clock.Add(d)
		b.add([]byte(line), urgent)
	}
	step(0, "a", false)                   // the first: no burst yet
	step(10*time.Microsecond, "b", false) // kept
	step(10*time.Microsecond, "c", false) // kept
	step(10*time.Microsecond, "d", true)  // urgent: b, c and d
	step(10*time.Microsecond, "e", false) // kept
	step(5*time.Millisecond, "f", false)  // after a pause: e and f
	for range 1000 {                      // a long burst: posted every flushEvery
		step(10*time.Microsecond, "g", false)
	}
	want := []string{"a", "b\nc\nd", "e\nf"}
	if len(posts) < len(want)+1 || strings.Join(posts[:3], "|") != strings.Join(want, "|") {
		t.Fatalf("posts %q, want %q then the long burst's", posts[:min(len(posts), 4)], want)
	}
	long := posts[3:]
	for _, p := range long {
		if n := strings.Count(p, "g"); n > int(flushEvery/(10*time.Microsecond))+1 {
			t.Fatalf("a post of %d messages: a burst waits flushEvery at most", n)
		}
	}
	// What is left goes when the timer fires (the worker waits).
	done := make(chan struct{})
	b.mu.Lock()
	kept, armed := len(b.buf), b.timer != nil
	b.send = func(s string) { posts = append(posts, s); close(done) }
	b.mu.Unlock()
	if kept == 0 || !armed {
		t.Fatalf("after the burst: %d bytes kept, timer armed %v", kept, armed)
	}
	<-done
	if got := strings.Count(strings.Join(posts[3:], "\n"), "g"); got != 1000 {
		t.Fatalf("%d of the burst's 1,000 messages posted", got)
	}
	// A message too big to join goes alone after the ones kept.
	posts = nil
	b.send = func(s string) { posts = append(posts, s) }
	step(time.Second, "h", false)
	step(10*time.Microsecond, "i", false)
	big := strings.Repeat("x", maxBatch)
	step(10*time.Microsecond, big, false)
	if len(posts) != 3 || posts[1] != "i" || posts[2] != big {
		t.Fatalf("posts around a big message: %d, the second %.10q", len(posts), posts[min(1, len(posts)-1)])
	}
}
