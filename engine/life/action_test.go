package life

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// TestActionEqualIsItsJSON holds Action.Equal, which match.SameAction
// asks in place of comparing JSON, to what comparing JSON says.
func TestActionEqualIsItsJSON(t *testing.T) {
	actions := []match.Action{
		Action(nil), Action{}, Action{{1, 2}}, Action{{2, 1}}, Action{{1, 2}, {3, 4}},
		Action{{3, 4}, {1, 2}}, Action{{1, 2}, {1, 2}}, Action{{1, 2}, {3, 4}, {5, 6}},
		[]Cell{{1, 2}}, "(1,2)", nil,
	}
	for _, a := range actions[:8] {
		for _, b := range actions {
			x, _ := json.Marshal(a)
			y, _ := json.Marshal(b)
			sameJSON := bytes.Equal(x, y)
			if _, typed := b.(Action); typed && a.(Action).Equal(b) != sameJSON {
				t.Errorf("Equal(%s, %s) = %v, JSON says %v", x, y, !sameJSON, sameJSON)
			}
			if !sameJSON && match.SameAction(a, b) {
				t.Errorf("SameAction(%s, %s) is true", x, y)
			}
		}
	}
}
