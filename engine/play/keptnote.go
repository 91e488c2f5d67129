package play

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/jsonwire"
)

// KeptNote is a bot's note on a turn as a record keeps it. A note the
// match loop made, or a replay file held, is kept read; a note that came
// in a stream's turn message is kept as the JSON it came as and read the
// first time it is asked for. A page following a match of 30,000 turns
// draws the notes of the few it shows, and reading every mark of every
// note as it arrived was half of following a turn (BenchmarkFollow).
//
// A KeptNote is shared by the copies of the turn that holds it, and may
// be read from several goroutines.
type KeptNote struct {
	once sync.Once
	raw  []byte // the JSON, until read; nil for a note kept read
	note *match.Note
	// eval is a note kept as JSON's evaluation, read ahead (see Eval).
	eval    float64
	hasEval bool
}

// Kept keeps n, read; nil for nil.
func Kept(n *match.Note) *KeptNote {
	if n == nil {
		return nil
	}
	return &KeptNote{note: n}
}

// keptJSON keeps a note as the JSON of a stream's message, an object.
func keptJSON(raw []byte) *KeptNote {
	k := &KeptNote{raw: raw}
	k.eval, k.hasEval = leadingEval(raw)
	return k
}

// leadingEval reads a note's evaluation from its leading keys as
// json.Marshal writes a note (depth, nodes, eval, each left out when
// zero), without reading the rest.
func leadingEval(raw []byte) (float64, bool) {
	r := jsonwire.New(raw)
	r.Byte('{')
	for i := range 3 {
		if !r.Key(noteKeys[i]) {
			continue
		}
		v := r.Float()
		if i == 2 {
			return v, r.OK()
		}
		if !r.Next(',') {
			break
		}
	}
	return 0, false
}

// Eval returns the note's evaluation, if it has one. A note kept as JSON
// is not read for it, only its leading keys: the evaluation graph asks
// every turn's, and a page shows the rest of a few. For a note as
// json.Marshal writes one (what a stream carries) it is Get's.
func (k *KeptNote) Eval() (float64, bool) {
	switch {
	case k == nil:
		return 0, false
	case k.raw != nil:
		return k.eval, k.hasEval
	case k.note.Eval == nil:
		return 0, false
	}
	return *k.note.Eval, true
}

// Get returns the note (nil for a nil KeptNote). A note kept as JSON is
// read on the first call. One that does not read as a note (a stream's
// JSON is json.Marshal's of a note, so only a fault of the program that
// sent it can make one) is returned as a note that says so.
func (k *KeptNote) Get() *match.Note {
	if k == nil {
		return nil
	}
	if k.raw != nil {
		k.once.Do(func() { k.note = readNote(k.raw) })
	}
	return k.note
}

// readNote reads a note's JSON, by hand where json.Marshal wrote it.
func readNote(raw []byte) *match.Note {
	r := jsonwire.New(raw)
	if n := noteWritten(r); r.Done() {
		return n
	}
	n := &match.Note{}
	if err := json.Unmarshal(raw, n); err != nil {
		return &match.Note{Text: fmt.Sprintf("this note could not be read: %v", err)}
	}
	return n
}

// MarshalJSON writes the note: the JSON it was kept as, or the note's.
func (k *KeptNote) MarshalJSON() ([]byte, error) {
	if k.raw != nil {
		return k.raw, nil
	}
	return json.Marshal(k.note)
}

// UnmarshalJSON reads a note at once, so that a replay file's note that
// is not one is an error naming its line.
func (k *KeptNote) UnmarshalJSON(data []byte) error {
	n := &match.Note{}
	if err := json.Unmarshal(data, n); err != nil {
		return err
	}
	k.raw, k.note = nil, n
	return nil
}
