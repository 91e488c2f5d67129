//go:build !js

package ui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/tournament"
	"github.com/arena-playground/arena/tournament/gauntlet"
	"github.com/arena-playground/arena/tournament/progress"
)

// LocalGauntlets play gauntlets in this process, each in a directory of
// its own under Dir, as Serve says: the desktop window's, where the
// programs are.
type LocalGauntlets struct {
	Dir   string
	Serve play.ServeOptions
}

func (g LocalGauntlets) Run(game, program, board string, pairs int) GauntletFeed {
	f := &localGauntletFeed{}
	gt, err := gauntlet.New(gauntlet.Request{Game: game, Program: program, Board: board, Pairs: pairs}, g.Serve)
	if err != nil {
		f.push(progress.Status{Error: err.Error()})
		return f
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel = cancel
	dir := filepath.Join(g.Dir, gt.Key)
	go gt.Run(ctx, g.Dir, func(e tournament.Entry) string { return filepath.Join(dir, filepath.FromSlash(e.Replay)) },
		func(st progress.Status) {
			st.Report = gt.Key
			f.push(st)
		})
	return f
}

// Open reads a game's replay file.
func (g LocalGauntlets) Open(ref string, got func(string, []byte, error)) {
	data, err := safefile.ReadFile(ref)
	got(ref, data, err)
}

// Report writes the gauntlet's report into its directory, as arena
// tournament writes one, and says where.
func (g LocalGauntlets) Report(key string) (string, error) {
	if !gauntlet.ValidKey(key) {
		return "", os.ErrNotExist
	}
	dir := filepath.Join(g.Dir, key)
	s, err := tournament.Load(dir)
	if err != nil {
		return "", err
	}
	d, err := safefile.OpenDir(dir, false)
	if err != nil {
		return "", err
	}
	defer d.Close()
	err = d.WriteFile("report.html", func(w io.Writer) error {
		return tournament.WriteReport(w, s, dir, ".", "http://localhost:8080/")
	})
	if err != nil {
		return "", err
	}
	return "saved the report to " + filepath.Join(dir, "report.html"), nil
}

// localGauntletFeed is a gauntlet playing on a goroutine.
type localGauntletFeed struct {
	mu     sync.Mutex
	got    []progress.Status
	cancel context.CancelFunc
}

func (f *localGauntletFeed) push(st progress.Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, st)
}

func (f *localGauntletFeed) Poll() []progress.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.got
	f.got = nil
	return out
}

func (f *localGauntletFeed) Stop() {
	if f.cancel != nil {
		f.cancel()
	}
}
