//go:build !js

// Command wasm is the playground in a browser. Built for js/wasm it is
// the page's program (main_js.go). Run anywhere else, as
//
//	go run ./cmd/wasm
//
// it builds itself, the match worker (cmd/worker) and the bot worker
// (cmd/botworker) for js/wasm with the same Go, and serves the page on
// http://localhost:8080 (-addr to change), each file brotli- or
// gzip-compressed as the browser accepts; with -o DIR it writes the same
// files, and their .br and .gz forms, as a static site for any static
// host. The server is package page's, as arena serve's is.
package main

import (
	"fmt"
	"os"

	"github.com/arena-playground/arena/internal/cleanup"
	"github.com/arena-playground/arena/internal/progname"
	"github.com/arena-playground/arena/page"
)

func main() {
	cleanup.OnSignals()
	os.Exit(page.Main(progname.Command("./cmd/wasm"), os.Args[1:], os.Stderr, func() (*page.Site, error) {
		fmt.Fprintln(os.Stderr, "arena: building the WebAssembly (the first build takes a minute)…")
		return page.Build()
	}))
}
