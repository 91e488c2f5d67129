//go:build js

package players

import (
	"errors"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// In the browser there are no programs to run: cmd: specs are refused, and
// the WebAssembly builds stay free of os/exec.
var errNoPrograms = errors.New("programs cannot play in the browser: run arena on the command line or the desktop")

func newProcessBot(Protocol, play.Spec, play.Hosting) (match.Bot, error) {
	return nil, errNoPrograms
}

func newTCPBot(Protocol, play.Spec, play.Hosting) (match.Bot, error) {
	return nil, errors.New("network players cannot join in the browser: run arena on the command line or the desktop")
}

func newPythonBot(Protocol, PythonAgents, play.Spec, play.Hosting) (match.Bot, error) {
	return nil, errNoPrograms
}

func newSessionBot(SessionProtocol, play.Spec, Pace, play.Hosting) (match.Bot, error) {
	return nil, errors.New("network players cannot join in the browser: run arena on the command line or the desktop")
}

func lookPath(string) error { return errNoPrograms }

func checkPythonAgent(string, play.Hosting) error { return errNoPrograms }

func newFileBot(FileProtocol, play.Spec, play.Hosting) (match.Bot, error) {
	return nil, errNoPrograms
}
