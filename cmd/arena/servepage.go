package main

import (
	"errors"
	"flag"
	"io"
	"io/fs"

	"github.com/arena-playground/arena/internal/progname"
	"github.com/arena-playground/arena/page"
)

// pageFiles are the page's files a release carries (make dist builds them
// with the release's Go and embeds them: pagefiles_embed.go, under the
// build tag arena_page); nil in a build from the repository, which has
// go run ./cmd/wasm to build them.
var pageFiles fs.FS

// errNoPage is arena serve in a build without the page's files.
var errNoPage = errors.New("this arena was built without the page's files: download a release (it carries them), " +
	"or from the repository run go run ./cmd/wasm, which builds them, or make dist")

// exitCode is an exit status a command has already explained.
type exitCode int

func (e exitCode) Error() string { return "exit status" }

// runServe is arena serve: the page's server (package page, the same as
// go run ./cmd/wasm's, with the same flags), on the files this binary
// carries, so that a student with no Go serves the page, offers their
// program in its seat menus and rates it in a gauntlet.
func runServe(args []string, _, stderr io.Writer) error {
	code := page.Main(progname.Command("./cmd/arena")+" serve", args, stderr, func() (*page.Site, error) {
		if pageFiles == nil {
			return nil, errNoPage
		}
		return page.Load(pageFiles)
	})
	if code == 0 {
		return nil
	}
	if code == 2 && len(args) > 0 && isHelp(args) {
		return flag.ErrHelp
	}
	return exitCode(code)
}

// isHelp reports whether a command line asks for help.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}
