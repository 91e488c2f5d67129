package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 games"}, {1, "1 game"}, {2, "2 games"}, {-1, "-1 game"}, {1000, "1000 games"}} {
		if got := S(c.n, "game"); got != c.want {
			t.Errorf("S(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Of(1, "entry", "entries"); got != "1 entry" {
		t.Errorf("Of(1) = %q", got)
	}
	if got := Of(3, "entry", "entries"); got != "3 entries" {
		t.Errorf("Of(3) = %q", got)
	}
}
