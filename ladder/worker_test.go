package ladder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/gobot"
)

// A worker sends a result again while the server cannot take it (503:
// its store failed) and the lease holds; a result the server refuses for
// what it says, or under a lease that ended, is sent once; and a lease
// that ends stops the sending.
func TestWorkerSendsAResultAgainWhileTheServerCannotTakeIt(t *testing.T) {
	defer func(first, most time.Duration) { resendFirst, resendMost = first, most }(resendFirst, resendMost)
	resendFirst, resendMost = time.Millisecond, 4*time.Millisecond
	st, tokens := newLadder(t, "alice")
	ctx := context.Background()
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	if _, err := st.Submit(ctx, "alice", u); err != nil {
		t.Fatal(err)
	}
	var posts, busy atomic.Int32
	busy.Store(3)
	h := (&Server{Store: st, Width: 100}).Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/ladder/result" {
			if posts.Add(1); busy.Add(-1) >= 0 {
				http.Error(w, "the store is busy", http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	src := Remote{URL: ts.URL, Token: tokens["worker"], Name: "w"}
	w, err := src.Next(ctx)
	if err != nil || w == nil {
		t.Fatalf("the check game's lease: %v %v", w, err)
	}
	var said []string
	log := func(s string) { said = append(said, s) }
	won := Outcome{Result: &play.Result{Outcome: match.Outcome{Winner: match.P1}, Turns: 1}}
	if err := send(ctx, src, w, won, log); err != nil {
		t.Fatalf("the result, sent while the server was busy three times: %v (%q)", err, said)
	}
	if posts.Load() != 4 || len(said) != 3 || !strings.Contains(said[0], "503") || !strings.Contains(said[0], "again in 1ms") {
		t.Errorf("%d posts, the worker said %q", posts.Load(), said)
	}
	if vs, _ := st.Versions(ctx, "alice"); vs[0].State != Ready {
		t.Errorf("alice v1 after its check game's result: %+v", vs[0])
	}

	posts.Store(0)
	if err := send(ctx, src, w, won, log); !errors.Is(err, ErrLeaseGone) || posts.Load() != 1 {
		t.Errorf("the result again, its lease ended: %v after %d posts", err, posts.Load())
	}
	posts.Store(0)
	var refused Refusal
	if err := send(ctx, src, w, Outcome{}, log); !errors.As(err, &refused) || posts.Load() != 1 || !strings.Contains(err.Error(), "neither a result nor a failure") {
		t.Errorf("an empty outcome: %v after %d posts", err, posts.Load())
	}

	posts.Store(0)
	busy.Store(1 << 30)
	short := *w
	short.Until = time.Now().Add(50 * time.Millisecond).UnixMilli()
	if err := send(ctx, src, &short, won, log); err == nil || !strings.Contains(err.Error(), "503") || posts.Load() < 1 {
		t.Errorf("a result the server never takes: %v after %d posts", err, posts.Load())
	}
}

// A result the store could not record is answered 503, to be sent again,
// not 400 as if the worker had sent nonsense, nor 401 as if its token
// were wrong when the store could not read the tokens.
func TestAResultTheStoreCannotRecordIsToBeSentAgain(t *testing.T) {
	st, tokens := newLadder(t, "alice")
	srv := &Server{Store: st, Width: 100}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	st.Close() // its disk gone, as far as the server can tell
	b, _ := json.Marshal(resultRequest{Lease: "a lease", Outcome: Outcome{Failure: "a failure"}})
	code, body := client{t, ts.URL, tokens["worker"]}.do("POST", "/api/ladder/result", bytes.NewReader(b), nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "send this again") {
		t.Errorf("a worker's token the store cannot read: %d %s", code, body)
	}
	rec := httptest.NewRecorder()
	resultTo(rec, httptest.NewRequest("POST", "/api/ladder/result", bytes.NewReader(b)), []*Server{srv})
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "send this again") {
		t.Errorf("a result the store cannot record: %d %s", rec.Code, rec.Body.String())
	}
}
