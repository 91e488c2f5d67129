//go:build !js && !windows

package players

import (
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// pipedSaid is a said with a pipe to it, and a second write end of the
// pipe, as the program holds it.
func pipedSaid(tb testing.TB) (*said, *outPipe, *os.File) {
	s := newSaid(2048)
	p, err := s.pipe()
	if err != nil {
		tb.Fatal(err)
	}
	fd, err := syscall.Dup(int(p.w.Fd()))
	if err != nil {
		tb.Fatal(err)
	}
	return s, p, os.NewFile(uintptr(fd), "the program's end")
}

// TestTakeHasWhatWasPrintedBeforeIt: the lines a program wrote before its
// answer are in the answer's note even when the copier has not read them
// as the answer arrives (a busy machine had not run it yet: the lines
// landed in the next move's note, or in none at the game's end). Here
// the copier is not started at all: without the drain the note is empty.
func TestTakeHasWhatWasPrintedBeforeIt(t *testing.T) {
	s, p, w := pipedSaid(t)
	defer w.Close()
	w.Write([]byte("one\ntwo\n"))
	if got, want := s.take(), []string{"one", "two"}; !slices.Equal(got, want) {
		t.Errorf("the move's note: %q, want %q", got, want)
	}
	w.Write([]byte("three\n"))
	if got, want := s.take(), []string{"three"}; !slices.Equal(got, want) {
		t.Errorf("the next move's note: %q, want %q", got, want)
	}
	p.started()
	w.Close()
	<-p.done
}

// BenchmarkTakeDrains is what the drain adds to each move's note: a take
// from an idle pipe, against the least a move costs a program (one byte
// there and back through a pipe) measured in the same run: x-roundtrip.
func BenchmarkTakeDrains(b *testing.B) {
	s, p, w := pipedSaid(b)
	defer w.Close()
	p.started()
	r2, w2, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	one := []byte{'x'}
	var take, trip time.Duration
	for b.Loop() {
		t0 := time.Now()
		s.take()
		t1 := time.Now()
		w2.Write(one)
		r2.Read(one)
		trip += time.Since(t1)
		take += t1.Sub(t0)
	}
	b.ReportMetric(float64(take.Nanoseconds())/float64(b.N), "ns/take")
	b.ReportMetric(float64(take)/float64(trip), "x-roundtrip")
}
