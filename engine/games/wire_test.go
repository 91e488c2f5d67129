package games

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// streamOf is the messages a page receives for rec's match, as JSON.
func streamOf(t testing.TB, rec *play.Record) [][]byte {
	msgs, err := rec.Messages()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// TestStreamsDecodeAsEncodingJSON reads every message of a match of each
// bot that marks its thinking, in every game, as the page reads it
// (play.DecodeMessage, which reads a turn by hand) and as encoding/json
// does: the same messages.
func TestStreamsDecodeAsEncodingJSON(t *testing.T) {
	for _, m := range unmarkedMatches {
		rec := playGame(t, m.game, m.preset, m.p1, m.p2)
		for _, data := range streamOf(t, rec) {
			var want play.Message
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			got, err := play.DecodeMessage(data)
			if err != nil || !reflect.DeepEqual(notesRead(got), notesRead(want)) {
				t.Fatalf("%s %s-%s: %s read as %+v (%v), encoding/json reads %+v", m.game, m.p1, m.p2, data, got, err, want)
			}
			for side, n := range got.Notes {
				v, ok := n.Eval()
				if e := want.Notes[side].Get(); ok != (e != nil && e.Eval != nil) || ok && v != *e.Eval {
					t.Fatalf("%s %s-%s: %s: note %d's evaluation read ahead as %v %v", m.game, m.p1, m.p2, data, side, v, ok)
				}
			}
		}
	}
}

// notesRead is a message with its notes read, to compare: a note kept
// as its JSON and one kept read are the same note.
func notesRead(m play.Message) any {
	notes := [2]*match.Note{m.Notes[0].Get(), m.Notes[1].Get()}
	m.Notes = [2]*play.KeptNote{}
	return []any{m, notes}
}

// BenchmarkDecodeMessage reads the stream of a match of each bot that
// marks its thinking, by play.DecodeMessage (each turn read by hand) and
// by encoding/json in the same run: x-encoding-json is the hand reading's
// time over encoding/json's.
func BenchmarkDecodeMessage(b *testing.B) {
	for _, m := range unmarkedMatches {
		b.Run(strings.Join([]string{m.game, m.p1, m.p2}, "/"), func(b *testing.B) {
			stream := streamOf(b, playGame(b, m.game, m.preset, m.p1, m.p2))
			var byHand, byJSON time.Duration
			for b.Loop() {
				start := time.Now()
				for _, data := range stream {
					if _, err := play.DecodeMessage(data); err != nil {
						b.Fatal(err)
					}
				}
				byHand += time.Since(start)
				start = time.Now()
				for _, data := range stream {
					var msg play.Message
					if err := json.Unmarshal(data, &msg); err != nil {
						b.Fatal(err)
					}
				}
				byJSON += time.Since(start)
			}
			b.ReportMetric(float64(byHand.Nanoseconds())/float64(b.N*len(stream)), "ns/message")
			b.ReportMetric(float64(byJSON.Nanoseconds())/float64(b.N*len(stream)), "ns/message-encoding-json")
			b.ReportMetric(byHand.Seconds()/byJSON.Seconds(), "x-encoding-json")
		})
	}
}

// BenchmarkFollow follows the stream of a match of each bot that marks
// its thinking as the page does (each message read, checked and
// applied by a play.Follower), against computing that match in the same
// run: x-computing is following's time over computing's. The page
// follows on the thread that draws, so each microsecond a turn here is
// one taken from a frame (docs/speed.md).
func BenchmarkFollow(b *testing.B) {
	for _, m := range append(unmarkedMatches[:len(unmarkedMatches):len(unmarkedMatches)],
		struct{ game, preset, p1, p2 string }{"evasion", "2-1", "strong", "greedy"}) {
		b.Run(strings.Join([]string{m.game, m.preset, m.p1, m.p2}, "/"), func(b *testing.B) {
			setup, err := play.NewSetup(m.game, m.preset, 5, m.p1, m.p2)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			rec, err := play.Play(context.Background(), setup)
			if err != nil {
				b.Fatal(err)
			}
			computing := time.Since(start)
			stream := streamOf(b, rec)
			var following time.Duration
			for b.Loop() {
				start := time.Now()
				f, err := play.NewFollower(setup)
				if err != nil {
					b.Fatal(err)
				}
				for _, data := range stream {
					msg, err := play.DecodeMessage(data)
					if err == nil {
						err = f.Add(msg)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				following += time.Since(start)
			}
			b.ReportMetric(float64(following.Nanoseconds())/float64(b.N*len(rec.Turns)), "ns/turn")
			b.ReportMetric(following.Seconds()/float64(b.N)/computing.Seconds(), "x-computing")
		})
	}
}
