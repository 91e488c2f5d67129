//go:build !linux && !js

package box

// ConfineInterpreter has no seccomp to ask outside Linux: a go: bot's
// interpreter is held by its box alone there (Seatbelt on macOS, a Job
// Object on Windows).
func ConfineInterpreter() error { return nil }

// InterpreterProgram is the interpreter's filter for a bot built with Go
// to load: none where there is no seccomp.
func InterpreterProgram() ([]byte, error) { return nil, nil }
