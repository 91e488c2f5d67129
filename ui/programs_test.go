//go:build !js

package ui

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
)

// The window offers the desktop's -player programs as the page does: a
// match with one plays as arena play plays its spec, and the gauntlet
// view runs in the window's own process.
func TestWindowPlaysOfferedPrograms(t *testing.T) {
	var serve play.ServeOptions
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import numpy").Run() == nil {
			serve.Hosting.Python = py
			break
		}
	}
	if serve.Hosting.Python == "" {
		t.Fatal("no python3 with NumPy: make deps installs it")
	}
	p, err := players.ParseOffer("colosseum/windowed=py:../cmd/arena/testdata/comp424/agents/student_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := players.Offer(p); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Link: Link{Game: "colosseum", P1: "served:windowed", P2: "greedy", Seed: 3, Start: true}, Serve: serve, Programs: []Program{{Game: "colosseum", Name: "windowed", Spec: "served:windowed", Kind: "py"}}, Gauntlets: LocalGauntlets{Dir: t.TempDir(), Serve: serve}})
	a.Layout(1280, 800)
	for !a.Status().Done && a.Status().Failed == "" {
		a.Update()
	}
	g, _ := match.Lookup("colosseum")
	want, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 3, Players: [2]play.Spec{p.Spec, {Name: "greedy"}}, Hosting: serve.Hosting})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Status(); got.Result != want.Result.String() {
		t.Fatalf("the window ends with %q (failed %q), arena play with %q", got.Result, got.Failed, want.Result)
	}
	winner := "draw"
	if want.Result.Winner != match.NoSide {
		winner = want.Result.Winner.String()
	}
	if got := a.Status(); got.Winner != winner || got.Reason != want.Result.Reason {
		t.Errorf("the status's winner %q and reason %q, arena play's %q and %q", got.Winner, got.Reason, winner, want.Result.Reason)
	}

	a.showStart()
	a.start.presets.choose("7")
	a.showGauntlet("colosseum")
	if b := a.gauntlet.boards.id(); b != "7" {
		t.Errorf("the gauntlet offers board %q first, the start view shows 7", b)
	}
	a.gauntlet.boards.choose("6")
	a.gauntlet.pairs.choose("1")
	a.gauntlet.start()
	for {
		a.Update()
		if st := a.Status().Gauntlet; st != nil && (st.Done || st.Error != "") {
			if st.Error != "" || st.Played != 2*len(g.Bots()) || !strings.Contains(st.Title, "(6) gauntlet") {
				t.Fatalf("the window's gauntlet %q: %d of %d games, error %q", st.Title, st.Played, st.Total, st.Error)
			}
			break
		}
	}
	if v := a.Status().View; v != "gauntlet" {
		t.Errorf("the view is %q", v)
	}
}
