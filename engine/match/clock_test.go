package match

import (
	"strings"
	"testing"
	"time"
)

func TestTimeBucket(t *testing.T) {
	ms := time.Millisecond
	b := NewTimeBucket(300*ms, 1500*ms)
	if got := b.Begin(nil); got != 1500*ms {
		t.Errorf("first move: %v, want the full 1500ms", got)
	}
	if err := b.End(700 * ms); err != nil {
		t.Fatal(err)
	}
	if got := b.Begin(nil); got != 1100*ms {
		t.Errorf("after 700ms: %v, want 800+300", got)
	}
	b.End(0)
	if got := b.Begin(nil); got != 1400*ms {
		t.Errorf("refill: %v, want 1400ms", got)
	}
	b.End(0)
	if got := b.Begin(nil); got != 1500*ms {
		t.Errorf("cap: %v, want 1500ms", got)
	}
	if err := b.End(1501 * ms); err == nil || !strings.Contains(err.Error(), "took 1.501s with 1.5s left") {
		t.Errorf("overrun: %v", err)
	}
}
