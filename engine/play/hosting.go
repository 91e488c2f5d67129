package play

import (
	"io"
	"os"
	"time"

	"github.com/arena-playground/arena/box/caps"
)

// Hosting is how the programs a match starts are run on this machine:
// what a front end's flags set (-python, -caps), carried by each Setup
// to the kinds that start programs (package players), not kept in
// package variables, so that two matches in one process (a server's
// gauntlet beside a person's match, tests side by side) can differ. The
// zero Hosting is the defaults.
type Hosting struct {
	// Python plays py: agent files: "" is $ARENA_PYTHON, else the first
	// of the system's usual names found on the PATH.
	Python string
	// Caps bound each program (caps.Caps); nil is caps.Default, and
	// &caps.Caps{} caps nothing (-caps off).
	Caps *caps.Caps
	// ConnectWait bounds the wait for a program arena started to connect
	// to its seat (tcp:cmd:); 0 is DefaultConnectWait.
	ConnectWait time.Duration
	// Interpret has go: bots interpreted where Go is installed too (where
	// it is not, they always are): the static page's way, for a person
	// who asks (-interpret) and the tests that compare the two.
	Interpret bool
	// CPUClock charges each program's move with the CPU time its whole
	// tree used for it, read from the kernel, not the wall clock's time,
	// and stops the program while its opponent moves (games where one
	// side moves at a time), so that the machine's load decides no game.
	// A wall-clock guard still bounds a move (CPUGuard): a program that
	// sleeps or blocks loses its clock too. Where the system's box cannot
	// read a program's CPU time, its clock is the wall clock. The ladder
	// and tournaments set it; arena play keeps each course's wall clock
	// unless asked (-clock cpu).
	CPUClock bool
	// Notes is where a kind says what it does once for a match's start
	// ("compiling pg.go"; "go: bots are interpreted here"): nil is the
	// standard error.
	Notes io.Writer
}

// NotesTo is where h's notes go.
func (h Hosting) NotesTo() io.Writer {
	if h.Notes == nil {
		return os.Stderr
	}
	return h.Notes
}

// MaxClockFactor bounds a side's stretched clock (Setup.ClockFactor).
const MaxClockFactor = 10

// CPUClock names a CPU clock in a replay ("clock": "cpu").
const CPUClock = "cpu"

// CPUGuard is how much wall-clock time a move on a CPU clock may take,
// as a multiple of its clock, and CPUGuardMore more: enough for a program
// that gets a tenth of a core on a loaded machine (a test suite beside
// it), and a bound for one that sleeps or waits.
const (
	CPUGuard     = 10
	CPUGuardMore = 10 * time.Second
)

// CPUWait is the wall-clock guard of a move whose CPU clock allows clock.
func CPUWait(clock time.Duration) time.Duration { return clock*CPUGuard + CPUGuardMore }

// DefaultConnectWait is the wait for a started program to connect: it
// has only to start, which Python with NumPy does in a second.
const DefaultConnectWait = 20 * time.Second

// ProgramCaps are the caps of each program the match starts.
func (h Hosting) ProgramCaps() caps.Caps {
	if h.Caps == nil {
		return caps.Default
	}
	return *h.Caps
}

// Connect is the wait for a started program to connect.
func (h Hosting) Connect() time.Duration {
	if h.ConnectWait <= 0 {
		return DefaultConnectWait
	}
	return h.ConnectWait
}

// WithCaps is h with the caps parsed from text, as -caps gives them.
func (h Hosting) WithCaps(text string) (Hosting, error) {
	c, err := caps.Parse(text)
	if err != nil {
		return h, err
	}
	h.Caps = &c
	return h, nil
}
