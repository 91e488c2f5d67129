package play

import (
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// TestKeptNoteIsReadOnce: a note kept as its JSON is read once, whoever
// asks first, and every goroutine that asks gets that one note, the
// note the JSON says; written again, it is the same JSON.
func TestKeptNoteIsReadOnce(t *testing.T) {
	raw, err := json.Marshal(fullNote())
	if err != nil {
		t.Fatal(err)
	}
	k := keptJSON(raw)
	got := make([]*match.Note, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = k.Get() })
	}
	wg.Wait()
	for i, n := range got {
		if n != got[0] {
			t.Fatalf("goroutine %d read note %p, goroutine 0 %p", i, n, got[0])
		}
	}
	if !reflect.DeepEqual(got[0], fullNote()) {
		t.Fatalf("read as %+v, want %+v", got[0], fullNote())
	}
	if v, ok := k.Eval(); !ok || v != *fullNote().Eval {
		t.Fatalf("its evaluation read ahead: %v %v", v, ok)
	}
	again, err := json.Marshal(k)
	if err != nil || string(again) != string(raw) {
		t.Fatalf("written again as %s (%v), want %s", again, err, raw)
	}
	var none *KeptNote
	if none.Get() != nil || Kept(nil) != nil {
		t.Fatal("no note kept is not nil")
	}
	if _, ok := none.Eval(); ok {
		t.Fatal("no note has an evaluation")
	}
}
