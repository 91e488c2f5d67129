package ui

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/fileerr"
)

// filePrefix marks a preset that is a loaded file: "file:input.txt".
const filePrefix = "file:"

// maxFileSize bounds what a dropped file may hold: configs and course
// inputs are small, replays of long matches a few megabytes; the same
// bound as every file arena reads.
const maxFileSize = 64 << 20

// loadedFile is a config read from a file (dropped on the window, or
// given to the desktop with -config): a course's input.txt, a Life
// config.json. It is offered as one more board of its game.
type loadedFile struct {
	game, name string
	cfg        match.Config
}

// preset is the id of the file among its game's presets.
func (f *loadedFile) preset() string { return filePrefix + f.name }

// LoadFile reads a file as a config: of the game preferred if it takes
// it, else of the first game that does. When none does, the error is the
// one of the game whose reader got furthest into the file (the file is
// most likely in its format), naming the line.
func LoadFile(preferred, name string, data []byte) (game string, cfg match.Config, err error) {
	g, err := match.Lookup(preferred)
	if err != nil {
		return "", nil, err
	}
	if cfg, err = g.LoadConfig(name, data); err == nil {
		return preferred, cfg, nil
	}
	furthest := lineOf(err)
	for _, other := range match.Games() {
		if other.Info().Name == preferred {
			continue
		}
		c, e := other.LoadConfig(name, data)
		if e == nil {
			return other.Info().Name, c, nil
		}
		if l := lineOf(e); l > furthest {
			err, furthest = e, l
		}
	}
	return "", nil, err
}

// lineOf is the line a file error names, 0 if none.
func lineOf(err error) int {
	var fe *fileerr.FileError
	if errors.As(err, &fe) {
		return fe.Line
	}
	return 0
}

// droppedFile is a file read from a drop, waiting for the next Update.
type droppedFile struct {
	name string
	data []byte
	err  error
}

// Load opens a file's config as a match of its game, from any goroutine:
// the next Update picks it up.
func (a *App) Load(name string, data []byte) {
	a.dropMu.Lock()
	defer a.dropMu.Unlock()
	a.drops = append(a.drops, droppedFile{name: name, data: data})
}

// readDrops reads the files dropped on the window since the last frame
// on a goroutine (in the browser a read waits for the page), and opens
// those that came in.
func (a *App) readDrops() {
	if files := ebiten.DroppedFiles(); files != nil {
		go func() {
			name, data, err := firstFile(files)
			a.dropMu.Lock()
			a.drops = append(a.drops, droppedFile{name, data, err})
			a.dropMu.Unlock()
		}()
	}
	a.dropMu.Lock()
	drops := a.drops
	a.drops = nil
	a.dropMu.Unlock()
	for _, d := range drops {
		if d.err != nil {
			a.toastf("%v", d.err)
			continue
		}
		a.open(d.name, d.data)
	}
}

// firstFile reads the first regular file at the root of a drop.
func firstFile(files fs.FS) (string, []byte, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return "", nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		f, err := files.Open(e.Name())
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
		if err != nil {
			return "", nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
		if len(data) > maxFileSize {
			return "", nil, fmt.Errorf("%s: larger than %d MB: not a config or a replay", e.Name(), maxFileSize>>20)
		}
		return e.Name(), data, nil
	}
	return "", nil, fmt.Errorf("drop a file: a course's input.txt, a game's config or a replay")
}

// loadFile reads a file as LoadFile does, kept under its base name.
func loadFile(preferred, path string, data []byte) (*loadedFile, error) {
	game, cfg, err := LoadFile(preferred, path, data)
	if err != nil {
		return nil, err
	}
	return &loadedFile{game: game, name: filepath.Base(path), cfg: cfg}, nil
}

// Setup is the match the options describe, as the window starts it: on
// the file when one is given, else on the preset.
func Setup(o Options) (play.Setup, error) {
	if o.FileData == nil {
		return o.Link.Setup(nil, o.Serve.Hosting)
	}
	f, err := loadFile(o.Game, o.File, o.FileData)
	if err != nil {
		return play.Setup{}, err
	}
	l := o.Link
	l.Game, l.Preset = f.game, f.preset()
	return l.Setup(f, o.Serve.Hosting)
}

// open starts a match on a file's config, with the players chosen in the
// start view; an error (the file's line and what was expected) is shown.
func (a *App) open(path string, data []byte) {
	if isReplay(data) {
		a.openReplay(path, data, a.opts.Turn)
		return
	}
	f, err := loadFile(a.opts.Game, path, data)
	if err != nil {
		a.toastf("%v", err)
		return
	}
	a.loaded = f
	a.start.selectGame(f.game) // offers the file, keeps the players the game has
	l := a.start.settings()
	l.Preset, l.Seed = f.preset(), a.opts.Seed
	a.startMatch(l)
	if a.match != nil {
		a.toastf("playing %s", f.name)
	}
}

// isFile reports whether a preset id names a loaded file.
func isFile(preset string) bool { return strings.HasPrefix(preset, filePrefix) }
