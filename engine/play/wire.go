package play

import (
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/jsonwire"
)

// turnWritten reads a MsgTurn message when it is exactly as json.Marshal
// writes one (what Serve and the page's worker send); ok is false for
// any other message or form, which DecodeMessage then reads with
// encoding/json. A page following a match reads every turn, both bots'
// notes and every mark in them, and encoding/json's reflection was the
// most of its main thread's Go (BenchmarkDecodeMessage compares the two).
func turnWritten(data []byte) (m Message, ok bool) {
	r := jsonwire.New(data)
	r.Byte('{')
	if !r.Key("kind") || r.String() != MsgTurn {
		return m, false
	}
	m.Kind = MsgTurn
	r.Byte(',')
	if !r.Key("turn") {
		return m, false
	}
	m.Turn = int(r.Int())
	r.Byte(',')
	if !r.Key("actions") {
		return m, false
	}
	r.Byte('[')
	m.Actions[0] = r.Raw()
	r.Byte(',')
	m.Actions[1] = r.Raw()
	r.Byte(']')
	// The keys json.Marshal leaves out when they are zero, in order.
	if r.Next(',') {
		if !keys(r, turnKeys[:], func(k int) {
			switch k {
			case 0:
				m.Notes[0], m.Notes[1] = jsonwire.Pair(r, keptWritten)
			case 1:
				m.Replaced[0], m.Replaced[1] = jsonwire.Pair(r, (*jsonwire.Reader).String)
			case 2:
				m.ThinkMs[0], m.ThinkMs[1] = jsonwire.Pair(r, (*jsonwire.Reader).Float)
			case 3:
				m.ThinkUs[0], m.ThinkUs[1] = jsonwire.Pair(r, (*jsonwire.Reader).Int)
			}
		}) {
			return m, false
		}
	}
	r.Byte('}')
	return m, r.Done()
}

// turnKeys are a turn message's keys after its actions, in order.
var turnKeys = [...]string{"notes", "replaced", "think_ms", "think_us"}

// keys reads an object's keys from names, in their order, each absent
// one passed over, and each one's value by read(its index), up to the
// object's end; it reports false at a key not in names (or out of their
// order), with the key left unread.
func keys(r *jsonwire.Reader, names []string, read func(int)) bool {
	k := 0
	for more := true; more && r.OK(); more = r.Next(',') {
		for k < len(names) && !r.Key(names[k]) {
			k++
		}
		if k == len(names) {
			return false
		}
		read(k)
		k++
	}
	return true
}

// keptWritten reads a note, or null, as its JSON, kept to be read when it
// is asked for (KeptNote): a JSON object.
func keptWritten(r *jsonwire.Reader) *KeptNote {
	if r.Null() {
		return nil
	}
	raw := r.Raw()
	if len(raw) == 0 || raw[0] != '{' {
		r.Fail()
		return nil
	}
	return keptJSON(raw)
}

// noteWritten reads a note, or null, as json.Marshal writes match.Note:
// its keys in the struct's order, each left out when zero.
func noteWritten(r *jsonwire.Reader) *match.Note {
	if r.Null() {
		return nil
	}
	n := &match.Note{}
	r.Byte('{')
	if r.Next('}') {
		return n
	}
	if !keys(r, noteKeys[:], func(k int) {
		switch k {
		case 0:
			n.Depth = int(r.Int())
		case 1:
			n.Nodes = r.Int()
		case 2:
			v := r.Float()
			n.Eval = &v
		case 3:
			n.Line = jsonwire.List(r, (*jsonwire.Reader).String)
		case 4:
			n.Text = r.String()
		case 5:
			n.Said = jsonwire.List(r, (*jsonwire.Reader).String)
		case 6:
			n.Marks = jsonwire.List(r, markWritten)
		case 7:
			n.MarksLeft = int(r.Int())
		case 8:
			n.Expects = jsonwire.List(r, placeWritten)
		}
	}) {
		r.Fail() // a key this reader does not know
	}
	r.Byte('}')
	return n
}

// noteKeys are match.Note's keys, in its struct's order.
var noteKeys = [...]string{"depth", "nodes", "eval", "line", "text", "said", "marks", "marksLeft", "expects"}

// markWritten reads a mark: {"at":PLACE,"v":NUMBER} and its label if any.
func markWritten(r *jsonwire.Reader) match.Mark {
	var m match.Mark
	r.Byte('{')
	if !r.Key("at") {
		r.Fail()
	}
	m.At = placeWritten(r)
	r.Byte(',')
	if !r.Key("v") {
		r.Fail()
	}
	m.Value = r.Float()
	if r.Next(',') {
		if !r.Key("label") {
			r.Fail()
		}
		m.Label = r.String()
	}
	r.Byte('}')
	return m
}

// placeWritten reads a place's string, as Place.UnmarshalText reads it.
func placeWritten(r *jsonwire.Reader) match.Place {
	var p match.Place
	s := r.String()
	if r.OK() && p.UnmarshalText([]byte(s)) != nil {
		r.Fail() // encoding/json names what is wrong with it
	}
	return p
}
