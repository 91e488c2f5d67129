package ui

import (
	"testing"
	"time"
)

// The status's longest Update is the longest of the last 120, with its
// own parts: a slow frame is reported while it is recent, and forgotten
// after.
func TestUpdateMaxIsTheRecentLongest(t *testing.T) {
	var d frameTimes
	if got, _, _ := d.updateMax(); got != 0 {
		t.Fatalf("no updates: %v ms, want 0", got)
	}
	d.addUpdate(updateTimes{total: 250 * time.Millisecond, layout: 10 * time.Millisecond, follow: 200 * time.Millisecond})
	for range 119 {
		d.addUpdate(updateTimes{total: 3 * time.Millisecond, layout: 2 * time.Millisecond, follow: time.Millisecond})
	}
	if got, layout, follow := d.updateMax(); got != 250 || layout != 10 || follow != 200 {
		t.Errorf("a slow update 119 frames ago: longest %v ms (layout %v, following %v), want 250 (10, 200)", got, layout, follow)
	}
	d.addUpdate(updateTimes{total: 4 * time.Millisecond, layout: 3 * time.Millisecond})
	if got, layout, follow := d.updateMax(); got != 4 || layout != 3 || follow != 0 {
		t.Errorf("the slow update 120 frames ago: longest %v ms (layout %v, following %v), want 4 (3, 0)", got, layout, follow)
	}
}
