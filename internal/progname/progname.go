// Package progname says how the person started this program, so that a
// message that tells them a command to type names one that exists where
// they are: ./arena or arena.exe from a download, go run ./cmd/arena from
// the source.
package progname

import (
	"os"
	"path/filepath"
	"strings"
)

// Command is the command that started this program: os.Args[0] as it was
// typed, or "go run " + pkg when go run built it into a temporary
// directory of its own (a go-build folder), where typing its path again
// would run nothing.
func Command(pkg string) string {
	return command(os.Args[0], pkg)
}

func command(arg0, pkg string) string {
	slash := strings.ReplaceAll(filepath.ToSlash(arg0), `\`, "/") // a Windows path, read anywhere
	if strings.Contains(slash, "/go-build") && strings.Contains(slash, "/exe/") {
		return "go run " + pkg
	}
	return arg0
}
