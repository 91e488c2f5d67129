//go:build unix

package page

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/tournament"
)

// The server of a tournament's replays serves the replays its journal
// names, as regular files inside the directory: a replay replaced by a
// link out of it, or by a named pipe, is refused at once (the request is
// answered, the server goes on), and a directory that does not exist or
// holds no tournament is an error, not a server of no replays.
func TestTournamentReplaysStayInTheirDirectory(t *testing.T) {
	if _, err := tournamentReplays(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a directory that does not exist was served")
	}
	if _, err := tournamentReplays(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a tournament's directory") {
		t.Errorf("an empty directory: %v", err)
	}
	dir := t.TempDir()
	g, _ := match.Lookup("colosseum")
	p, _ := match.LookupPreset(g, "6")
	cfg, _ := json.Marshal(p.Config)
	plan := &tournament.Plan{Game: "colosseum", Config: cfg, Seed: 4, Format: tournament.RoundRobin, Rounds: 1,
		Entrants: []tournament.Entrant{{Name: "a", Spec: "random"}, {Name: "b", Spec: "greedy"}}}
	if _, err := tournament.Run(t.Context(), plan, tournament.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	s := testSite()
	var err error
	if s.replays, err = tournamentReplays(dir); err != nil {
		t.Fatal(err)
	}
	h := s.handler()
	get := func(name string) (int, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/replays/"+name, nil))
		return w.Code, w.Body.String()
	}
	if code, body := get("r0-p0-a.json"); code != 200 || !strings.Contains(body, `"arena-replay"`) {
		t.Errorf("a replay: %d %.80s", code, body)
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("not for the page"), 0o644)
	a := filepath.Join(dir, tournament.ReplayDir, "r0-p0-a.json")
	os.Remove(a)
	os.Symlink(secret, a)
	if code, body := get("r0-p0-a.json"); code != 404 || strings.Contains(body, "not for the page") || !strings.Contains(body, "a link, not a file") {
		t.Errorf("a replay linked out of the directory: %d %q", code, body)
	}
	b := filepath.Join(dir, tournament.ReplayDir, "r0-p0-b.json")
	os.Remove(b)
	syscall.Mkfifo(b, 0o644)
	if code, body := get("r0-p0-b.json"); code != 404 || !strings.Contains(body, "a named pipe, not a file") {
		t.Errorf("a replay that is a named pipe: %d %q", code, body)
	}
	if code, _ := get("..%2Ftournament.json"); code != 404 {
		t.Errorf("a name outside the journal's: %d", code)
	}
}
