//go:build !js

package players

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSaidIsBoundedAMove: a program that prints a million lines in one
// move shows the person running the match as many lines as its note
// keeps, then how many more there were; the next move shows its own.
func TestSaidIsBoundedAMove(t *testing.T) {
	var live bytes.Buffer
	s := newSaid(2048)
	s.tellTo(&live, "P1")
	line := []byte(strings.Repeat("x", 50) + "\n")
	for range 1_000_000 {
		s.Write(line)
	}
	move := s.take()
	if len(move) != MaxSaidLines+1 || move[MaxSaidLines] != fmt.Sprintf("(%d more lines)", 1_000_000-MaxSaidLines) {
		t.Fatalf("the note keeps %d lines, the last %q", len(move), move[len(move)-1])
	}
	shown := strings.Split(strings.TrimSpace(live.String()), "\n")
	if len(shown) != MaxSaidLines+1 || shown[MaxSaidLines] != "P1| "+move[MaxSaidLines] {
		t.Fatalf("the terminal showed %d lines (%d bytes); want %d and the count", len(shown), live.Len(), MaxSaidLines+1)
	}
	s.Write([]byte("next move\n"))
	if got := s.take(); len(got) != 1 || !strings.HasSuffix(live.String(), "P1| next move\n") {
		t.Fatalf("the next move: %q", got)
	}
}
