package ladder

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arena-playground/arena/internal/plural"
)

// A deadline that keeps itself: the staff name it once (arena ladder
// serve -deadline, with -grace), and at the deadline and its grace the
// ladder closes its submissions and queues its final round robin, with
// no one at the keyboard. Every page counts down to it.

// Deadline is when a ladder's submissions close.
type Deadline struct {
	At     time.Time     `json:"at"`
	Grace  time.Duration `json:"grace"`  // submissions are still taken this long after At
	Rounds int           `json:"rounds"` // of the final round robin queued at the close
}

// Closes is when submissions close: the deadline and its grace.
func (d Deadline) Closes() time.Time { return d.At.Add(d.Grace) }

// MaxGrace bounds a deadline's grace period.
const MaxGrace = 7 * 24 * time.Hour

// SetDeadline names the ladder's deadline (the zero Deadline: none).
func (s *Store) SetDeadline(d Deadline) error {
	if d.At.IsZero() {
		return s.SetMeta("deadline", "")
	}
	if d.Grace < 0 || d.Grace > MaxGrace {
		return fmt.Errorf("a grace period of %v: want 0 to %v", d.Grace, MaxGrace)
	}
	if d.Rounds == 0 {
		d.Rounds = 2
	}
	if d.Rounds < 1 || d.Rounds > MaxFinalRounds {
		return fmt.Errorf("%d rounds: the final round robin plays 1 to %d", d.Rounds, MaxFinalRounds)
	}
	return s.SetMeta("deadline", fmt.Sprintf("%s %s %d", d.At.Format(time.RFC3339), d.Grace, d.Rounds))
}

// Deadline reads the ladder's deadline; ok is false when there is none.
func (s *Store) Deadline() (d Deadline, ok bool) {
	v, _ := s.Meta("deadline")
	if v == "" {
		return Deadline{}, false
	}
	var at, grace string
	if _, err := fmt.Sscanf(v, "%s %s %d", &at, &grace, &d.Rounds); err != nil {
		return Deadline{}, false
	}
	var err1, err2 error
	d.At, err1 = time.Parse(time.RFC3339, at)
	d.Grace, err2 = time.ParseDuration(grace)
	return d, err1 == nil && err2 == nil
}

// closed says why a submission at t is refused: the ladder frozen, or
// its deadline d and grace passed (the ladder's keeper freezes it soon).
func closed(frozen string, t time.Time, d Deadline, ok bool) error {
	if frozen != "" {
		return ErrFrozen
	}
	if ok && !t.Before(d.Closes()) {
		return fmt.Errorf("%w (the deadline was %s)", ErrFrozen, d.At.Format("Jan 2 15:04 MST"))
	}
	return nil
}

// KeepDeadline waits for the ladder's deadline and its grace, then
// freezes the ladder and queues its final round robin; done (which may
// be nil) is called once it has. A ladder frozen already, or with no
// deadline, is left alone. It returns when ctx ends or the ladder is
// frozen; it reads the deadline again each minute, and at the close.
func (s *Store) KeepDeadline(ctx context.Context, log func(string), done func()) {
	for ctx.Err() == nil {
		if frozen, _ := s.Meta("frozen"); frozen != "" {
			return
		}
		wait := time.Minute
		if d, ok := s.Deadline(); ok {
			left := time.Until(d.Closes())
			if left <= 0 {
				err := s.Freeze(ctx, d.Rounds)
				switch {
				case err == nil:
					log(fmt.Sprintf("the deadline (%s, grace %v) has passed: submissions are closed and the final round robin (%s) is queued", d.At.Format(time.RFC3339), d.Grace, plural.S(d.Rounds, "round")))
					if done != nil {
						done()
					}
					return
				case errors.Is(err, errFrozenAlready):
					return
				default:
					log("the deadline has passed, and the ladder could not be frozen: " + err.Error() + " (trying again in a minute)")
				}
			} else {
				wait = min(wait, left)
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}
