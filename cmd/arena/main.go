// Command arena plays the playground's games headless: single matches,
// GIF recordings, tournaments between bots, conformance checks against
// traces recorded from the original programs, and the course formats.
//
// Usage:
//
//	arena <command> [flags]
//
// Run "arena help" for the commands and "arena <command> -h" for flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	_ "github.com/arena-playground/arena/engine/games"
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/progname"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
	_ "github.com/arena-playground/arena/players/gointerp" // go: bots, and this binary as their interpreter
)

// command is one subcommand.
type command struct {
	name, args, summary string
	run                 func(args []string, stdout, stderr io.Writer) error
	files               bool // takes files as arguments
}

// commands is filled in init: the commands refer to it for their help.
var commands []command

func init() {
	commands = []command{
		{"games", "", "list the games", runGames, false},
		{"bots", "-game NAME", "list a game's bots and their options", runBots, false},
		{"play", "-game NAME -p1 BOT -p2 BOT [-seed N]", "play one match and print the result", runPlay, false},
		{"record", "-game NAME (-p1 BOT -p2 BOT | -replay FILE) -o OUT.gif|png", "record a match as an animated GIF or one PNG frame", runRecord, false},
		{"analyse", "-replay FILE [-turn N] [-k K] [-depth D | -nodes N] [-json]", "analyse a replay's position: the K best options with exact values and lines, and what refutes the others", runAnalyse, true},
		{"report", "-replay FILE [-depth D | -nodes N] [-json]", "report on a game: each decision's expected points lost against the best option, its label, and each side's accuracy", runReport, true},
		{"drill", "-replay FILE -turn N -p BOT  |  -suite DIR -p BOT  |  -replay FILE -turn N -save DIR", "play a position again with your bot and say whether its move is within the tolerance of the best; a folder of drills is a regression suite", runDrill, true},
		{"autoplay", "-game NAME -p1 A -p2 B -n GAMES", "play many games with sides alternated and sum up", runAutoplay, false},
		{"tournament", "-game NAME -o DIR [-format roundrobin|gauntlet|sprt] NAME=SPEC...  |  merge -o DIR DIR...  |  report DIR -o report.html  |  show DIR  |  verify DIR", "run a class tournament, resumable, sharded; join shards; write its report; verify its games", runTournament, true},
		{"ladder", "tokens | serve | submit | work | freeze | final | accommodate  (arena help ladder: a line each)", "run a class ladder all term: students submit, games run without end, ratings with their intervals", runLadder, true},
		{"box", "check", "try the attacks of a hostile entrant in boxes made as this machine makes them, and say what held and which layer it lacks", runBox, false},
		{"conform", "-game NAME FILE...", "replay reference files recorded from the original programs", runConform, true},
		{"template", "-game NAME [-o FILE.go]", "print the Go source a bot of your own starts from (play it as go:FILE.go)", runTemplate, false},
		{"bot", "-game NAME -bot SPEC", "serve a bot over the game's line protocol on stdin/stdout", runBot, false},
		{"csp", "input.txt [-o output.txt]", "the map-colouring course's program: write its output.txt from an input.txt", runCSP, true},
		{"serve", "[-addr HOST:PORT] [-player GAME/NAME=SPEC]... [-o DIR]", "serve the page in a browser (the programs of -player in its seat menus and gauntlets), or write it as a static site", runServe, false},
		{"desktop", "[-game NAME] [-p1 BOT] [-p2 BOT] [-replay FILE] ...", "open the playground in a window (the arena-desktop program beside arena; -h for its flags)", runDesktop, false},
		{"version", "", "name the release and the commit arena was built from", runVersion, false},
	}
}

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	cleanup.OnSignals()
	players.ServeCommand = self() + " serve"
	softMemoryLimit()
	code := run(os.Args[1:], terminal(os.Args[1:], os.Stdout), untrusted.NewWriter(os.Stderr))
	os.Exit(code)
}

// terminal is where a command's standard output goes: through an
// untrusted.Writer, so that what other programs wrote (a reason quoting
// their stderr, an entrant's name read back from a directory) cannot act
// on the operator's terminal; but arena bot's standard output is a
// protocol's channel to a host, not a terminal, and goes as it is.
func terminal(args []string, stdout *os.File) io.Writer {
	if len(args) > 0 && args[0] == "bot" {
		return stdout
	}
	return untrusted.NewWriter(stdout)
}

// memoryLimit is the heap size past which the garbage collector works
// harder rather than letting the heap double (Go's default): a record of
// a million-tick Evasion pairing holds 573 MB, and the process peaked at
// 1.18 GB without the limit and at 0.82 GB with it, in the same time.
// GOMEMLIMIT, when set, decides instead.
const memoryLimit = 768 << 20

func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// run executes a command line and returns the exit status: 0, 1 for a
// failure, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		// arena help CMD is arena CMD -h.
		return run([]string{args[1], "-h"}, stdout, stderr)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue usageError
		var code exitCode
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errFailed):
			return 1
		case errors.As(err, &code):
			return int(code)
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "arena %s: %v\n", c.name, err)
			fmt.Fprintf(stderr, "run 'arena %s -h' for help\n", c.name)
			return 2
		default:
			fmt.Fprintf(stderr, "arena %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "arena: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "arena plays two-player AI games between bots, headless.")
	fmt.Fprintf(w, "\nUsage: %s <command> [flags]\n\nCommands:\n", self())
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> -h' for the flags of a command.\n", self())
}

// self is the command that started arena, as the person typed it (./arena,
// arena.exe, go run ./cmd/arena), for the commands messages tell them to
// type.
func self() string { return progname.Command("./cmd/arena") }

// newFlags makes a command's flag set that reports errors instead of
// exiting, and prints its help on -h to stdout.
func newFlags(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("arena "+name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	for _, c := range commands {
		if c.name == name {
			fs.Usage = func() {
				fmt.Fprintf(fs.Output(), "Usage: arena %s %s\n\n%s.\n\nFlags:\n", c.name, c.args, c.summary)
				fs.PrintDefaults()
			}
		}
	}
	return fs
}

// parseFlags parses args, flags before or after the files (arena csp
// input.txt -o output.txt), turning flag errors into usage errors; -h
// prints the help and returns flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseSubFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 && !takesFiles(fs.Name()) {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// takesFiles reports whether the command of a flag set takes files.
func takesFiles(flagSet string) bool {
	for _, c := range commands {
		if "arena "+c.name == flagSet || flagSet == "arena ladder submit" && c.name == "ladder" {
			return c.files
		}
	}
	return false
}
