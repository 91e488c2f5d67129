package linktext

import (
	"errors"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	src := "package main\n\n// ä bot\nfunc main() {}\n"
	enc := Encode(src)
	if strings.ContainsAny(enc, "+/=") {
		t.Fatalf("%q is not URL-safe", enc)
	}
	if got, err := Decode(enc, len(src)); err != nil || got != src {
		t.Fatalf("Decode = %q, %v", got, err)
	}
}

func TestDecodeRefuses(t *testing.T) {
	bomb := Encode(strings.Repeat("a", 1<<20))
	if _, err := Decode(bomb, 1<<20-1); !errors.Is(err, ErrTooLong) {
		t.Fatalf("a text past its limit: %v", err)
	}
	for _, s := range []string{"!!", Encode("x")[:1] + "AAAA"} {
		if _, err := Decode(s, 100); err == nil || !strings.HasPrefix(err.Error(), "damaged") {
			t.Fatalf("Decode(%q) = %v, want damaged", s, err)
		}
	}
}
