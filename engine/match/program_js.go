//go:build js

package match

import (
	"context"
	"errors"
	"time"
)

// In the browser there are no programs to run: cmd: specs are refused, and
// the WebAssembly builds stay free of os/exec.
var errNoPrograms = errors.New("programs cannot play in the browser: run arena on the command line or the desktop")

func newProcessBot(Protocol, string) (Bot, error) { return nil, errNoPrograms }

func newTCPBot(Protocol, Spec) (Bot, error) {
	return nil, errors.New("network players cannot join in the browser: run arena on the command line or the desktop")
}

// RunOnce refuses: see errNoPrograms.
func RunOnce(context.Context, string, string, time.Duration) error { return errNoPrograms }

func newPythonBot(Protocol, PythonAgents, string) (Bot, error) { return nil, errNoPrograms }

// Python is unused in the browser.
var Python string

func newSessionBot(SessionProtocol, Spec, Pace) (Bot, error) {
	return nil, errors.New("network players cannot join in the browser: run arena on the command line or the desktop")
}

func lookPath(string) error { return errNoPrograms }

// RemoveRunners has nothing to remove in the browser.
func RemoveRunners() {}
