package main

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-playground/arena/render"
)

// These tests run the built command: the window needs a display, which
// `make test` provides with Xvfb.

func build(t *testing.T, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// TestWindowShowsTheBoard opens the window on a match, lets it play, and
// looks at what it shows: both players' colours on the board.
func TestWindowShowsTheBoard(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no DISPLAY: run the tests under Xvfb (make test does)")
	}
	shot := filepath.Join(t.TempDir(), "window.png")
	cmd := exec.Command(build(t, ".", "desktop"), "-game", "life", "-p1", "strong", "-p2", "greedy", "-seed", "7", "-screenshot", shot, "-frames", "90")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("desktop: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 640 || b.Dy() < 400 {
		t.Fatalf("the window is %v", b)
	}
	for side, col := range render.Dark.Player {
		if n := count(img, col.R, col.G, col.B); n < 200 {
			t.Errorf("P%d's colour covers %d pixels of the window, want a board with its cells", side+1, n)
		}
	}
	if n := count(img, render.Dark.Grid.R, render.Dark.Grid.G, render.Dark.Grid.B); n < 1000 {
		t.Errorf("the grid covers %d pixels", n)
	}
}

func count(img image.Image, r, g, b uint8) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if uint8(pr>>8) == r && uint8(pg>>8) == g && uint8(pb>>8) == b {
				n++
			}
		}
	}
	return n
}

// TestRecordMatchesArena: -record writes, without a window, the same
// bytes as `arena record` with the same arguments.
func TestRecordMatchesArena(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "desktop.gif"), filepath.Join(dir, "arena.gif")
	if out, err := exec.Command(build(t, ".", "desktop"), "-game", "life", "-p1", "strong", "-p2", "greedy", "-seed", "7", "-record", a).CombinedOutput(); err != nil {
		t.Fatalf("desktop -record: %v\n%s", err, out)
	}
	if out, err := exec.Command(build(t, "../arena", "arena"), "record", "-game", "life", "-p1", "strong", "-p2", "greedy", "-seed", "7", "-o", b).CombinedOutput(); err != nil {
		t.Fatalf("arena record: %v\n%s", err, out)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Errorf("desktop -record wrote %d bytes, arena record %d; they differ", len(da), len(db))
	}
}

// TestConfigFileMatchesArena: -config with a course input (no -game: the
// file picks its game) records what arena record does with that config.
func TestConfigFileMatchesArena(t *testing.T) {
	dir := t.TempDir()
	input := "../../engine/mapcolor/testdata/case1100.txt"
	a, b := filepath.Join(dir, "desktop.gif"), filepath.Join(dir, "arena.gif")
	if out, err := exec.Command(build(t, ".", "desktop"), "-config", input, "-p1", "strong", "-p2", "random", "-seed", "3", "-record", a).CombinedOutput(); err != nil {
		t.Fatalf("desktop -config -record: %v\n%s", err, out)
	}
	if out, err := exec.Command(build(t, "../arena", "arena"), "record", "-game", "mapcolor", "-config", input, "-p1", "strong", "-p2", "random", "-seed", "3", "-o", b).CombinedOutput(); err != nil {
		t.Fatalf("arena record: %v\n%s", err, out)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Errorf("desktop -config -record wrote %d bytes, arena record %d; they differ", len(da), len(db))
	}
}

// With no display, -h prints the window's usage and starting it says so
// in one line, before Ebitengine's initialisation (which would panic with
// a goroutine dump) runs: package options parses the flags first.
func TestHelpWithoutDisplay(t *testing.T) {
	bin := build(t, ".", "arena-desktop")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	help := exec.Command(bin, "-h")
	help.Env = env
	out, err := help.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Usage: "+bin+" [flags]") || !strings.Contains(string(out), "-replay file") || strings.Contains(string(out), "goroutine") {
		t.Errorf("-h with no display: %v\n%s", err, out)
	}
	start := exec.Command(bin, "-game", "life")
	start.Env = env
	out, err = start.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "no display to open a window on") {
		t.Errorf("starting with no display: %v\n%s", err, out)
	}
}
