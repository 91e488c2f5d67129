// Package page serves the playground's page: its files (index.html and
// the WebAssembly of the page, its match worker and its bot worker), the
// programs the server offers in the page's seat menus (-player), the
// gauntlets the page starts, and a tournament's replays (-tournament).
// go run ./cmd/wasm serves the files it builds with the Go at hand (Build);
// arena serve, the ones a release carries (Load): the same server.
package page

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/arena-playground/arena/box"
	_ "github.com/arena-playground/arena/engine/games" // the games the programs offered play
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
	_ "github.com/arena-playground/arena/players/gointerp" // go: programs, and the binary as their interpreter
	"github.com/arena-playground/arena/tournament/gauntlet"
)

// Main runs the page's server as the command name with args: it parses
// the flags, gets the page's files from files (which says what it is
// doing on stderr, a build taking a minute), and serves them, or with
// -o writes them as a static site. It returns the exit code. The
// command's main has set cleanup.OnSignals, so that the programs it
// starts end with it.
func Main(name string, args []string, stderr io.Writer, files func() (*Site, error)) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "the address to serve the page on")
	out := fs.String("o", "", "write the static site to this `directory` instead of serving it")
	tdir := fs.String("tournament", "", "also serve the replays of this tournament `directory` at /replays/ID.json, where its report's links open them")
	var offers players.Offers
	fs.Var(&offers, "player", players.OfferUsage)
	python := fs.String("python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)")
	interpret := fs.Bool("interpret", false, "interpret go: programs even where Go is installed (where it is, they are compiled)")
	caps := fs.String("caps", box.DefaultCaps.String(), "what each program may take: memory (all it maps where a cgroup counts it, else its data), procs (processes and threads of its tree), cpu (each process's CPU time), disk and files (what it writes in its directory and /tmp); `off` for no caps")
	gauntlets := fs.String("gauntlets", gauntlet.DefaultDir(), "the `directory` where the page's gauntlets are played, each in a directory of its own (journal, plan, replays), so that one started again resumes")
	quiet := fs.Bool("quiet", false, "do not show here what the programs write for people (their standard error) as they play; the page shows each move's lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arena: %s takes no arguments, only flags (%q)\n", name, fs.Arg(0))
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintln(stderr, "arena:", err)
		return code
	}
	players.ServeCommand = name
	hosting, err := (play.Hosting{Python: *python, Interpret: *interpret}).WithCaps(*caps)
	if err != nil {
		return fail(2, err)
	}
	if len(offers) > 0 && *out != "" {
		return fail(2, fmt.Errorf("-player needs the server: a static site (-o) runs no program; run %s -player ... on the machine of the programs", name))
	}
	if err := offers.Offer(hosting); err != nil {
		return fail(1, err)
	}
	for _, p := range offers {
		fmt.Fprintf(stderr, "arena: offering %s in %s's seat menus: %s\n", p.SpecText(), p.Game, p.Spec)
	}
	if c := box.Contain(); len(offers) > 0 && !c.Full() {
		fmt.Fprintf(stderr, "arena: programs are weakly contained here: %s\n", c.Weaker)
	}
	serveOpts := play.ServeOptions{Log: untrusted.NewWriter(stderr), Hosting: hosting}
	if !*quiet {
		serveOpts.Said = serveOpts.Log
	}
	var replays *servedReplays
	if *tdir != "" {
		if replays, err = tournamentReplays(*tdir); err != nil {
			return fail(1, err)
		}
		fmt.Fprintf(stderr, "arena: serving the %d replays of %s at /replays/\n", len(replays.names), *tdir)
	}
	s, err := files()
	if err != nil {
		return fail(1, err)
	}
	for _, name := range []string{"arena.wasm", "gobot.wasm"} {
		f := s.get(name)
		fmt.Fprintf(stderr, "arena: %s is %.2f MB, %.2f MB gzipped\n", name, float64(len(f.data))/1e6, float64(len(f.gz))/1e6)
	}
	if *out != "" {
		if !s.compressed() {
			fmt.Fprintln(stderr, "arena: compressing with brotli (about a minute the first time; kept in the user cache)…")
			s.compressBrotli()
		}
		if err := s.write(*out); err != nil {
			return fail(1, err)
		}
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(stderr, "arena: wrote the site to %s (index.html, worker.js, botworker.js, gauntlet.js, boot.js, wasm_exec.js, arena.wasm, gobot.wasm, each with .br and .gz)\n", abs)
		return 0
	}
	if !s.compressed() && s.compressBrotliNow() {
		fmt.Fprintf(stderr, "arena: serving brotli (arena.wasm %.2f MB), its best in about a minute\n", float64(len(s.get("arena.wasm").brotli()))/1e6)
		go func() {
			start := time.Now()
			s.compressBrotli()
			fmt.Fprintf(stderr, "arena: serving brotli at its best (arena.wasm %.2f MB; %.0f s)\n",
				float64(len(s.get("arena.wasm").brotli()))/1e6, time.Since(start).Seconds())
		}()
	}
	s.replays = replays
	s.programs, s.gauntletDir, s.serve = offers, *gauntlets, serveOpts
	if err := serve(*addr, s, stderr); err != nil {
		return fail(1, err)
	}
	return 0
}
