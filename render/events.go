package render

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// EventKind says what a timeline marker marks.
type EventKind uint8

// Kinds of events.
const (
	EventLead      EventKind = iota // the lead changed hands (Side: the new leader, or NoSide for a tie)
	EventCollision                  // both players wanted the same thing
	EventForfeit                    // a side forfeited
	EventReplaced                   // a side's move was replaced by the rules' substitute
)

// Event is a moment worth a marker on the timeline.
type Event struct {
	Turn  int // the state it happened in (a forfeit), or reached (the others)
	Kind  EventKind
	Side  match.Side
	Label string
}

// turnEventer is implemented by drawers whose game has events of its own.
type turnEventer interface {
	turnEvents(rec *play.Record, k int) []Event
}

// Events returns the events of states from..rec.Len()-1 (and the
// forfeits of a finished match), so that a growing match can be scanned
// once: pass the number of states already scanned as from.
func Events(rec *play.Record, from int) []Event {
	var out []Event
	d, _ := DrawerFor(rec.Game.Info().Name)
	te, _ := d.(turnEventer)
	for k := max(from, 1); k < rec.Len(); k++ {
		before, after := rec.Standing(k-1).Winner, rec.Standing(k).Winner
		if before != after {
			label := "tied"
			if after != match.NoSide {
				label = after.String() + " leads"
			}
			out = append(out, Event{Turn: k, Kind: EventLead, Side: after, Label: label})
		}
		if te != nil {
			out = append(out, te.turnEvents(rec, k)...)
		}
		for side, why := range rec.Turns[k-1].Replaced {
			if why != "" {
				out = append(out, Event{Turn: k - 1, Kind: EventReplaced, Side: match.Side(side), Label: why})
			}
		}
	}
	return out
}

// Forfeits returns the forfeit events of a finished match.
func Forfeits(rec *play.Record) []Event {
	var out []Event
	if rec.Result != nil {
		for _, f := range rec.Result.Forfeits {
			out = append(out, Event{Turn: f.Turn, Kind: EventForfeit, Side: f.Side,
				Label: fmt.Sprintf("%s forfeits: %s", f.Side, f.Reason)})
		}
	}
	return out
}
