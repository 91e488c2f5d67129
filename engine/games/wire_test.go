package games

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

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
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s-%s: %s read as %+v (%v), encoding/json reads %+v", m.game, m.p1, m.p2, data, got, err, want)
			}
		}
	}
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
