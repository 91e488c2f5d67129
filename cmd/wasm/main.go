//go:build !js

// Command wasm is the playground in a browser. Built for js/wasm it is
// the page's program (main_js.go). Run anywhere else, as
//
//	go run ./cmd/wasm
//
// it builds itself for js/wasm with the same Go, and serves the page on
// http://localhost:8080 (-addr to change), gzip-compressed; with -o DIR it
// writes the same files as a static site for any static host.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "the address to serve the page on")
	out := flag.String("o", "", "write the static site to this `directory` instead of serving it")
	flag.Parse()
	fmt.Fprintln(os.Stderr, "arena: building the WebAssembly (the first build takes a minute)…")
	s, err := buildSite()
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "arena: arena.wasm is %.1f MB, %.1f MB gzipped\n", float64(len(s.wasm))/1e6, float64(len(s.wasmGz))/1e6)
	if *out != "" {
		if err := s.write(*out); err != nil {
			fmt.Fprintln(os.Stderr, "arena:", err)
			os.Exit(1)
		}
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(os.Stderr, "arena: wrote the site to %s (index.html, wasm_exec.js, arena.wasm)\n", abs)
		return
	}
	if err := serve(*addr, s); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}
