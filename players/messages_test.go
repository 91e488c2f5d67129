//go:build !js

package players

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

// A line cut short by a reset is not a message; one ended by an ordinary
// end is.
func TestMessagesDropsWhatAResetCut(t *testing.T) {
	for _, c := range []struct {
		name string
		end  error
		want []string
	}{
		{"end", io.EOF, []string{"me", "1 2", "xxx"}},
		{"reset", syscall.ECONNRESET, []string{"me", "1 2"}},
	} {
		r := io.MultiReader(strings.NewReader("me\n1 2\nxxx"), iotest.ErrReader(c.end))
		var got []string
		sc := messages(r, bufio.ScanLines)
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
