//go:build arena_page

package main

import (
	"embed"
	"io/fs"
)

// The page's files, as go run ./cmd/wasm -o page writes them (each
// gzipped and brotli-compressed; make dist keeps only those forms), put
// here by make dist before it builds arena with -tags arena_page.
//
//go:embed page
var embeddedPage embed.FS

func init() {
	sub, err := fs.Sub(embeddedPage, "page")
	if err != nil {
		panic(err) // a pattern embed checked at build time
	}
	pageFiles = sub
}
