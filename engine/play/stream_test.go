package play

import (
	"context"
	"encoding/json"
	"github.com/arena-playground/arena/engine/match"
	"strings"
	"testing"
)

// serve runs Serve over st and collects its messages; people's moves come
// from answer.
func serve(t *testing.T, st Start, answer func(m Message) (Act, bool)) []Message {
	t.Helper()
	acts := make(chan Act, 1)
	var msgs []Message
	Serve(context.Background(), st, acts, func(m Message) {
		// Through JSON, as between the worker and the page.
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m, err = DecodeMessage(data)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		if m.Kind == MsgAsk {
			if a, ok := answer(m); ok {
				acts <- a
			}
		}
	}, ServeOptions{})
	return msgs
}

func startOf(t *testing.T, cfg *tallyConfig, p1, p2 string) (Setup, Start) {
	t.Helper()
	s := Setup{Game: tally{}, Config: cfg, Seed: 7, Players: [2]Spec{spec(t, p1), spec(t, p2)}}
	st, err := NewStart(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// follow feeds messages to a new follower and returns it with the first
// refusal.
func follow(t *testing.T, s Setup, msgs []Message) (*Follower, error) {
	t.Helper()
	f, err := NewFollower(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if err := f.Add(m); err != nil {
			return f, err
		}
	}
	return f, nil
}

// TestStreamRebuildsTheMatch: what Serve sends, a Follower rebuilds into
// the match Play plays, forfeits included, with the bots' notes.
func TestStreamRebuildsTheMatch(t *testing.T) {
	for _, c := range []struct {
		cfg    tallyConfig
		p1, p2 string
	}{
		{tallyConfig{Turns: 6, Simultaneous: true}, "random", "counter"},
		{tallyConfig{Turns: 5}, "random", "nine"},
		{tallyConfig{Turns: 5}, "one", "eleven"},
	} {
		s, st := startOf(t, &c.cfg, c.p1, c.p2)
		f, err := follow(t, s, serve(t, st, nil))
		if err != nil {
			t.Fatalf("%s vs %s: %v", c.p1, c.p2, err)
		}
		got, want := f.Record(), play(t, &c.cfg, c.p1, c.p2)
		if string(replayBytes(t, got)) != string(replayBytes(t, want)) {
			t.Errorf("%s vs %s: the stream rebuilt\n%s\nPlay played\n%s", c.p1, c.p2, replayBytes(t, got), replayBytes(t, want))
		}
	}
}

// TestStreamAsksAPerson: a person's side is asked at its turn, stale or
// misdirected answers are passed over, and the answer is played.
func TestStreamAsksAPerson(t *testing.T) {
	s, st := startOf(t, &tallyConfig{Turns: 4}, "one", Person)
	asked := 0
	msgs := serve(t, st, func(m Message) (Act, bool) {
		asked++
		if m.Side != match.P2 {
			t.Errorf("asked %s, want P2", m.Side)
		}
		return Act{Turn: m.Turn, Side: match.P2, Action: json.RawMessage("7")}, true
	})
	if asked != 2 {
		t.Errorf("asked %d times in 4 alternating turns, want 2", asked)
	}
	f, err := follow(t, s, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Record().Result; r == nil || r.Scores != [2]match.Score{match.Count(2), match.Count(14)} {
		t.Errorf("result %+v, want 2 to 14", r)
	}
	// A follower knows who is asked until the turn is played.
	f, _ = follow(t, s, msgs[:2])
	if turn, side, ok := f.Asking(); !ok || turn != 1 || side != match.P2 {
		t.Errorf("after %v: asking %d %s %v", msgs[:2], turn, side, ok)
	}
}

// TestStreamPlaysGivenMovesFirst: a link's moves are played as given, and
// the bots take over after them.
func TestStreamPlaysGivenMovesFirst(t *testing.T) {
	s, st := startOf(t, &tallyConfig{Turns: 4}, "one", "nine")
	st.Moves = [][2]json.RawMessage{{json.RawMessage("5"), nil}, {nil, json.RawMessage("0")}}
	f, err := follow(t, s, serve(t, st, nil))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Record().Result; r.Scores != [2]match.Score{match.Count(6), match.Count(9)} {
		t.Errorf("scores %v, want 5+1 to 0+9", r.Scores)
	}
	st.Moves = [][2]json.RawMessage{{json.RawMessage("55"), nil}}
	msgs := serve(t, st, nil)
	if len(msgs) != 1 || msgs[0].Kind != MsgError || !strings.Contains(msgs[0].Error, "55 is not a digit") {
		t.Errorf("an illegal given move: %+v", msgs)
	}
}

// TestFollowerRefusesWhatDoesNotFollow: messages out of order, with
// illegal or undecodable actions, a result that does not follow, an
// unknown kind, and anything after the end are refused, and the record
// stays as it was.
func TestFollowerRefusesWhatDoesNotFollow(t *testing.T) {
	s, st := startOf(t, &tallyConfig{Turns: 3}, "one", "nine")
	good := serve(t, st, nil)
	turn := func(k int, p1, p2 string) Message {
		m := Message{Kind: MsgTurn, Turn: k}
		for side, a := range []string{p1, p2} {
			if a != "" {
				m.Actions[side] = json.RawMessage(a)
			}
		}
		return m
	}
	for _, c := range []struct {
		name string
		msgs []Message
		want string
	}{
		{"a turn skipped", []Message{good[0], turn(2, "1", "")}, "turn 2 arrived where turn 1 was due"},
		{"an illegal action", []Message{turn(0, "10", "")}, "not legal"},
		{"an undecodable action", []Message{turn(0, `"x"`, "")}, "P1 action"},
		{"out of turn", []Message{turn(0, "1", "9")}, "P2 acted out of turn"},
		{"a false result", append(good[:3:3], Message{Kind: MsgEnd, Result: &Result{Outcome: match.Outcome{Winner: match.P1, Scores: [2]match.Score{match.Count(9), match.Count(0)}}, Turns: 3}}), "does not match"},
		{"an end too early", []Message{good[0], {Kind: MsgEnd, Result: good[len(good)-1].Result}}, "before the game is over"},
		{"an ask of a bot", []Message{{Kind: MsgAsk, Turn: 0, Side: match.P1}}, "not a person's turn"},
		{"an unknown kind", []Message{{Kind: "board"}}, "unknown kind"},
		{"after the end", append(good[:len(good):len(good)], good[0]), "after the end"},
		{"the worker's error", []Message{{Kind: MsgError, Error: "out of memory"}}, "out of memory"},
	} {
		f, err := follow(t, s, c.msgs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
			continue
		}
		if rec := f.Record(); rec.Len() != len(rec.Turns)+1 || rec.Last().Turn() != len(rec.Turns) {
			t.Errorf("%s: the refused message changed the record: %d states, %d turns", c.name, rec.Len(), len(rec.Turns))
		}
	}
	if _, err := DecodeMessage([]byte(`{"kind":"turn","turn":"one"}`)); err == nil {
		t.Error("a malformed message decoded")
	}
}

// Serve marks a turn soon (a worker may hold it for the next message)
// when each side to move next thought under a millisecond at its last
// turn, or when the game is over; not when a side to move has yet to
// move, thought longer, or is a person.
func TestNextSoonFollowsTheMoversLastThinks(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    tallyConfig
		p2     string
		thinks [2]int64 // each side's think at every turn, µs
		want   string   // nextSoon before any turn, then after each: s or -
	}{
		{"alternating, the first quick", tallyConfig{Turns: 5}, "random", [2]int64{200, 5000}, "--s-ss"},
		{"alternating, both quick", tallyConfig{Turns: 5}, "random", [2]int64{200, 999}, "--ssss"},
		{"simultaneous, both quick", tallyConfig{Turns: 4, Simultaneous: true}, "random", [2]int64{200, 900}, "-ssss"},
		{"simultaneous, one slow", tallyConfig{Turns: 4, Simultaneous: true}, "random", [2]int64{200, 1000}, "----s"},
		{"a person to move", tallyConfig{Turns: 4}, Person, [2]int64{0, 0}, "--s-s"},
	} {
		s, st := startOf(t, &c.cfg, "random", c.p2)
		msgs := serve(t, st, func(m Message) (Act, bool) {
			return Act{Turn: m.Turn, Side: m.Side, Action: json.RawMessage("1")}, true
		})
		f, err := NewFollower(s)
		if err != nil {
			t.Fatal(err)
		}
		got := []byte{soonMark(nextSoon(f.Record()))}
		for _, m := range msgs {
			if m.Kind != MsgTurn {
				continue
			}
			for side := range m.ThinkUs {
				if m.Actions[side] != nil {
					m.ThinkUs[side] = c.thinks[side]
				}
			}
			if err := f.Add(m); err != nil {
				t.Fatal(err)
			}
			got = append(got, soonMark(nextSoon(f.Record())))
		}
		if string(got) != c.want {
			t.Errorf("%s: soon %q, want %q", c.name, got, c.want)
		}
	}
}

func soonMark(soon bool) byte {
	if soon {
		return 's'
	}
	return '-'
}

// What Serve marks soon: quick bots' turns (some of 200, whatever the
// machine's load); never a turn that took 30 ms (sleepy's), though the
// quick bot moves next, nor one before such a turn.
func TestServeMarksQuickTurnsSoon(t *testing.T) {
	for _, c := range []struct {
		p1, p2   string
		turns    int
		someSoon bool
	}{
		{"random", "random", 200, true},
		{"random", "sleepy", 6, false},
	} {
		_, st := startOf(t, &tallyConfig{Turns: c.turns}, c.p1, c.p2)
		soon := 0
		Serve(context.Background(), st, nil, func(m Message) {
			if m.Kind == MsgTurn && m.Soon {
				soon++
			}
		}, ServeOptions{})
		if (soon > 0) != c.someSoon {
			t.Errorf("%s vs %s: %d turns marked soon", c.p1, c.p2, soon)
		}
	}
}
