package match

import "github.com/arena-playground/arena/internal/safefile"

// MaxFileSize bounds every file arena reads that a person or a program
// gives it: see package internal/safefile.
const MaxFileSize = safefile.MaxFileSize

// ReadFile reads a file that a person or a program gave: a regular file
// of at most MaxFileSize bytes, else an error that says what it is. Games
// read their configs and course files with it.
func ReadFile(name string) ([]byte, error) { return safefile.ReadFile(name) }
