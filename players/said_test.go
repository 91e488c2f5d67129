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

// A Go program's crash report shows by what it was (its panic: or
// fatal error: line), never by the interpreter's stack, whose frames
// name arena's build machine's paths.
func TestSaidKeepsNoGoStack(t *testing.T) {
	s := newSaid(2048)
	s.goRuntime = true
	var live strings.Builder
	s.tellTo(&live, "P1")
	s.Write([]byte("thinking\nruntime: goroutine stack exceeds 67108864-byte limit\nruntime: sp=0xc0201e0390 stack=[0xc0201e0000, 0xc0401e0000]\nfatal error: stack overflow\n\nruntime stack:\nruntime.throw({0x1234, 0xe})\n\t/usr/local/go/src/runtime/panic.go:1101 +0x48\ngoroutine 7 [running]:\ngithub.com/traefik/yaegi/interp.call.func9(...)\n\t/root/go/pkg/mod/github.com/traefik/yaegi@v0.16.1/interp/run.go:1300\n"))
	got := s.take()
	if want := []string{"thinking", "fatal error: stack overflow"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("kept %q, want %q", got, want)
	}
	for _, text := range []string{live.String(), s.String()} {
		if strings.Contains(text, "goroutine") || strings.Contains(text, "/root/") || strings.Contains(text, "panic.go") {
			t.Errorf("the stack reached a person: %q", text)
		}
	}
}
