package ui

import (
	"testing"
	"time"
)

// The status's longest Update is the longest of the last 120: a slow
// frame is reported while it is recent, and forgotten after.
func TestUpdateMaxIsTheRecentLongest(t *testing.T) {
	var d frameTimes
	if got := d.updateMax(); got != 0 {
		t.Fatalf("no updates: %v ms, want 0", got)
	}
	d.addUpdate(250 * time.Millisecond)
	for range 119 {
		d.addUpdate(3 * time.Millisecond)
	}
	if got := d.updateMax(); got != 250 {
		t.Errorf("a slow update 119 frames ago: longest %v ms, want 250", got)
	}
	d.addUpdate(4 * time.Millisecond)
	if got := d.updateMax(); got != 4 {
		t.Errorf("the slow update 120 frames ago: longest %v ms, want 4", got)
	}
}
