//go:build !js

// Command wasm is the playground in a browser. Built for js/wasm it is
// the page's program (main_js.go). Run anywhere else, as
//
//	go run ./cmd/wasm
//
// it builds itself and the match worker (cmd/worker) for js/wasm with the
// same Go, and serves the page on http://localhost:8080 (-addr to
// change), each file brotli- or gzip-compressed as the browser accepts;
// with -o DIR it writes the same files, and their .br and .gz forms, as a
// static site for any static host.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	_ "github.com/arena-playground/arena/engine/games" // the games the programs offered play
	"github.com/arena-playground/arena/engine/match"
	_ "github.com/arena-playground/arena/gobot/interp" // go: bots, and this binary as their interpreter
	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/gauntlet"
	"github.com/arena-playground/arena/internal/untrusted"
	"github.com/arena-playground/arena/players"
)

func main() {
	cleanup.OnSignals()
	addr := flag.String("addr", "localhost:8080", "the address to serve the page on")
	out := flag.String("o", "", "write the static site to this `directory` instead of serving it")
	tdir := flag.String("tournament", "", "also serve the replays of this tournament `directory` at /replays/ID.json, where its report's links open them")
	var offers players.Offers
	flag.Var(&offers, "player", players.OfferUsage)
	flag.StringVar(&players.Python, "python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)")
	caps := flag.String("caps", players.DefaultCaps.String(), "what each program may take: memory (its data), procs (processes and threads of its tree), cpu (each process's CPU time); `off` for no caps")
	gauntlets := flag.String("gauntlets", gauntlet.DefaultDir(), "the `directory` where the page's gauntlets are played, each in a directory of its own (journal, plan, replays), so that one started again resumes")
	quiet := flag.Bool("quiet", false, "do not show here what the programs write for people (their standard error) as they play; the page shows each move's lines")
	flag.Parse()
	var err error
	if players.ProgramCaps, err = players.ParseCaps(*caps); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
	if len(offers) > 0 && *out != "" {
		fmt.Fprintln(os.Stderr, "arena: -player needs the server: a static site (-o) runs no program; run go run ./cmd/wasm -player ... on the machine of the programs")
		os.Exit(2)
	}
	if err := offers.Offer(); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
	for _, p := range offers {
		fmt.Fprintf(os.Stderr, "arena: offering %s in %s's seat menus: %s\n", p.SpecText(), p.Game, p.Spec)
	}
	if c := players.Contain(); len(offers) > 0 && !c.Full() {
		fmt.Fprintf(os.Stderr, "arena: programs are weakly contained here: %s\n", c.Weaker)
	}
	match.ServeLog = untrusted.NewWriter(os.Stderr)
	if !*quiet {
		match.ServeSaid = match.ServeLog
	}
	var replays *servedReplays
	if *tdir != "" {
		if replays, err = tournamentReplays(*tdir); err != nil {
			fmt.Fprintln(os.Stderr, "arena:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "arena: serving the %d replays of %s at /replays/\n", len(replays.names), *tdir)
	}
	fmt.Fprintln(os.Stderr, "arena: building the WebAssembly (the first build takes a minute)…")
	s, err := buildSite()
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
	for _, name := range []string{"arena.wasm", "worker.wasm", "gobot.wasm"} {
		f := s.get(name)
		fmt.Fprintf(os.Stderr, "arena: %s is %.2f MB, %.2f MB gzipped\n", name, float64(len(f.data))/1e6, float64(len(f.gz))/1e6)
	}
	if *out != "" {
		fmt.Fprintln(os.Stderr, "arena: compressing with brotli (about a minute the first time; kept in the user cache)…")
		s.compressBrotli()
		if err := s.write(*out); err != nil {
			fmt.Fprintln(os.Stderr, "arena:", err)
			os.Exit(1)
		}
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(os.Stderr, "arena: wrote the site to %s (index.html, worker.js, botworker.js, wasm_exec.js, arena.wasm, worker.wasm, gobot.wasm, each with .br and .gz)\n", abs)
		return
	}
	go func() {
		start := time.Now()
		s.compressBrotli()
		fmt.Fprintf(os.Stderr, "arena: serving brotli from now on (arena.wasm %.2f MB, worker.wasm %.2f MB; %.0f s)\n",
			float64(len(s.get("arena.wasm").brotli()))/1e6, float64(len(s.get("worker.wasm").brotli()))/1e6, time.Since(start).Seconds())
	}()
	s.replays = replays
	s.programs, s.gauntletDir = offers, *gauntlets
	if err := serve(*addr, s); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}
