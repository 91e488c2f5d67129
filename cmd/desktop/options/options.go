// Package options is the desktop window's command line: its flags, read
// and checked before anything else of the program runs. Ebitengine opens
// the display as its package initialises (internal/ui's init), and
// panics with a goroutine dump where there is none; this package's init
// runs first (Go initialises packages in the order of their import paths
// among those whose imports are ready, and github.com/arena-playground
// sorts before github.com/hajimehoshi; TestHelpWithoutDisplay holds it),
// so that -h prints the usage and a machine with no display is told so
// in one line.
package options

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/internal/progname"
	"github.com/arena-playground/arena/players"
)

// Options are the window's flags, once parsed.
type Options struct {
	Game, P1, P2, Preset, Config, Replay string
	Seed                                 uint64
	Turn                                 float64
	Thinking                             bool
	Analyse                              bool
	Record, Screenshot                   string
	Frames                               int
	Measure                              bool
	Caps, Python                         string
	Offers                               players.Offers
	Quiet                                bool
	Size                                 Size
}

// Size is the window's size in pixels, as -size WxH gives it.
type Size struct{ W, H int }

func (s *Size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// Set reads WxH: each side 200 to 8192 pixels.
func (s *Size) Set(v string) error {
	var w, h int
	if n, err := fmt.Sscanf(v, "%dx%d", &w, &h); err != nil || n != 2 || fmt.Sprintf("%dx%d", w, h) != v {
		return fmt.Errorf("want WIDTHxHEIGHT in pixels, such as 390x844")
	}
	if w < 200 || h < 200 || w > 8192 || h > 8192 {
		return fmt.Errorf("%s: each side is 200 to 8192 pixels", v)
	}
	s.W, s.H = w, h
	return nil
}

// Parsed are the flags of this process, read by init.
var Parsed Options

// Name is how the window is started where it runs: the release's second
// binary, or the source's command.
var Name = "arena-desktop"

// FlagSet is the window's flags, writing into o.
func FlagSet(o *Options, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.Game, "game", "", "open this game's match at once (life, ...)")
	fs.StringVar(&o.P1, "p1", "strong", "the first player: a bot spec or you")
	fs.StringVar(&o.P2, "p2", "greedy", "the second player: a bot spec or you")
	fs.Uint64Var(&o.Seed, "seed", 0, "the match seed (default: random)")
	fs.StringVar(&o.Preset, "preset", "", "a preset config of the game")
	fs.StringVar(&o.Config, "config", "", "open a match on this config `file`: a course's input.txt, a game's config (it picks the game)")
	fs.StringVar(&o.Replay, "replay", "", "open this replay `file` (arena play -replay, a tournament's replays), at -turn")
	fs.Float64Var(&o.Turn, "turn", -1, "the `turn` a replay or the match opens at, paused (default: from the start, playing)")
	fs.BoolVar(&o.Thinking, "thinking", false, "draw what the bots thought over the board, as the T key does (and into -record's GIF)")
	fs.BoolVar(&o.Analyse, "analyse", false, "open the analysis board at -turn, as the A key does: the K best moves with exact values and their lines, and what refutes the others")
	fs.StringVar(&o.Record, "record", "", "write the match's GIF to this `file` and exit, without a window (on Linux it still needs a display: Ebitengine connects to X at start; use arena record on a headless machine)")
	fs.StringVar(&o.Screenshot, "screenshot", "", "save the window to this PNG `file` after -frames frames and exit")
	fs.IntVar(&o.Frames, "frames", 120, "frames to show before -screenshot or -measure (which times as many, less 30, once the match is computed)")
	fs.BoolVar(&o.Measure, "measure", false, "after -frames frames, print the frame rate and the Go-side draw time, and exit")
	fs.StringVar(&o.Python, "python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)")
	fs.StringVar(&o.Caps, "caps", box.DefaultCaps.String(), "what each program may take: memory (all it maps where a cgroup counts it, else its data), procs (processes and threads of its tree), cpu (each process's CPU time), disk and files (what it writes in its directory and /tmp); `off` for no caps")
	fs.Var(&o.Offers, "player", players.OfferUsage)
	o.Size = Size{1280, 800}
	fs.Var(&o.Size, "size", "the window's `WxH` in pixels: 390x844 shows the layout a phone gets (with -screenshot, what docs show of it)")
	fs.BoolVar(&o.Quiet, "quiet", false, "do not show what programs write for people (their standard error) as they play; the panel shows each move's lines")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [flags]\n\nThe playground in a window: watch bots play, play against them, step and scrub, record GIFs.\n\nFlags:\n", Name)
		fs.PrintDefaults()
	}
	return fs
}

// NoDisplay says why this machine has no display for a window, or "".
// On Linux and the BSDs a window needs an X or Wayland server, named by
// DISPLAY or WAYLAND_DISPLAY; macOS and Windows always have one.
func NoDisplay() string {
	switch runtime.GOOS {
	case "darwin", "windows", "js", "android", "ios":
		return ""
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run it in a desktop session, or under xvfb-run; arena record makes a match's GIF with none"
	}
	return ""
}

// exit is os.Exit, which a test replaces.
var exit = os.Exit

// parse reads args into Parsed: -h prints the usage (status 0), a bad flag
// the error and usage (status 2), and a machine with no display is told so
// in one line (status 1).
func parse(args []string, stdout, stderr io.Writer) {
	fs := FlagSet(&Parsed, stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stdout)
			fs.Usage()
			exit(0)
			return
		}
		exit(2)
		return
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected %q: the window takes flags only (see -h)\n", Name, fs.Arg(0))
		exit(2)
		return
	}
	if why := NoDisplay(); why != "" {
		fmt.Fprintf(stderr, "%s: %s\n", Name, why)
		exit(1)
	}
}

func init() {
	if os.Getenv(gobot.InterpreterEnv) == "1" || testBinary(os.Args) {
		return // this binary as a go: bot's interpreter, or go test's
	}
	Name = progname.Command("./cmd/desktop")
	parse(os.Args[1:], os.Stdout, os.Stderr)
}

// testBinary reports whether the process is a test binary (go test's
// flags): the window's own tests, which start the built window.
func testBinary(args []string) bool {
	if strings.HasSuffix(args[0], ".test") || strings.HasSuffix(args[0], ".test.exe") {
		return true
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-test.") {
			return true
		}
	}
	return false
}
