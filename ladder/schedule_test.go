package ladder

import (
	"context"
	"database/sql"
	"math"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// finishNext leases the next game and records a result for it: the
// lower version id wins, so that the ratings spread.
func finishNext(t *testing.T, st *Store) *Lease {
	t.Helper()
	ctx := context.Background()
	l, err := st.TakeLease(ctx, "test", time.Hour)
	if err != nil || l == nil {
		t.Fatalf("no game to lease: %v", err)
	}
	w := match.P1
	if l.Seats[1] != RandomBot && l.Seats[1] < l.Seats[0] || l.Seats[0] == RandomBot {
		w = match.P2
	}
	if err := st.Finish(ctx, l.Lease, Outcome{Result: &play.Result{Outcome: match.Outcome{Winner: w}, Turns: 1}}); err != nil {
		t.Fatal(err)
	}
	return l
}

// The scheduler's results, kept in memory as games finish, are the
// database's: its fit equals the pages' fit read afresh. And a new
// version plays first: the pairs queued before it was ready go, and the
// next game leased is its.
func TestScheduleKeepsUpAndPlaysANewVersionFirst(t *testing.T) {
	st, _ := newLadder(t, "ann", "bob", "cat", "dan")
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	for _, n := range []string{"ann", "bob", "cat", "dan"} {
		if _, err := st.Submit(ctx, n, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st) // its check game
	}
	if _, err := st.Schedule(ctx, 1, 4); err != nil {
		t.Fatal(err)
	}
	for range 30 {
		if _, err := st.Schedule(ctx, 1, 4); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	plan, err := st.readForPlan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := st.read(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range plan.versions {
		if d := math.Abs(plan.fit.Elo(i) - pages.fit.Elo(i)); d > 1e-6 {
			t.Errorf("version %d: the scheduler's rating %.6f, the pages' %.6f", plan.versions[i].ID, plan.fit.Elo(i), pages.fit.Elo(i))
		}
		if id := plan.versions[i].ID; plan.count[id] != pages.count[id] {
			t.Errorf("version %d: %d games for the scheduler, %d for the pages", id, plan.count[id], pages.count[id])
		}
	}
	if pages.count[plan.versions[0].ID] == 0 {
		t.Fatal("no ladder game was played")
	}

	v, err := st.Submit(ctx, "dan", u)
	if err != nil {
		t.Fatal(err)
	}
	if l := finishNext(t, st); l.Kind != CheckGame || l.Seats[0] != v.ID {
		t.Fatalf("the game after dan's submission: %+v, want its check game", l.Game)
	}
	if queued, _ := st.Games(ctx, LadderGame, "queued"); len(queued) != 0 {
		t.Errorf("%d ladder games still queued, planned before dan's new version", len(queued))
	}
	if _, err := st.Schedule(ctx, 1, 4); err != nil {
		t.Fatal(err)
	}
	l := finishNext(t, st)
	if l.Kind != LadderGame || l.Seats[0] != v.ID && l.Seats[1] != v.ID {
		t.Errorf("the next game: %+v, want dan's new version %d in it", l.Game, v.ID)
	}
}

// A ladder's results land while another process writes to its database,
// as the report maker does: every transaction waits for the write lock
// when it begins. Begun deferred, a transaction that had read when the
// other wrote was refused at its first write (SQLITE_BUSY), and the
// worker's result was lost.
func TestResultsLandWhileAnotherProcessWrites(t *testing.T) {
	st, _ := newLadder(t, "ann", "bob", "cat")
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	for _, n := range []string{"ann", "bob", "cat"} {
		if _, err := st.Submit(ctx, n, u); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	other, err := Open(st.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// It holds the write lock a while, as a report's write does, and
	// lets go of it between; each result waits for a write of its, so
	// that the two take turns.
	var wrote atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			err := other.tx(ctx, func(tx *sql.Tx) error {
				_, err := tx.Exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('noise', ?)`, strconv.Itoa(n))
				time.Sleep(2 * time.Millisecond)
				return err
			})
			if err != nil {
				t.Error(err)
				return
			}
			wrote.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	defer func() { close(stop); <-done }()
	for range 60 {
		for seen := wrote.Load(); wrote.Load() == seen; {
			select {
			case <-done:
				t.FailNow() // it said why
			default:
				time.Sleep(100 * time.Microsecond)
			}
		}
		if _, err := st.Schedule(ctx, 1, 2); err != nil {
			t.Fatal(err)
		}
		finishNext(t, st)
	}
	t.Logf("60 results landed beside %d writes of another connection", wrote.Load())
}
