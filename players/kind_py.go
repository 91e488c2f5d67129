package players

import (
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The "py" kind: an agent file written for a course's own Python
// simulator, played unchanged through the runner the game ships (a
// match.PythonAgents game: Colosseum).
func init() {
	play.RegisterKind(play.Kind{
		Name:        Agent,
		Example:     "py:agents/student_agent.py",
		Description: "a Colosseum agent file written for the course's simulator",
		Needs:       "the agent's file",
		New:         newPython,
		Check:       checkPython,
	})
}

func newPython(g match.Game, spec play.Spec, h play.Hosting) (match.Bot, error) {
	pa, proto, err := pythonGame(g)
	if err != nil {
		return nil, err
	}
	return newPythonBot(proto, pa, spec, h)
}

// checkPython finds the agent's file and a Python; whether the file
// imports and has its agent is told as the match starts it.
func checkPython(g match.Game, spec play.Spec, h play.Hosting) error {
	if _, _, err := pythonGame(g); err != nil {
		return err
	}
	return checkPythonAgent(spec.Command, h)
}

// pythonGame is g's runner of agent files and the protocol it plays by.
func pythonGame(g match.Game) (PythonAgents, Protocol, error) {
	pa, ok := g.(PythonAgents)
	proto, hasProto := g.(Protocol)
	if !ok || !hasProto {
		return nil, nil, fmt.Errorf("py: plays agent files written for a course's Python simulator, and %s has none (colosseum has: agents/student_agent.py)", g.Info().Name)
	}
	return pa, proto, nil
}
